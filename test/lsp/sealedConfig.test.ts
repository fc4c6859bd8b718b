// The protocol trace (what `airbyteManifest.trace.server: verbose` writes to the output channel and the
// log files) never shows testing values: the extension seals every config it sends, and the server
// seals the rotated tokens it sends back. Checked with the same jsonrpc tracer the language client uses.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Trace } from 'vscode-languageserver-protocol/node';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import { DEMO_CREDENTIALS } from '../../demo/api/authCredentials';
import { encodedForms } from '../../server/src/runtime/shared/secretPatterns';
import {
  TestReadRequest,
  ConfigUpdateNotification,
  newSealKey,
  openConfig,
  sealConfig,
  isSealed,
  type TestReadParams,
  type ConfigUpdateParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
const KEY = newSealKey();
let client: LspTestClient & { pid: number };
let demo: DemoApi;
let traced = '';

before(async () => {
  demo = await startDemoApi();
  // Started as the extension starts it: the key through a pipe (client/src/serverProcess.ts).
  client = await LspTestClient.startSealed(KEY);
  await client.connection.trace(Trace.Verbose, {
    log: (message: unknown, data?: string) => {
      traced += `${typeof message === 'string' ? message : JSON.stringify(message)}\n${data ?? ''}\n`;
    },
  });
});
after(async () => {
  await client.stop();
  await demo.close();
});

type Read = { slices: { pages: { records: unknown[] }[] }[]; logs: { level: string; message: string }[] };

async function rotatingRead(config: TestReadParams['config'], runId: string): Promise<{ read: Read; updates: ConfigUpdateParams[] }> {
  const uri = 'file:///fixtures/sealed/oauth-auth.yaml';
  await client.open(uri, readFileSync(join(ROOT, 'demo', 'workspace', 'oauth-auth.yaml'), 'utf8'));
  const updates: ConfigUpdateParams[] = [];
  const sub = client.connection.onNotification(ConfigUpdateNotification, (p: ConfigUpdateParams) => {
    if (p.runId === runId) updates.push(p);
  });
  const read = await client.connection.sendRequest(TestReadRequest, {
    uri,
    streamName: 'oauth_rotating_refresh_token',
    config,
    runId,
  } satisfies TestReadParams);
  sub.dispose();
  return { read, updates };
}

const o = DEMO_CREDENTIALS.oauth;
const secretsIn = (text: string, secrets: string[]) => secrets.filter((s) => encodedForms(s).some((f) => text.includes(f)));

test("the sealing key is not in the server's environment: /proc/<pid>/environ never shows it (it came through a pipe)", {
  skip: process.platform !== 'linux',
}, () => {
  const environ = readFileSync(`/proc/${client.pid}/environ`);
  assert.ok(environ.length > 0);
  assert.ok(!environ.includes(Buffer.from(KEY)), 'the key is in the environment block');
  assert.ok(
    !environ
      .toString('latin1')
      .split('\0')
      .some((kv) => kv.startsWith('AIRBYTE_MANIFEST_STUDIO_SEAL_KEY=')),
  );
});

test('a sealed config reads normally; the rotated token comes back sealed; the trace shows none of them', async () => {
  const refresh = (demo.state.auth as { refreshToken?: string } | undefined)?.refreshToken ?? o.initialRefreshToken;
  const config = { url_base: demo.url, client_id: o.clientId, client_secret: o.clientSecret, credentials: { refresh_token: refresh } };
  traced = '';
  const { read, updates } = await rotatingRead(sealConfig(config, KEY), 'sealed-1');
  assert.equal(read.slices[0]?.pages[0]?.records.length, 5, JSON.stringify(read.logs));
  assert.ok(updates.length >= 1 && updates.every((u) => isSealed(u.config)), 'write-backs are sealed');
  const rotated = (openConfig(updates[updates.length - 1].config, KEY).credentials as Record<string, string>).refresh_token;
  assert.notEqual(rotated, refresh);
  assert.match(traced, /Sending request 'airbyte\/testRead/, 'the trace recorded the request');
  assert.match(traced, /\$sealed/);
  assert.deepEqual(secretsIn(traced, [o.clientSecret, refresh, rotated]), []);
});

test('control: without sealing the same trace does show the testing values', async () => {
  const refresh = (demo.state.auth as { refreshToken: string }).refreshToken;
  const config = { url_base: demo.url, client_id: o.clientId, client_secret: o.clientSecret, credentials: { refresh_token: refresh } };
  traced = '';
  await rotatingRead(config, 'plain-1');
  assert.deepEqual(secretsIn(traced, [o.clientSecret, refresh]), [o.clientSecret, refresh]);
});

test('a sealed config the server cannot open is refused clearly, without echoing it', async () => {
  const forged = sealConfig({ api_key: 'forged-key-123' }, newSealKey());
  await assert.rejects(
    client.connection.sendRequest(TestReadRequest, {
      uri: 'file:///fixtures/sealed/oauth-auth.yaml',
      streamName: 'oauth_client_credentials',
      config: forged,
      runId: 'x',
    } satisfies TestReadParams),
    (e: Error) => {
      assert.match(e.message, /The testing values could not be read/);
      return true;
    },
  );
});

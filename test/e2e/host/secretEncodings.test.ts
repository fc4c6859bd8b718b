// Secrets with `/`, `+`, `=`, spaces and non-ASCII, read through four authenticators against an API
// that echoes every credential back in many encodings (URL, form, base64, JSON). The protocol trace is
// on (airbyteManifest.trace.server: verbose, set by the runner, with the log level at trace). Afterwards no form of any secret may
// be in the output channel or the results views (here) nor on disk (the runner's scan).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { describe, it, before, after } from 'mocha';
import { activateExtension, openWorkspaceFile } from './helpers';
import { rememberSecrets } from './demoApi';
import { findSecretsIn } from '../secretEncodings.mjs';

type Api = { outputText(): string; resultsTranscript(): string };
type Outcome =
  | { streamRead: { slices: { pages: { records: unknown[] }[] }[]; logs: { level: string; message: string }[] }; configUpdated: boolean }
  | undefined;

const S = {
  username: 'e2e-reader',
  password: 'e2e pàss/+=wörd 9d2e',
  bearer_token: 'e2e bearer/+=tok 7f3c',
  api_key: 'e2e kéy/+= query 42b8',
  client_id: 'e2e-client',
  client_secret: 'e2e sécret/+= client 0a5f',
  refresh: 'e2e 1//refresh+=tökén 0',
};
const issued: string[] = [];
let current = S.refresh;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

function echoApi(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/oauth/token') {
        const form = Object.fromEntries(new URLSearchParams(body));
        if (form.client_secret !== S.client_secret || form.refresh_token !== current)
          return send(401, { error: 'bad credentials', got: body });
        current = `e2e 1//rotated+=tökén ${issued.length}`;
        const access = `e2e-access/+=${issued.length}x`;
        issued.push(current, access);
        rememberSecrets([current, access]);
        // Expires at once: the next read must refresh again, with the rotated token the extension stored.
        return send(200, { access_token: access, expires_in: 0, refresh_token: current });
      }
      const auth = String(req.headers.authorization ?? '');
      const values = [
        auth,
        auth.replace(/^\S+ /, ''),
        ...url.searchParams.values(),
        Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString('utf8'),
      ];
      const echoed = values.map((v) => ({
        raw: v,
        url: encodeURIComponent(v),
        form: new URLSearchParams({ v }).toString(),
        b64: b64(v),
        b64url: Buffer.from(v).toString('base64url'),
      }));
      send(200, { data: [{ id: 1, stream: url.pathname, echoed, headers: req.headers, query: url.search }] });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe('secrets in every encoding', function () {
  this.timeout(120_000);
  let api: { server: Server; url: string };
  before(async () => {
    await activateExtension();
    api = await echoApi();
    rememberSecrets([S.password, S.bearer_token, S.api_key, S.client_secret, S.refresh, b64(`${S.username}:${S.password}`)]);
  });
  after(async () => {
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'info');
    await new Promise<void>((resolve) => {
      api.server.closeAllConnections();
      api.server.close(() => resolve());
    });
  });

  it('reads with Basic, Bearer, an API key in the query and a rotating OAuth token; no secret in the output channel or the results views', async () => {
    // The language client traces only when its output channel logs at trace level (test-only command).
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'trace');
    const doc = await openWorkspaceFile('secrets/manifest.yaml');
    const uri = doc.uri.toString();
    const values = {
      url_base: api.url,
      username: S.username,
      password: S.password,
      bearer_token: S.bearer_token,
      api_key: S.api_key,
      client_id: S.client_id,
      client_secret: S.client_secret,
      credentials: { refresh_token: current },
    };
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values }), true);
    for (const stream of ['basic', 'bearer', 'key_in_query', 'rotating', 'rotating']) {
      const outcome = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { uri, streamName: stream });
      const records = outcome?.streamRead.slices.flatMap((s) => s.pages).flatMap((p) => p.records) ?? [];
      assert.equal(records.length, 1, `${stream}: ${JSON.stringify(outcome?.streamRead.logs)}`);
    }
    assert.ok(issued.length >= 4, 'the second rotating read used the stored rotated token (not a masked one)');
    const ext = await activateExtension<Api>();
    const output = ext.outputText();
    assert.match(output, /Sending request 'airbyte\/testRead/, 'the protocol trace is on');
    const secrets = [S.password, S.bearer_token, S.api_key, S.client_secret, S.refresh, ...issued];
    assert.deepEqual(findSecretsIn(output, secrets), [], 'output channel');
    assert.deepEqual(findSecretsIn(ext.resultsTranscript(), secrets), [], 'results views');
    assert.ok(!ext.resultsTranscript().includes(b64(`${S.username}:${S.password}`).replace(/=+$/, '')), 'Basic credentials are masked');
  });
});

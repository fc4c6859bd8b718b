// `connector-manifest check`: the connection status and message as the CLI prints them (pretty and
// JSON) and its exit codes, against a scripted API on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { pythonStringRepr } from '../../../server/src/runtime/check/pythonRepr';
// @ts-expect-error: plain ES module without type declarations
import { startScriptedApi } from '../../../scripts/differential/scriptedApi.mjs';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'out', 'cli.js');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const manifest = (origin: string, streamNames: string[]) => ({
  version: '6.60.0',
  type: 'DeclarativeSource',
  check: { type: 'CheckStream', stream_names: streamNames },
  spec: {
    type: 'Spec',
    connection_specification: { type: 'object', required: ['token'], properties: { token: { type: 'string', airbyte_secret: true } } },
  },
  streams: [
    {
      type: 'DeclarativeStream',
      name: 'users',
      retriever: {
        type: 'SimpleRetriever',
        requester: {
          type: 'HttpRequester',
          url: `${origin}/users`,
          authenticator: { type: 'BearerAuthenticator', api_token: "{{ config['token'] }}" },
        },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
    },
  ],
});

test('check: SUCCEEDED exits 0, FAILED prints the CDK message and exits 1, JSON shape, errors and usage', async () => {
  const api = await startScriptedApi([{ path: '/users', body: { data: [{ id: 1 }] } }]);
  const dir = mkdtempSync(join(tmpdir(), 'cli-check-'));
  try {
    const m = join(dir, 'manifest.yaml');
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    writeFileSync(m, stringify(manifest(api.origin, ['users'])));
    writeFileSync(good, JSON.stringify({ token: 'secret-token-1' }));
    writeFileSync(bad, JSON.stringify({}));
    assert.deepEqual(await cli(['check', m, '--config', good]), { code: 0, stdout: 'SUCCEEDED\n', stderr: '' });
    assert.deepEqual(JSON.parse((await cli(['check', m, '--config', good, '--format', 'json'])).stdout), {
      status: 'SUCCEEDED',
      message: null,
    });
    // The entrypoint validates the config against the spec first.
    const invalid = await cli(['check', m, '--config', bad, '--format', 'json']);
    assert.equal(invalid.code, 1);
    assert.deepEqual(JSON.parse(invalid.stdout), { status: 'FAILED', message: "Config validation error: 'token' is a required property" });
    // An API refusing the token: the CDK's wording, as a Python repr.
    const refusing = await startScriptedApi([{ path: '/users', status: 401, body: { error: 'bad token' } }]);
    writeFileSync(m, stringify(manifest(refusing.origin, ['users'])));
    const failed = await cli(['check', m, '--config', good]);
    await refusing.close();
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stdout,
      "FAILED: 'Stream users is not available: HTTP Status Code: 401. Error: Unauthorized. Please ensure you are authenticated correctly.'\n",
    );
    // A checked stream the source does not define ends the check in an error, as in the CDK.
    writeFileSync(m, stringify(manifest(api.origin, ['nope'])));
    const unknown = await cli(['check', m, '--config', good, '--format', 'json']);
    assert.equal(unknown.code, 1);
    assert.deepEqual(JSON.parse(unknown.stdout), { status: null, error: "nope is not part of the catalog. Expected one of ['users']." });
    const usage = await cli(['check', m]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /check: pass the connector's config with --config config.json/);
    assert.ok(!JSON.stringify([failed, unknown]).includes('secret-token-1'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await api.close();
  }
});

test("pythonStringRepr quotes and escapes as CPython's repr", () => {
  assert.equal(pythonStringRepr('plain'), "'plain'");
  assert.equal(pythonStringRepr("don't"), '"don\'t"');
  assert.equal(pythonStringRepr('both \' and "'), "'both \\' and \"'");
  assert.equal(pythonStringRepr('a\\b\nc\td\x01'), "'a\\\\b\\nc\\td\\x01'");
});

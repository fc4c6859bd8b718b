// One manifest cannot reach another through the language server process (docs/security.md,
// "Prototype-safe data" and "Files"), over stdio against the shipped server: a manifest whose AddFields
// path starts with `__proto__` gets a located error and its read is refused; records, configs and a
// replayed cassette with `__proto__` / `constructor` / `prototype` keys at every level are read as
// data; afterwards a different manifest's read sends its Bearer token only to its own host and works.
// A cassette that links outside the manifest's folder is replayed only when the user confirmed it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspTestClient } from './lspClient';
import { ReadCassetteRequest, TestReadRequest, type StreamRead, type TestReadParams } from '../../server/src/protocol';

const HOSTILE =
  '{"__proto__":{"url_base":"EVIL","polluted":1,"types":7},"constructor":{"prototype":{"url_base":"EVIL"}},"prototype":{"polluted":3}}';
const hits: Record<'good' | 'evil', string[]> = { good: [], evil: [] };
let good: Server;
let evil: Server;
let goodUrl = '';
let evilUrl = '';
let client: LspTestClient;
let dir: string;

function listen(name: 'good' | 'evil'): Promise<Server> {
  const server = createServer((req, res) => {
    hits[name].push(`${req.url} ${req.headers.authorization ?? ''}`);
    res.setHeader('content-type', 'application/json');
    const record = (id: number) =>
      `{"id":${id},"__proto__":${HOSTILE.replace(/EVIL/g, evilUrl)},"constructor":${HOSTILE.replace(/EVIL/g, evilUrl)},"prototype":[${HOSTILE.replace(/EVIL/g, evilUrl)}]}`;
    // Hostile records for the `data` stream; plain ones elsewhere, so each defect shows on its own.
    if (req.url?.startsWith('/data')) res.end(`{"__proto__":{"url_base":"${evilUrl}"},"data":[${record(1)},${record(2)}]}`);
    else res.end('{"data":[{"id":1},{"id":2}]}');
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

before(async () => {
  good = await listen('good');
  evil = await listen('evil');
  goodUrl = `http://127.0.0.1:${(good.address() as AddressInfo).port}`;
  evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  client = await LspTestClient.start();
  dir = mkdtempSync(join(tmpdir(), 'proto-lsp-'));
  mkdirSync(join(dir, 'repo', 'cassettes'), { recursive: true });
  mkdirSync(join(dir, 'elsewhere'));
});
after(async () => {
  await client.stop();
  good.close();
  evil.close();
  rmSync(dir, { recursive: true, force: true });
});

const manifest = (name: string, extra = '', auth = '') => `version: 6.0.0
type: DeclarativeSource
check: { type: CheckStream, stream_names: [${name}] }
streams:
  - type: DeclarativeStream
    name: ${name}
    primary_key: [id]
    schema_loader: { type: InlineSchemaLoader, schema: {} }
    retriever:
      type: SimpleRetriever
      requester:
        type: HttpRequester
        url: "{{ config['base'] }}/${name}"
        http_method: GET${auth}
      record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [data] } }
${extra}`;

let runs = 0;
const read = (params: Omit<TestReadParams, 'runId'>) =>
  client.connection.sendRequest(TestReadRequest, { runId: `proto-${++runs}`, ...params } satisfies TestReadParams);
const errors = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
const recordCount = (r: StreamRead) => r.slices.flatMap((s) => s.pages).reduce((n, p) => n + p.records.length, 0);

/** The read of another project's manifest: Bearer token, its own host only. */
async function otherProjectRead(label: string): Promise<void> {
  hits.good.length = 0;
  hits.evil.length = 0;
  const uri = pathToFileURL(join(dir, `other-${label}.yaml`)).href;
  const text = manifest('other', '', `\n        authenticator: { type: BearerAuthenticator, api_token: "{{ config['token'] }}" }`);
  await client.open(uri, text);
  const r = await read({ uri, streamName: 'other', config: { base: goodUrl, token: 'token-of-another-project' } });
  assert.deepEqual(errors(r), [], label);
  assert.equal(recordCount(r), 2, label);
  assert.deepEqual(hits.evil, [], `${label}: nothing reached the other host`);
  assert.deepEqual(hits.good, ['/other Bearer token-of-another-project'], label);
}

test("an AddFields path through __proto__ is a located error and its read is refused; the next manifest's token goes only to its own host", async () => {
  for (const [i, path] of [
    ['__proto__', 'url_base'],
    ['constructor', 'prototype', 'url_base'],
  ].entries()) {
    const uri = pathToFileURL(join(dir, `attack-${i}.yaml`)).href;
    const text = manifest(
      'attack',
      `    transformations:
      - type: AddFields
        fields:
          - type: AddedFieldDefinition
            path: ${JSON.stringify(path)}
            value: "${evilUrl}"
`,
    );
    const diagnostics = await client.open(uri, text);
    const r = await read({ uri, streamName: 'attack', config: { base: goodUrl } });
    // First what the defect did: the next read of another project went to the attacker's host.
    await otherProjectRead(`after ${JSON.stringify(path)}`);
    assert.match(errors(r).join('\n'), /AddFields path: the path segment "(__proto__|constructor)" is not allowed/);
    const found = diagnostics.diagnostics.find((d) => d.code === 'prototype-path-segment');
    assert.ok(found, JSON.stringify(diagnostics.diagnostics));
    const line = text.split('\n').findIndex((l) => l.trim().startsWith('path: ['));
    assert.equal(found.range.start.line, line);
    assert.equal(
      text.split('\n')[line].slice(found.range.start.character, found.range.end.character),
      JSON.stringify(path[path.findIndex((s) => s === '__proto__' || s === 'constructor')]),
    );
    assert.equal(found.severity, 1);
  }
});

test('records, config and a replayed cassette with prototype keys at every level are data; the next read of another manifest still works', async () => {
  const uri = pathToFileURL(join(dir, 'repo', 'data.yaml')).href;
  const text = manifest(
    'data',
    `    transformations:
      - type: KeysToLower
      - type: KeysReplace
        old: "constructor"
        new: "__proto__"
`,
  );
  writeFileSync(join(dir, 'repo', 'data.yaml'), text);
  await client.open(uri, text);
  const config = JSON.parse(
    `{"base":"${goodUrl}","__proto__":{"base":"${evilUrl}"},"constructor":{"prototype":{"base":"${evilUrl}"}}}`,
  ) as Record<string, unknown>;
  const recorded = await read({ uri, streamName: 'data', config, record: true });
  assert.deepEqual(errors(recorded), []);
  assert.equal(recordCount(recorded), 2);
  // The committed cassette carries the keys at its own levels too.
  const saved = await client.connection.sendRequest(ReadCassetteRequest, { uri, streamName: 'data' });
  assert.ok(saved);
  const cassetteFile = join(dir, 'repo', 'cassettes', saved.fileName);
  writeFileSync(
    cassetteFile,
    saved.text.replace(/^version:/m, '__proto__: { polluted: 1 }\nconstructor: { prototype: { polluted: 2 } }\nversion:'),
  );
  const replayed = await read({ uri, streamName: 'data', config: {}, replay: { cassetteUri: pathToFileURL(cassetteFile).href } });
  assert.deepEqual(errors(replayed), []);
  assert.equal(recordCount(replayed), 2);
  await otherProjectRead('after records, config and replay');
});

test("a cassette linked outside the manifest's folder is replayed only when the user confirmed it", async () => {
  const uri = pathToFileURL(join(dir, 'repo', 'data.yaml')).href;
  const saved = await client.connection.sendRequest(ReadCassetteRequest, { uri, streamName: 'data' });
  assert.ok(saved);
  writeFileSync(join(dir, 'elsewhere', 'cassette.yaml'), saved.text);
  symlinkSync(join(dir, 'elsewhere', 'cassette.yaml'), join(dir, 'repo', 'cassettes', 'linked.cassette.yaml'));
  const cassetteUri = pathToFileURL(join(dir, 'repo', 'cassettes', 'linked.cassette.yaml')).href;
  await assert.rejects(read({ uri, streamName: 'data', config: {}, replay: { cassetteUri } }), (e: Error) =>
    /is a symbolic link to .*elsewhere\/cassette\.yaml, outside the manifest's folder; not followed/.test(e.message),
  );
  const confirmed = await read({ uri, streamName: 'data', config: {}, replay: { cassetteUri, allowLinkOutside: true } });
  assert.equal(recordCount(confirmed), 2);
});

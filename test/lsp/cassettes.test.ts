// Cassettes over stdio (docs/cassettes.md, "In the editor"): airbyte/testRead with `record` keeps the
// masked cassette that airbyte/readCassette returns; `replay` reads it back offline (no request reaches
// the demo API, no config write-back) to the same StreamRead, and names the request a changed manifest
// asks for that the cassette does not hold; airbyte/compareReads diffs two reads, or a read and a saved
// expectation, by primary key and inferred schema.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import { authRoutes } from '../../demo/api/authRoutes';
import { DEMO_CREDENTIALS } from '../../demo/api/authCredentials';
import {
  CassetteSummaryRequest,
  CompareReadsRequest,
  ConfigUpdateNotification,
  ReadCassetteRequest,
  TestReadRequest,
  type CompareReadsParams,
  type ConfigUpdateParams,
  type ReadCassetteParams,
  type StreamRead,
  type TestReadParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
const OFFSET = readFileSync(join(ROOT, 'demo', 'workspace', 'offset-increment.yaml'), 'utf8');
let client: LspTestClient;
let demo: DemoApi;
let dir: string;

before(async () => {
  demo = await startDemoApi({ port: 0, routes: [authRoutes] });
  client = await LspTestClient.start();
  dir = mkdtempSync(join(tmpdir(), 'cassettes-lsp-'));
  mkdirSync(join(dir, 'cassettes'));
});
after(async () => {
  await client.stop();
  await demo.close();
  rmSync(dir, { recursive: true, force: true });
});

const uriOf = (file: string) => pathToFileURL(join(dir, file)).href;
const read = (params: TestReadParams) => client.connection.sendRequest(TestReadRequest, params);
const readCassette = (params: ReadCassetteParams) => client.connection.sendRequest(ReadCassetteRequest, params);
const compare = (params: CompareReadsParams) => client.connection.sendRequest(CompareReadsRequest, params);
const errors = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
const recordCount = (r: StreamRead) => r.slices.flatMap((s) => s.pages).reduce((n, p) => n + p.records.length, 0);

/** Saves the stream's last recorded cassette where the extension saves it by default; returns its URI. */
async function saveCassette(manifestUri: string, stream: string): Promise<string> {
  const saved = await readCassette({ uri: manifestUri, streamName: stream });
  assert.ok(saved, 'a recorded read has a cassette');
  writeFileSync(join(dir, 'cassettes', saved.fileName), saved.text);
  return pathToFileURL(join(dir, 'cassettes', saved.fileName)).href;
}

test('a recorded read keeps its masked cassette, and replaying it offline gives the same StreamRead', async () => {
  const uri = uriOf('offset.yaml');
  writeFileSync(join(dir, 'offset.yaml'), OFFSET);
  await client.open(uri, OFFSET);
  const config = { url_base: demo.url, page_size: 20, api_key: 'demo-api-key' };
  assert.equal(await readCassette({ uri, streamName: 'items' }), null, 'nothing recorded yet');
  const live = await read({ uri, streamName: 'items', config, limits: { maxPagesPerSlice: 3 }, runId: 'rec', record: true });
  assert.deepEqual(errors(live), []);
  assert.equal(recordCount(live), 60);

  const saved = await readCassette({ uri, streamName: 'items' });
  assert.ok(saved);
  assert.equal(saved.fileName, 'items.cassette.yaml', 'the CLI convention of connector-manifest test');
  assert.equal(saved.exchanges, 3, 'one exchange per page');
  const cassette = parse(saved.text) as {
    stream: string;
    recorded_at: string;
    config: Record<string, unknown>;
    exchanges: { request: { url: string }; response: { body: { json?: unknown } } }[];
  };
  assert.equal(cassette.stream, 'items');
  assert.equal(cassette.config.api_key, '****');
  assert.ok(!saved.text.includes('demo-api-key'));
  assert.deepEqual(
    cassette.exchanges.map((x) => new URL(x.request.url).search),
    ['?limit=20', '?offset=20&limit=20', '?offset=40&limit=20'],
  );
  assert.ok(
    cassette.exchanges.every((x) => x.response.body.json),
    'JSON bodies are YAML structures',
  );
  const expectation = JSON.parse(saved.expectation) as { primary_key: string[][]; records: unknown[] };
  assert.deepEqual(expectation.primary_key, [['id']]);
  assert.equal(expectation.records.length, 60);

  const cassetteUri = await saveCassette(uri, 'items');
  const summary = await client.connection.sendRequest(CassetteSummaryRequest, { cassetteUri });
  assert.deepEqual(summary, { stream: 'items', recordedAt: cassette.recorded_at, exchanges: 3, limits: { maxPagesPerSlice: 3 } });

  const served = demo.state.requestCount;
  // The testing values are not needed: the cassette's masked config is used.
  const replay = await read({ uri, streamName: 'items', config: {}, runId: 'replay', replay: { cassetteUri } });
  assert.equal(demo.state.requestCount, served, 'the replay made no request to the API');
  assert.deepEqual(replay, live);
});

test('a replay names the request the cassette does not hold when the manifest changed', async () => {
  const uri = uriOf('offset.yaml');
  const cassetteUri = pathToFileURL(join(dir, 'cassettes', 'items.cassette.yaml')).href;
  // A page size written in the manifest instead of the config: the first request's URL changes.
  await client.change(uri, OFFSET.replace(`page_size: "{{ config['page_size'] }}"`, 'page_size: 25'), 2);
  const served = demo.state.requestCount;
  const replay = await read({ uri, streamName: 'items', config: {}, runId: 'miss', replay: { cassetteUri } });
  assert.equal(demo.state.requestCount, served);
  const [message, ...rest] = errors(replay);
  assert.deepEqual(rest, []);
  assert.match(
    message,
    /Replay of cassettes\/items\.cassette\.yaml: no recorded response for GET http:\/\/127\.0\.0\.1:\d+\/offset\/items\?limit=25: the cassette holds no exchange for it/,
  );
  await client.change(uri, OFFSET, 3);
});

test('a broken or missing cassette is refused with its name and line', async () => {
  writeFileSync(join(dir, 'cassettes', 'broken.cassette.yaml'), 'version: 1\nexchanges:\n  - request: [unclosed\n');
  const broken = await client.connection.sendRequest(CassetteSummaryRequest, {
    cassetteUri: pathToFileURL(join(dir, 'cassettes', 'broken.cassette.yaml')).href,
  });
  assert.ok('error' in broken);
  assert.match(broken.error, /broken\.cassette\.yaml:\d+: not a valid cassette/);
  await assert.rejects(
    read({
      uri: uriOf('offset.yaml'),
      streamName: 'items',
      config: {},
      runId: 'none',
      replay: { cassetteUri: pathToFileURL(join(dir, 'cassettes', 'none.cassette.yaml')).href },
    }),
    /Cannot read the cassette cassettes\/none\.cassette\.yaml \(ENOENT\)/,
  );
});

test('compareReads: a replay after a manifest change against the read before it, and a read against its saved expectation', async () => {
  const uri = uriOf('offset.yaml');
  const cassetteUri = pathToFileURL(join(dir, 'cassettes', 'items.cassette.yaml')).href;
  const saved = await readCassette({ uri, streamName: 'items' });
  assert.ok(saved);
  writeFileSync(join(dir, 'cassettes', 'items.expected.json'), saved.expectation);
  // The read to compare with: the unchanged manifest replayed.
  await read({ uri, streamName: 'items', config: {}, runId: 'unchanged', replay: { cassetteUri } });
  // Same requests, different records: a field added, one removed, and the records past id 50 filtered out.
  const edited = `${OFFSET.replace(
    '        extractor: {type: DpathExtractor, field_path: [data]}',
    '        extractor: {type: DpathExtractor, field_path: [data]}\n        record_filter: {type: RecordFilter, condition: "{{ record.id <= 50 }}"}',
  )}${[
    '    transformations:',
    '      - type: AddFields',
    '        fields: [{type: AddedFieldDefinition, path: [source], value: replayed}]',
    '      - type: RemoveFields',
    '        field_pointers: [[name]]',
  ].join('\n')}\n`;
  await client.change(uri, edited, 4);
  const replay = await read({ uri, streamName: 'items', config: {}, runId: 'edited', replay: { cassetteUri } });
  assert.deepEqual(errors(replay), []);
  assert.equal(recordCount(replay), 50);

  const result = await compare({ uri, streamName: 'items', against: 'previous' });
  assert.ok('diff' in result, JSON.stringify(result));
  assert.equal(result.before.label, 'replay of cassettes/items.cassette.yaml', 'the previous read was a replay too');
  assert.equal(result.after.label, 'replay of cassettes/items.cassette.yaml');
  assert.deepEqual([result.before.records, result.after.records], [60, 50]);
  assert.deepEqual(result.diff.added, []);
  assert.deepEqual(
    result.diff.removed,
    Array.from({ length: 10 }, (_, i) => `id=${51 + i}`),
  );
  assert.equal(result.diff.changed.length, 50);
  // Undefined sides (a field absent on that side) do not survive JSON over the wire.
  assert.deepEqual(result.diff.changed[0], {
    key: 'id=1',
    fields: [
      { path: 'name', before: 'Item 1' },
      { path: 'source', after: 'replayed' },
    ],
  });
  assert.deepEqual(result.diff.schema, ['+ source: string|null', '- name: string|null']);
  assert.match(result.text, /^stream 'items': 0 added, 10 removed, 50 changed records; 2 schema changes\n {2}- record id=51\n/);

  const vsExpectation = await compare({
    uri,
    streamName: 'items',
    against: { expectationUri: pathToFileURL(join(dir, 'cassettes', 'items.expected.json')).href },
  });
  assert.ok('diff' in vsExpectation);
  assert.equal(vsExpectation.before.label, 'expectation cassettes/items.expected.json');
  assert.equal(vsExpectation.diff.removed.length, 10);

  await client.change(uri, OFFSET, 5);
  await read({ uri, streamName: 'items', config: {}, runId: 'again', replay: { cassetteUri } });
  const same = await compare({
    uri,
    streamName: 'items',
    against: { expectationUri: pathToFileURL(join(dir, 'cassettes', 'items.expected.json')).href },
  });
  assert.ok('diff' in same);
  assert.deepEqual(
    same.diff,
    { added: [], removed: [], changed: [], schema: [] },
    'the replay of the unchanged manifest matches the recorded read',
  );
});

test('compareReads says what is missing before a stream was read twice', async () => {
  const uri = uriOf('never.yaml');
  const none = await compare({ uri, streamName: 'items', against: 'previous' });
  assert.ok('unavailable' in none);
  assert.match(none.unavailable, /has not been read in this session/);
});

test('a replayed OAuth read sends no config write-back and never reaches the API; its cassette holds no token', async () => {
  const uri = uriOf('oauth.yaml');
  const text = readFileSync(join(ROOT, 'test', 'e2e', 'workspace', 'oauth', 'manifest.yaml'), 'utf8');
  writeFileSync(join(dir, 'oauth.yaml'), text);
  await client.open(uri, text);
  const updates: ConfigUpdateParams[] = [];
  const sub = client.connection.onNotification(ConfigUpdateNotification, (p: ConfigUpdateParams) => {
    updates.push(p);
  });
  const o = DEMO_CREDENTIALS.oauth;
  const refresh = (demo.state.auth as { refreshToken?: string } | undefined)?.refreshToken ?? o.initialRefreshToken;
  const config = { url_base: demo.url, credentials: { client_id: o.clientId, client_secret: o.clientSecret, refresh_token: refresh } };
  const live = await read({ uri, streamName: 'protected', config, runId: 'oauth-rec', record: true });
  assert.deepEqual(errors(live), []);
  assert.ok(
    updates.some((u) => u.runId === 'oauth-rec'),
    'the live read rotated the refresh token',
  );
  const saved = await readCassette({ uri, streamName: 'protected' });
  assert.ok(saved);
  const auth = demo.state.auth as { accessTokens: Map<string, number>; refreshToken: string };
  for (const secret of [o.clientSecret, refresh, auth.refreshToken, ...auth.accessTokens.keys()]) {
    assert.ok(!saved.text.includes(secret), `the cassette holds ${secret.slice(0, 6)}…`);
  }
  const cassetteUri = await saveCassette(uri, 'protected');
  const served = demo.state.requestCount;
  const replay = await read({ uri, streamName: 'protected', config: {}, runId: 'oauth-replay', replay: { cassetteUri } });
  sub.dispose();
  assert.equal(demo.state.requestCount, served);
  assert.deepEqual(errors(replay), []);
  assert.equal(recordCount(replay), recordCount(live));
  assert.deepEqual(
    updates.filter((u) => u.runId === 'oauth-replay'),
    [],
    'a replay never writes tokens back',
  );
});

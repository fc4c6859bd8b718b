// The server side of "Run stream" over stdio: airbyte/testRead against the demo API with progress
// notifications, config write-back for single-use refresh tokens, and LSP cancellation that stops a
// stalled request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import { authRoutes } from '../../demo/api/authRoutes';
import { DEMO_CREDENTIALS } from '../../demo/api/authCredentials';
import {
  TestReadRequest,
  TestReadProgressNotification,
  ConfigUpdateNotification,
  ResolveStreamsRequest,
  type TestReadParams,
  type TestReadProgressParams,
  type ConfigUpdateParams,
  type ResolveStreamsParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
let client: LspTestClient;
let demo: DemoApi;

before(async () => {
  demo = await startDemoApi({ port: 0, hostile: true, routes: [authRoutes] });
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
  await demo.close();
});

type Read = { slices: { pages: { records: unknown[] }[] }[]; logs: { level: string }[] };
const records = (r: Read) => r.slices.flatMap((s) => s.pages).reduce((n, p) => n + p.records.length, 0);

test('reads a stream of an open manifest and streams page progress while it runs', async () => {
  const uri = 'file:///fixtures/offset-increment.yaml';
  await client.open(uri, readFileSync(join(ROOT, 'demo', 'workspace', 'offset-increment.yaml'), 'utf8'));
  const events: Record<string, unknown>[] = [];
  const sub = client.connection.onNotification(TestReadProgressNotification, (p: TestReadProgressParams) => {
    if (p.runId === 'r1') events.push(p.event);
  });
  const params: TestReadParams = {
    uri,
    streamName: 'items',
    config: { url_base: demo.url, page_size: 10 },
    limits: { maxRecords: 30, maxPagesPerSlice: 3 },
    runId: 'r1',
  };
  const read = await client.connection.sendRequest(TestReadRequest, params);
  sub.dispose();
  assert.equal(records(read), 30);
  assert.equal(events.filter((e) => e.type === 'page').length, 3);
  assert.deepEqual(
    read.logs.filter((l) => l.level === 'ERROR'),
    [],
  );
});

test('forwards the rotated refresh token to the client as soon as the runtime writes it back', async () => {
  const uri = 'file:///fixtures/oauth/manifest.yaml';
  await client.open(uri, readFileSync(join(ROOT, 'test', 'e2e', 'workspace', 'oauth', 'manifest.yaml'), 'utf8'));
  const updates: ConfigUpdateParams[] = [];
  const sub = client.connection.onNotification(ConfigUpdateNotification, (p: ConfigUpdateParams) => {
    updates.push(p);
  });
  const o = DEMO_CREDENTIALS.oauth;
  const config = {
    url_base: demo.url,
    credentials: {
      client_id: o.clientId,
      client_secret: o.clientSecret,
      refresh_token: (demo.state.auth as { refreshToken?: string } | undefined)?.refreshToken ?? o.initialRefreshToken,
    },
  };
  const read = await client.connection.sendRequest(TestReadRequest, {
    uri,
    streamName: 'protected',
    config,
    runId: 'r2',
  } satisfies TestReadParams);
  sub.dispose();
  assert.equal(records(read), 5);
  assert.ok(updates.length >= 1, 'at least one write-back');
  assert.ok(updates.every((u) => u.runId === 'r2' && u.uri === uri));
  const creds = (updates[updates.length - 1].config as Record<string, unknown>).credentials as Record<string, string>;
  assert.equal(creds.refresh_token, (demo.state.auth as { refreshToken: string }).refreshToken);
  assert.notEqual(creds.refresh_token, config.credentials.refresh_token);
});

test('cancelling the request aborts a stalled HTTP exchange and answers RequestCancelled', async () => {
  const uri = 'file:///fixtures/stall.yaml';
  const text = [
    'version: 6.0.0',
    'type: DeclarativeSource',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: stalled',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    '        type: HttpRequester',
    `        url: "{{ config['url_base'] }}/hostile/stall"`,
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor: {type: DpathExtractor, field_path: []}',
    '',
  ].join('\n');
  await client.open(uri, text);
  const source = new CancellationTokenSource();
  // Cancel once the read has started its first slice: the stall route never answers on its own.
  const onTheWire = new Promise<void>((resolve) => {
    const sub = client.connection.onNotification(TestReadProgressNotification, (p: TestReadProgressParams) => {
      if (p.runId === 'r3' && p.event.type === 'slice') {
        sub.dispose();
        resolve();
      }
    });
  });
  const pending = client.connection.sendRequest(
    TestReadRequest,
    { uri, streamName: 'stalled', config: { url_base: demo.url }, runId: 'r3', http: { timeoutMs: 60_000 } } satisfies TestReadParams,
    source.token,
  );
  await onTheWire;
  source.cancel();
  await assert.rejects(pending, (e: { code?: number; message?: string }) => e.code === -32800 && /cancel/i.test(e.message ?? ''));
});

test('an unknown manifest URI is a clear error, not a crash', async () => {
  await assert.rejects(
    client.connection.sendRequest(TestReadRequest, {
      uri: 'file:///does/not/exist.yaml',
      streamName: 'x',
      config: {},
      runId: 'r4',
    } satisfies TestReadParams),
    /Cannot read the manifest/,
  );
});

test('dynamic streams: a "Resolve streams…" lens above dynamic_streams; airbyte/resolveStreams resolves them with the config sent', async () => {
  const uri = 'file:///fixtures/dynamic-streams.yaml';
  const text = readFileSync(join(ROOT, 'demo', 'workspace', 'dynamic-streams.yaml'), 'utf8');
  await client.open(uri, text);
  const lenses = await client.connection.sendRequest<
    { range: { start: { line: number } }; command?: { title: string; command: string; arguments?: unknown[] } }[]
  >('textDocument/codeLens', { textDocument: { uri } });
  const resolve = lenses.find((l) => l.command?.command === 'airbyte.resolveStreams');
  assert.ok(resolve, 'a Resolve streams lens');
  assert.equal(resolve.command?.title, 'Resolve streams…');
  assert.equal(text.split('\n')[resolve.range.start.line], 'dynamic_streams:');
  assert.deepEqual(resolve.command?.arguments, [{ uri }]);
  const params: ResolveStreamsParams = {
    uri,
    config: { url_base: demo.url, saved_views: [{ name: 'won_deals', table: 'tbl_deals', stage: 'won' }] },
  };
  const result = await client.connection.sendRequest(ResolveStreamsRequest, params);
  assert.deepEqual(
    result.streams.map((s) => s.name),
    ['tables', 'contacts', 'open_deals', 'view_won_deals'],
  );
  // The resolved name is then readable through the ordinary test read.
  const read = await client.connection.sendRequest(TestReadRequest, {
    uri,
    streamName: 'contacts',
    config: params.config,
    runId: 'r-dyn',
  } satisfies TestReadParams);
  assert.equal(records(read), 2);
  // A failing resolver answers an error carrying the runtime's failure type.
  await assert.rejects(
    client.connection.sendRequest(ResolveStreamsRequest, {
      uri,
      config: { url_base: 'http://127.0.0.1:1' },
    } satisfies ResolveStreamsParams),
    /Resolving the dynamic streams of 'table_rows'/,
  );
});

test('the input state of the request starts an incremental stream from it and the state comes back per slice', async () => {
  const uri = 'file:///fixtures/incremental.yaml';
  const text = [
    'version: 6.0.0',
    'type: DeclarativeSource',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: items',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    '        type: HttpRequester',
    `        url: "{{ config['url_base'] }}/offset/items"`,
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor: {type: DpathExtractor, field_path: [items]}',
    '    incremental_sync:',
    '      type: DatetimeBasedCursor',
    '      cursor_field: updated_at',
    '      datetime_format: "%Y-%m-%d"',
    '      start_datetime: "2024-01-01"',
    '      end_datetime: "2024-01-10"',
    '      start_time_option: {type: RequestOption, inject_into: request_parameter, field_name: since}',
    '',
  ].join('\n');
  await client.open(uri, text);
  const state = [{ type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: { updated_at: '2024-01-05' } } }];
  type StateRead = {
    slices: {
      slice_descriptor: Record<string, unknown>;
      state: { stream: { stream_state: Record<string, unknown> } }[];
      pages: { request: { url: string } }[];
    }[];
  };
  const read = (await client.connection.sendRequest(TestReadRequest, {
    uri,
    streamName: 'items',
    config: { url_base: demo.url },
    runId: 'r5',
    limits: { maxPagesPerSlice: 1 },
    state,
  } satisfies TestReadParams)) as unknown as StateRead;
  assert.deepEqual(
    read.slices.map((s) => s.slice_descriptor),
    [{ start_time: '2024-01-05', end_time: '2024-01-10' }],
  );
  assert.match(read.slices[0].pages[0].request.url, /since=2024-01-05/);
  assert.deepEqual(read.slices[0].state[0].stream.stream_state, { updated_at: '2024-01-05' });
});

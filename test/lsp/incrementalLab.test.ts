// The server side of the incremental lab and "Run all streams", over stdio against the demo API: the
// lenses ("▶ Run all streams" above `streams:`, Run from state / Input state… / Incremental check above
// incremental streams only), the cursor description the state form is built from, a run of all streams
// with its progress notifications, a read from an input state, and the incremental check.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import {
  IncrementalCheckRequest,
  RunAllStreamsProgressNotification,
  RunAllStreamsRequest,
  StreamCursorRequest,
  TestReadRequest,
  type RunAllStreamsProgressParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
const PARTITIONS = readFileSync(join(ROOT, 'demo', 'workspace', 'partitions.yaml'), 'utf8');
const uri = 'file:///fixtures/partitions.yaml';
let client: LspTestClient;
let api: DemoApi;
before(async () => {
  api = await startDemoApi();
  client = await LspTestClient.start();
  await client.open(uri, PARTITIONS);
});
after(async () => {
  await client.stop();
  await api.close();
});

const config = () => ({ url_base: api.url, start_date: '2024-01-01T00:00:00Z' });

test('lenses: Run all streams above streams:, the state actions above the incremental stream only', async () => {
  const lenses = await client.codeLenses(uri);
  const lines = PARTITIONS.split('\n');
  const all = lenses.find((l) => l.command?.title === '▶ Run all streams');
  assert.ok(all);
  assert.equal(lines[all.range.start.line], 'streams:');
  assert.deepEqual(all.command?.arguments, [{ uri }]);
  const state = lenses.filter((l) => ['Run from state', 'Input state…', 'Incremental check'].includes(l.command?.title ?? ''));
  assert.equal(state.length, 3);
  for (const l of state) assert.deepEqual(l.command?.arguments, [{ uri, streamName: 'events' }]);
  assert.equal(lines[state[0].range.start.line].trim(), '- type: DeclarativeStream');
  assert.match(lines[state[0].range.start.line + 1], /name: events/);
});

test('the cursor description of events and of a substream', async () => {
  const events = await client.connection.sendRequest(StreamCursorRequest, { uri, streamName: 'events', config: config() });
  assert.equal(events.error, null);
  assert.deepEqual(events.primaryKey, [['id']]);
  assert.deepEqual(
    {
      kind: events.cursor?.kind,
      field: events.cursor?.cursorField,
      format: events.cursor?.datetimeFormat,
      layout: events.cursor?.layout,
      start: events.cursor?.start,
      startKey: events.cursor?.startKey,
    },
    {
      kind: 'datetime',
      field: 'created_at',
      format: '%Y-%m-%dT%H:%M:%SZ',
      layout: 'single',
      start: '2024-01-01T00:00:00Z',
      startKey: 'start_time',
    },
  );
  const children = await client.connection.sendRequest(StreamCursorRequest, { uri, streamName: 'children', config: config() });
  assert.equal(children.cursor?.kind, 'none');
  const missing = await client.connection.sendRequest(StreamCursorRequest, { uri, streamName: 'nope', config: config() });
  assert.match(missing.error ?? '', /Stream 'nope' is not defined/);
});

test('run all streams: one progress event per stream start and end, a summary and a read per stream', async () => {
  const events: RunAllStreamsProgressParams[] = [];
  const sub = client.connection.onNotification(RunAllStreamsProgressNotification, (p: RunAllStreamsProgressParams) => {
    events.push(p);
  });
  try {
    const out = await client.connection.sendRequest(RunAllStreamsRequest, { uri, config: config(), concurrency: 2, runId: 'all-1' });
    assert.deepEqual(
      out.result.streams.map((s) => [s.stream, s.status]),
      [
        ['parents', 'ok'],
        ['children', 'ok'],
        ['items_by_category', 'ok'],
        ['events', 'ok'],
      ],
    );
    assert.equal(out.result.concurrency, 2);
    assert.deepEqual(Object.keys(out.reads).sort(), ['children', 'events', 'items_by_category', 'parents']);
    assert.equal(out.reads.events.slices.length, 5);
    assert.ok(events.every((e) => e.runId === 'all-1'));
    assert.equal(events.filter((e) => e.event.type === 'finished').length, 4);
    assert.equal(events[0].event.type, 'listed');
  } finally {
    sub.dispose();
  }
});

test('a read from an input state starts there; the incremental check holds', async () => {
  const state = [
    { type: 'STREAM', stream: { stream_descriptor: { name: 'events' }, stream_state: { created_at: '2024-01-05T03:00:00Z' } } },
  ];
  const read = await client.connection.sendRequest(TestReadRequest, {
    uri,
    streamName: 'events',
    config: config(),
    runId: 'r1',
    state,
    limits: { maxSlices: 1 },
  });
  assert.deepEqual(read.slices[0].slice_descriptor, { start_time: '2024-01-05T03:00:00Z', end_time: '2024-01-06T02:59:59Z' });
  const check = await client.connection.sendRequest(IncrementalCheckRequest, { uri, streamName: 'events', config: config(), runId: 'c1' });
  assert.equal(check.report.holds, true, check.text);
  assert.match(check.text, /Incremental sync holds\.$/);
});

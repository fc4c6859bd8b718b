// Completion and hover from the captured read, over stdio against real test reads of the demo API:
// each test read the server runs is kept (masked), and completion offers its keys in templates and
// fields, hover evaluates templates per page, and the paginator carries a summary lens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletionItem, Hover } from 'vscode-languageserver-protocol';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import {
  CaptureReadRequest,
  ClearCapturedReadsRequest,
  TestReadRequest,
  type CaptureReadParams,
  type CaptureReadResult,
  type StreamRead,
  type TestReadParams,
} from '../../server/src/protocol';

const uri = 'file:///w/captured/manifest.yaml';
const text = readFileSync(join(__dirname, '..', 'fixtures', 'lsp', 'captured-reads.yaml'), 'utf8');
const SECRET = 'secret-key-123456';
let client: LspTestClient;
let demo: DemoApi;
let version = 1;

before(async () => {
  demo = await startDemoApi({ port: 0 });
  client = await LspTestClient.start();
  await client.open(uri, text);
});
after(async () => {
  await client.stop();
  await demo.close();
});

const config = () => ({ url_base: demo.url, api_key: SECRET });

function read(streamName: string, docUri = uri): Promise<StreamRead> {
  // Room for every page: cursor_in_body then stops on its own stop_condition.
  return client.request<StreamRead>(TestReadRequest, {
    uri: docUri,
    streamName,
    config: config(),
    limits: { maxRecords: 1000 },
    runId: `run-${streamName}`,
  } satisfies TestReadParams);
}

async function completion(needle: string, delta: number, nth = 0, source = text, docUri = uri): Promise<CompletionItem[]> {
  return client.completion(docUri, positionOf(source, needle, delta, nth));
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label);
const newText = (item: CompletionItem | undefined) => (item?.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : undefined);

async function hover(needle: string, delta: number, source = text, docUri = uri): Promise<string> {
  const h: Hover | null = await client.hover(docUri, positionOf(source, needle, delta));
  return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
}

/** Without a captured read, completion is what it was before captured reads existed. */
const before_: Record<string, string[]> = {};
const PROBES: [string, string, number][] = [
  ['response.', 'response.meta.next_cursor }}', 'response.'.length],
  ['headers[', "headers['Content", "headers['".length],
  ['field_path item', '- records', 2],
  ['cursor_field', 'cursor_field: updated_at', 'cursor_field: '.length],
  ['primary_key', 'primary_key: id', 'primary_key: '.length],
];

test('without a captured read completion is unchanged: nothing after response., no captured keys in fields', async () => {
  for (const [name, needle, delta] of PROBES) before_[name] = labels(await completion(needle, delta));
  assert.deepEqual(before_['response.'], []);
  assert.ok(!before_['field_path item'].includes('records'));
  assert.ok(!before_.cursor_field.includes('updated_at'));
  // No summary lens before a read.
  assert.ok(!(await client.codeLenses(uri)).some((l) => /pages? read|stopped/.test(l.command?.title ?? '')));
  assert.equal(await hover('next_cursor is none', 3), '');
});

test('real test reads of the demo API are captured: 3 pages, 4 pages, the parent and 4 child slices', async () => {
  const cursor = await read('cursor_in_body');
  assert.deepEqual(
    cursor.slices.map((s) => s.pages.length),
    [3],
  );
  assert.deepEqual(
    (await read('items')).slices.map((s) => s.pages.length),
    [4],
  );
  assert.equal((await read('parents')).slices[0].pages[0].records.length, 4);
  assert.equal((await read('children')).slices.length, 4);
});

test("response. / response.meta. / response[' complete the keys of the captured bodies, with type and sample", async () => {
  const top = await completion('response.meta.next_cursor }}', 'response.'.length);
  assert.deepEqual(labels(top), ['records', 'meta']);
  assert.match(top[0].detail!, /^array \(20\) · \[\{"id":81/);
  assert.equal(top[1].detail, 'object · {"next_cursor":null}');
  // Captured keys sort before everything else.
  assert.ok(top.every((i) => i.sortText!.startsWith('!')));
  const nested = await completion('response.meta.next_cursor }}', 'response.meta.'.length);
  assert.deepEqual(labels(nested), ['next_cursor']);
  assert.match(nested[0].detail!, /^string · "b2Zm/);
  // Subscript syntax after response['…: typed in a new version of the document.
  const edited = text.replace('cursor_value: "{{ response.meta.next_cursor }}"', "cursor_value: \"{{ response['meta']['next_cursor'] }}\"");
  await client.change(uri, edited, ++version);
  const sub = await completion("response['meta']['next_cursor']", "response['".length, 0, edited);
  assert.deepEqual(labels(sub).slice(0, 2), ['records', 'meta']);
  assert.equal(newText(sub[1]), 'meta');
  const subNested = await completion("response['meta']['next_cursor']", "response['meta']['".length, 0, edited);
  assert.deepEqual(labels(subNested).slice(0, 1), ['next_cursor']);
  await client.change(uri, text, ++version);
});

test("headers[' completes the captured header names as sent, plus the parsed link of CursorPagination; variables follow", async () => {
  const items = await completion("headers['Content", "headers['".length);
  const names = labels(items);
  assert.ok(names.indexOf('Content-Type') >= 0 && names.indexOf('Content-Type') < names.indexOf('config'), names.join(','));
  assert.ok(names.includes('Content-Length') && names.includes('link'));
  assert.equal(items.find((i) => i.label === 'Content-Type')!.detail, 'string · "application/json"');
});

test('last_record. and record. complete the record keys; stream_slice. and stream_partition. the slice keys', async () => {
  const recordKeys = ['id', 'name', 'category', 'amount', 'created_at', 'updated_at', 'source'];
  assert.deepEqual(labels(await completion('last_record.id', 'last_record.'.length)), recordKeys);
  assert.deepEqual(labels(await completion('record.id > 0', 'record.'.length)), recordKeys);
  assert.deepEqual(labels(await completion('stream_slice.start_time', 'stream_slice.'.length)), ['start_time', 'end_time']);
  const partition = await completion('stream_partition.parent_id', 'stream_partition.'.length);
  assert.deepEqual(labels(partition), ['parent_id', 'parent_slice']);
  assert.equal(partition[0].detail, 'string · "p4"');
});

test('field_path items complete the response keys at their depth, * over lists', async () => {
  const first = await completion('- records', 2);
  assert.deepEqual(labels(first), ['records', 'meta']);
  assert.equal(newText(first[0]), 'records');
  // A second item below `records`: the list's elements are reached with `*`.
  const edited = text.replace(
    '          field_path:\n            - records\n',
    '          field_path:\n            - records\n            - \n',
  );
  await client.change(uri, edited, ++version);
  const second = await client.completion(uri, positionOf(edited, '- records\n            - ', '- records\n            - '.length));
  assert.deepEqual(labels(second), ['*']);
  assert.equal(newText(second[0]), '"*"');
  // Flow style: after `[data, "*", ` the keys of the records of `items`.
  const flow = text.replace('field_path: [data]', 'field_path: [data, "*", ]');
  await client.change(uri, flow, ++version);
  const third = await client.completion(uri, positionOf(flow, 'field_path: [data, "*", ]', 'field_path: [data, "*", '.length));
  assert.deepEqual(labels(third), ['id', 'name', 'category', 'amount', 'active', 'created_at', 'updated_at']);
  assert.equal(newText(third[0]), 'id');
  const topFlow = await client.completion(uri, positionOf(flow, 'field_path: [data, "*", ]', 'field_path: ['.length));
  assert.deepEqual(labels(topFlow), ['data', 'total']);
  await client.change(uri, text, ++version);
});

test('in a one-line flow mapping too: field_path completes and its hover counts the records', async () => {
  const needle = 'extractor: {type: DpathExtractor, field_path: [parents]}';
  const items = await completion(needle, needle.indexOf('[') + 1);
  assert.deepEqual(labels(items), ['parents']);
  assert.equal(newText(items[0]), 'parents');
  assert.match(
    await hover(needle, needle.indexOf('field_path') + 2),
    /of `parents` \(1 page\): `field_path` `\["parents"\]` selects\n\nThe page → 4 records/,
  );
  assert.match(await hover(needle, needle.indexOf('[') + 2), /The page → 4 records/);
});

test('cursor_field, primary_key, RemoveFields.field_pointers and AddFields path complete record keys, before the catalog items', async () => {
  const cursorField = await completion('cursor_field: updated_at', 'cursor_field: '.length);
  assert.deepEqual(labels(cursorField), ['id', 'name', 'category', 'amount', 'active', 'created_at', 'updated_at']);
  const pk = await completion('primary_key: id', 'primary_key: '.length);
  assert.deepEqual(labels(pk).slice(0, 7), ['id', 'name', 'category', 'amount', 'created_at', 'updated_at', 'source']);
  // What completion offered before (the catalog's default) still follows.
  assert.deepEqual(labels(pk).slice(7), before_.primary_key);
  const pointers = await completion('field_pointers: [[active]]', 'field_pointers: [['.length);
  assert.ok(labels(pointers).includes('updated_at'));
  const addPath = await completion('path: [source]', 'path: ['.length);
  assert.ok(labels(addPath).includes('category'));
});

test("ParentStreamConfig: parent_key completes the parent stream's record keys, partition_field the slice keys then those", async () => {
  assert.deepEqual(labels(await completion('parent_key: id', 'parent_key: '.length)), ['id', 'title']);
  assert.deepEqual(labels(await completion('partition_field: parent_id', 'partition_field: '.length)), [
    'parent_id',
    'parent_slice',
    'id',
    'title',
  ]);
});

test('hover on cursor_value shows the value per page; on the key of the field too', async () => {
  for (const [needle, delta] of [
    ['response.meta.next_cursor }}', 3],
    ['cursor_value:', 3],
  ] as const) {
    const md = await hover(needle, delta);
    assert.match(md, /\*\*From the last read\*\* of `cursor_in_body` \(3 pages\)/);
    assert.match(md, /Last page → null/);
    assert.match(md, /- page 1 → `b2Zmc2V0OjQw`\n- page 2 → `b2Zmc2V0Ojgw`\n- page 3 → null/);
  }
});

test('hover on stop_condition shows the boolean per page', async () => {
  const md = await hover('next_cursor is none', 3);
  assert.match(md, /`stop_condition` per page/);
  assert.match(md, /- page 1 → `false`\n- page 2 → `false`\n- page 3 → `true`/);
});

test('hover on field_path counts the records it selects on each page', async () => {
  for (const needle of ['field_path:\n', '- records']) {
    const md = await hover(needle, 3);
    assert.match(md, /`field_path` `\["records"\]` selects/);
    assert.match(md, /- page 1 → 40 records\n- page 2 → 40 records\n- page 3 → 20 records/);
  }
});

test('hover on a request template uses the next-page token each page was requested with', async () => {
  const md = await hover('next_page_token.next_page_token if', 3);
  assert.match(md, /- page 1 → `first`\n- page 2 → `b2Zmc2V0OjQw`\n- page 3 → `b2Zmc2V0Ojgw`/);
  const slice = await hover('stream_slice.start_time', 3);
  assert.match(slice, /of `items` \(4 pages\)/);
  assert.match(slice, /Every page → `2024-01-01T00:00:00Z`/);
  const filter = await hover('record.id > 0', 3);
  assert.match(filter, /`condition` per page \(with the last record of each page\)/);
  assert.match(filter, /Every page → `true`/);
});

test("hover on a partitioned stream's URL lists the value per slice", async () => {
  const md = await hover('stream_partition.parent_id }}/children', 3);
  assert.match(md, /of `children` \(4 pages\): `HttpRequester.url` evaluated/);
  for (let i = 1; i <= 4; i++) assert.ok(md.includes(`- slice ${i} page 1 → \`${demo.url}/parents/p${i}/children\``), md);
});

test('secrets stay masked: the captured config and responses show **** and never the testing value', async () => {
  const md = await hover("config['api_key']", 3);
  assert.match(md, /Every page → `\*\*\*\*`/);
  for (const [needle, delta] of [
    ["config['api_key']", 3],
    ['response.meta.next_cursor }}', 3],
    ["headers['Content", 3],
  ] as const) {
    assert.ok(!(await hover(needle, delta)).includes(SECRET));
  }
  for (const [, needle, delta] of PROBES) assert.ok(!JSON.stringify(await completion(needle, delta)).includes(SECRET));
});

test('hover shows an evaluation error as the runtime raises it, on the current text of the manifest', async () => {
  const edited = text.replace(
    'cursor_value: "{{ response.meta.next_cursor }}"',
    'cursor_value: "{{ response.meta.next_cursor | nofilter }}"',
  );
  await client.change(uri, edited, ++version);
  const md = await hover('response.meta.next_cursor | nofilter', 3, edited);
  assert.match(md, /Every page → error: .*nofilter/);
  await client.change(uri, text, ++version);
});

test("the paginator of each read stream carries the summary lens from the read's pagination trace", async () => {
  const lenses = (await client.codeLenses(uri)).filter((l) => /pages? (read|·)/.test(l.command?.title ?? ''));
  const lines = text.split('\n');
  assert.deepEqual(
    lenses.map((l) => [lines[l.range.start.line].trim(), l.command!.title]),
    [
      ['paginator:', '3 pages · stopped: stop_condition evaluated true'],
      ['paginator:', '4 pages · stopped: empty page'],
    ],
  );
  // The whole reason, with the template, is the tooltip.
  assert.match(
    lenses[0].command!.tooltip ?? '',
    /^Last page: stop_condition "\{\{ response\.meta\.next_cursor is none or .*\}\}" evaluated true$/,
  );
});

test('a later read of the same stream replaces its lens (a read stopped by its record limit, then a full one)', async () => {
  const summary = async () => (await client.codeLenses(uri)).map((l) => l.command?.title ?? '').filter((t) => /pages? (read|·)/.test(t));
  await client.request<StreamRead>(TestReadRequest, {
    uri,
    streamName: 'cursor_in_body',
    config: config(),
    limits: { maxRecords: 20 },
    runId: 'run-limited',
  } satisfies TestReadParams);
  const limited = await summary();
  assert.equal(limited.length, 2);
  assert.match(limited[0], /^1 page · stopped: record limit of the test read \(20\)/);
  await read('cursor_in_body');
  assert.equal((await summary())[0], '3 pages · stopped: stop_condition evaluated true');
});

test('a StreamRead without pagination_trace (airbyte/captureRead) gives "N pages read", and tokens are replayed with the runtime\'s paginator', async () => {
  const cursor = await read('cursor_in_body');
  assert.ok(
    cursor.slices[0].pages.every((p) => p.pagination_trace),
    'the language server asks the runtime for the trace',
  );
  for (const page of cursor.slices[0].pages) delete page.pagination_trace;
  const kept = await client.request<CaptureReadResult>(CaptureReadRequest, {
    uri,
    streamName: 'cursor_in_body',
    read: cursor,
    config: config(),
  } satisfies CaptureReadParams);
  assert.deepEqual(kept, { pages: 3, droppedPages: 0 });
  const titles = (await client.codeLenses(uri)).map((l) => l.command?.title);
  assert.ok(titles.includes('3 pages read'), titles.join(' | '));
  // Without a trace, the token each page was requested with comes from the runtime's paginator over the captured responses.
  assert.match(
    await hover('next_page_token.next_page_token if', 3),
    /- page 1 → `first`\n- page 2 → `b2Zmc2V0OjQw`\n- page 3 → `b2Zmc2V0Ojgw`/,
  );
  // The masked config given with the request is what templates see.
  assert.match(await hover("config['api_key']", 3), /Every page → `\*\*\*\*`/);
});

test('a capture whose stream no longer exists is ignored; clearing forgets the reads and completion is as before', async () => {
  const renamed = text.replace('name: cursor_in_body', 'name: cursor_renamed');
  await client.change(uri, renamed, ++version);
  assert.deepEqual(labels(await completion('response.meta.next_cursor }}', 'response.'.length, 0, renamed)), []);
  assert.equal(await hover('next_cursor is none', 3, renamed), '');
  await client.change(uri, text, ++version);
  assert.deepEqual(labels(await completion('response.meta.next_cursor }}', 'response.'.length)), ['records', 'meta']);
  await client.request(ClearCapturedReadsRequest, { uri });
  for (const [name, needle, delta] of PROBES) assert.deepEqual(labels(await completion(needle, delta)), before_[name], name);
  assert.ok(!(await client.codeLenses(uri)).some((l) => /pages? (read|·)/.test(l.command?.title ?? '')));
});

test('airbyte/captureRead refuses a request without a StreamRead', async () => {
  await assert.rejects(client.request(CaptureReadRequest, { uri, streamName: 'items', read: { nope: true } }), /must be a StreamRead/);
});

// The pagination trace (env.paginationTrace) over real HTTP: every stop reason, for every pagination
// strategy of the demo workspace (OffsetIncrement, PageIncrement 0- and 1-based, CursorPagination with a
// body cursor, a next URL and a Link header, pagination reset both ways), read against the demo API on
// 127.0.0.1; a data feed and NoPagination over a loopback server; the CLI's output of the trace.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'yaml';
import { testRead, type StreamRead } from '../../../server/src/runtime';
import type { PaginationTrace } from '../../../server/src/runtime';
import type { TestReadEnv, TestReadLimits } from '../../../server/src/runtime/types';
import { readCommand } from '../../../server/src/runtime/cli/readCommand';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { json, manifestWith, startLoopback } from './loopback';

const WORKSPACE = join(__dirname, '../../../demo/workspace');
// Manifests are patched freely before the read: plain parsed YAML.
type Obj = Record<string, any>;

let api: DemoApi;
before(async () => {
  api = await startDemoApi({ now: () => new Date('2024-01-03T12:00:00Z') });
});
after(async () => {
  await api.close();
});

const demo = (file: string): Obj => parse(readFileSync(join(WORKSPACE, file), 'utf8'));
/** The demo stream `name` of a manifest, to patch before the read. */
const streamOf = (m: Obj, name: string): Obj => m.streams.find((s: Obj) => s.name === name);
/** Adds query parameters (the demo API's `total`, `fail`, ...) to a stream's requester. */
function withParams(m: Obj, name: string, params: Record<string, string>): Obj {
  const requester = streamOf(m, name).retriever.requester;
  requester.request_parameters = { ...requester.request_parameters, ...params };
  return m;
}

async function read(
  m: Obj,
  stream: string,
  limits: TestReadLimits = { maxRecords: 1000, maxPagesPerSlice: 20 },
  config: Obj = {},
  env: TestReadEnv = {},
): Promise<{ r: StreamRead; traces: PaginationTrace[] }> {
  const r = await testRead(m, { url_base: api.url, page_size: 50, start_date: '2024-01-01T00:00:00Z', ...config }, stream, limits, {
    paginationTrace: true,
    ...env,
  });
  const traces = r.slices.flatMap((s) => s.pages.map((p) => p.pagination_trace as PaginationTrace));
  assert.ok(
    traces.every((t) => t !== undefined),
    'every page has a pagination_trace',
  );
  return { r, traces };
}

const last = <T>(list: T[]): T => list[list.length - 1];
const requested = (token_in: unknown, token_out: unknown, record_count: number): PaginationTrace => ({
  token_in,
  token_out,
  record_count,
  next_requested: true,
  stop_reason: null,
});
const stopped = (token_in: unknown, record_count: number, stop_reason: string): PaginationTrace => ({
  token_in,
  token_out: null,
  record_count,
  next_requested: false,
  stop_reason,
});

/** Every trace but the last asked for the next page with the token the next page was requested with. */
function assertChained(traces: PaginationTrace[]): void {
  for (let i = 0; i + 1 < traces.length; i++) {
    assert.equal(traces[i].next_requested, true, `page ${i + 1} requested the next`);
    assert.equal(traces[i].stop_reason, null);
    assert.deepEqual(traces[i + 1].token_in, traces[i].token_out, `page ${i + 2} was requested with page ${i + 1}'s token out`);
  }
}

test('without env.paginationTrace the StreamRead is unchanged: pages have no pagination_trace', async () => {
  const r = await testRead(
    withParams(demo('offset-increment.yaml'), 'items', { total: '60' }),
    { url_base: api.url, page_size: 50 },
    'items',
  );
  for (const p of r.slices.flatMap((s) => s.pages)) assert.deepEqual(Object.keys(p), ['records', 'request', 'response']);
});

// --- OffsetIncrement (demo/workspace/offset-increment.yaml) ---

test('OffsetIncrement: a short page stops with "3 records < page_size 50", quoting the page_size template', async () => {
  const { traces } = await read(withParams(demo('offset-increment.yaml'), 'items', { total: '103' }), 'items');
  assert.deepEqual(traces, [
    requested(null, 50, 50),
    requested(50, 100, 50),
    stopped(100, 3, `3 records < page_size 50 (page_size "{{ config['page_size'] }}")`),
  ]);
});

test('OffsetIncrement: an empty page stops with "empty page"', async () => {
  const { traces } = await read(withParams(demo('offset-increment.yaml'), 'items', { total: '100' }), 'items');
  assert.deepEqual(last(traces), stopped(100, 0, 'empty page: 0 records'));
  assertChained(traces);
});

test('OffsetIncrement: inject_on_first_request sends offset 0 on the first page, which the trace shows as its token in', async () => {
  const m = withParams(demo('offset-increment.yaml'), 'items', { total: '60' });
  streamOf(m, 'items').retriever.paginator.pagination_strategy.inject_on_first_request = true;
  const { traces } = await read(m, 'items');
  assert.deepEqual(traces, [requested(0, 50, 50), stopped(50, 10, `10 records < page_size 50 (page_size "{{ config['page_size'] }}")`)]);
});

test('OffsetIncrement: records dropped by record_filter are still counted, and the trace says so', async () => {
  const m = withParams(demo('offset-increment.yaml'), 'items', { total: '60' });
  streamOf(m, 'items').retriever.record_selector.record_filter = { type: 'RecordFilter', condition: "{{ record['id'] % 2 == 0 }}" };
  const { traces } = await read(m, 'items');
  assert.deepEqual(traces, [
    requested(null, 50, 25),
    stopped(50, 5, `10 records (counted before record_filter) < page_size 50 (page_size "{{ config['page_size'] }}")`),
  ]);
});

test('OffsetIncrement: a failed request ends the trace with the error', async () => {
  const m = withParams(demo('offset-increment.yaml'), 'items', { fail: '500', times: '1', fail_key: 'trace-offset' });
  const { r, traces } = await read(m, 'items');
  assert.equal(traces.length, 1);
  assert.equal(traces[0].next_requested, false);
  assert.equal(traces[0].token_out, null);
  assert.match(traces[0].stop_reason ?? '', /^the page failed: .*(500|Exhausted|Internal)/i);
  assert.ok(r.logs.some((l) => l.level === 'ERROR'));
});

test('OffsetIncrement: an error status the error handler ignores ends the slice, and the trace names the action', async () => {
  const m = withParams(demo('offset-increment.yaml'), 'items', { fail: '500', times: '1', fail_key: 'trace-ignore' });
  streamOf(m, 'items').retriever.requester.error_handler = {
    type: 'DefaultErrorHandler',
    response_filters: [{ type: 'HttpResponseFilter', action: 'IGNORE', http_codes: [500] }],
  };
  const { traces } = await read(m, 'items');
  assert.deepEqual(traces, [stopped(null, 0, 'HTTP 500 ignored by the error handler (action IGNORE): the slice ends')]);
});

// --- PageIncrement (demo/workspace/page-increment.yaml) ---

test('PageIncrement (0-based): page numbers chain from 1 and a short page stops with "10 records < page_size 50"', async () => {
  const { traces } = await read(withParams(demo('page-increment.yaml'), 'pages_zero_based', { total: '110' }), 'pages_zero_based');
  assert.deepEqual(traces, [requested(null, 1, 50), requested(1, 2, 50), stopped(2, 10, '10 records < page_size 50')]);
});

test('PageIncrement (1-based, inject_on_first_request): page 1 is the first token in; an empty page stops', async () => {
  const { traces } = await read(withParams(demo('page-increment.yaml'), 'pages_one_based', { total: '100' }), 'pages_one_based');
  assert.deepEqual(traces, [requested(1, 2, 50), requested(2, 3, 50), stopped(3, 0, 'empty page: 0 records')]);
});

test('PageIncrement: start_from_page -1 gives next page 0, a falsy token that stops pagination (CDK quirk), and the trace says why', async () => {
  const m = withParams(demo('page-increment.yaml'), 'pages_zero_based', { total: '120' });
  streamOf(m, 'pages_zero_based').retriever.paginator.pagination_strategy.start_from_page = -1;
  const { traces } = await read(m, 'pages_zero_based');
  assert.deepEqual(traces, [stopped(null, 50, 'the next page number is 0, a falsy token (the CDK stops on 0, "", false, [] and {})')]);
});

// --- CursorPagination (demo/workspace/cursor-pagination.yaml) ---

test('CursorPagination (cursor in the body): tokens chain and the last page stops on the quoted stop_condition', async () => {
  const { traces } = await read(withParams(demo('cursor-pagination.yaml'), 'cursor_in_body', { total: '100' }), 'cursor_in_body');
  assert.deepEqual(
    traces.map((t) => t.record_count),
    [40, 40, 20],
  );
  assert.equal(traces[0].token_in, null);
  assert.equal(typeof traces[0].token_out, 'string');
  assertChained(traces);
  assert.deepEqual(
    last(traces),
    stopped(traces[1].token_out, 20, 'stop_condition "{{ response.meta.next_cursor is none }}" evaluated true'),
  );
});

test('CursorPagination: a cursor_value that renders empty stops with "evaluated to empty"', async () => {
  const m = withParams(demo('cursor-pagination.yaml'), 'cursor_in_body', { total: '60' });
  delete streamOf(m, 'cursor_in_body').retriever.paginator.pagination_strategy.stop_condition;
  const { traces } = await read(m, 'cursor_in_body');
  assert.equal(traces.length, 2);
  assert.equal(last(traces).stop_reason, 'cursor_value "{{ response.meta.next_cursor }}" evaluated to empty');
});

test('CursorPagination: a cursor_value that evaluates to 0 stops as a falsy token', async () => {
  const m = withParams(demo('cursor-pagination.yaml'), 'cursor_in_body', { total: '60' });
  const strategy = streamOf(m, 'cursor_in_body').retriever.paginator.pagination_strategy;
  delete strategy.stop_condition;
  strategy.cursor_value = '{{ response.meta.next_cursor or 0 }}';
  const { traces } = await read(m, 'cursor_in_body');
  assert.equal(
    last(traces).stop_reason,
    'cursor_value "{{ response.meta.next_cursor or 0 }}" evaluated to 0, a falsy token (the CDK stops on 0, "", false, [] and {})',
  );
});

test('CursorPagination (next URL in the body, RequestPath): the tokens are the URLs requested next', async () => {
  const { r, traces } = await read(withParams(demo('cursor-pagination.yaml'), 'next_url_in_body', { total: '120' }), 'next_url_in_body');
  const pages = r.slices[0].pages;
  assert.equal(traces.length, 3);
  assertChained(traces);
  assert.equal(traces[1].token_in, pages[1].request?.url);
  assert.match(String(traces[0].token_out), /\/next-url\/items\?.*offset=50/);
  assert.equal(last(traces).stop_reason, `stop_condition "{{ response.get('next') is none }}" evaluated true`);
});

test('CursorPagination (Link header): the last page stops with "no next link", quoting the stop_condition', async () => {
  const { traces } = await read(withParams(demo('cursor-pagination.yaml'), 'link_header', { total: '120' }), 'link_header');
  assert.equal(traces.length, 3);
  assertChained(traces);
  assert.equal(last(traces).stop_reason, `no next link: stop_condition "{{ 'next' not in headers['link'] }}" evaluated true`);
});

test('CursorPagination (Link header) without stop_condition: the cursor_value error is the stop reason, naming the missing link', async () => {
  const m = withParams(demo('cursor-pagination.yaml'), 'link_header', { total: '70' });
  delete streamOf(m, 'link_header').retriever.paginator.pagination_strategy.stop_condition;
  const { r, traces } = await read(m, 'link_header');
  assert.equal(traces.length, 2);
  assert.equal(last(traces).next_requested, false);
  assert.match(last(traces).stop_reason ?? '', /^no next link: cursor_value "\{\{ headers\['link'\]\['next'\]\['url'\] \}\}" failed: /);
  assert.ok(r.logs.some((l) => l.level === 'ERROR'));
});

test('CursorPagination: tokens go through the masker like the rest of the read', async () => {
  const secret = 'cursor-secret-4f9a1c';
  const m = withParams(demo('cursor-pagination.yaml'), 'cursor_in_body', { total: '100' });
  m.spec.connection_specification.properties.api_key = { type: 'string', airbyte_secret: true };
  const strategy = streamOf(m, 'cursor_in_body').retriever.paginator.pagination_strategy;
  strategy.cursor_value = "{{ config['api_key'] }}";
  const { r, traces } = await read(m, 'cursor_in_body', { maxRecords: 1000, maxPagesPerSlice: 2 }, { api_key: secret });
  assert.equal(traces[0].token_out, '****');
  assert.equal(traces[1].token_in, '****');
  assert.ok(!JSON.stringify(r).includes(secret));
});

// --- Pagination reset (demo/workspace/pagination-reset.yaml) ---

test('pagination reset by record limit: the page that reached the limit says how the slice restarts; the next page starts again from no token', async () => {
  const { traces } = await read(demo('pagination-reset.yaml'), 'items_split_by_limit');
  assert.deepEqual(
    traces.slice(0, 3).map((t) => [t.token_in, t.token_out, t.next_requested]),
    [
      [null, 25, true],
      [25, null, false],
      [null, 25, true],
    ],
  );
  assert.equal(
    traces[1].stop_reason,
    `pagination reset (SPLIT_USING_CURSOR) because this attempt read 50 records (pagination_reset.limits.number_of_records); reading again from the first page with start_time "2024-01-03T01:30:00Z" (was "2024-01-01T00:00:00Z"), the last 'updated_at' read`,
  );
  assert.equal(last(traces).stop_reason, '5 records < page_size 25');
});

test('pagination reset by the error handler: the refused page says RESET_PAGINATION and where reading resumes', async () => {
  const { traces } = await read(demo('pagination-reset.yaml'), 'items_split_on_error');
  const refused = traces[2];
  assert.equal(refused.record_count, 0);
  assert.equal(refused.next_requested, false);
  assert.match(
    refused.stop_reason ?? '',
    /^pagination reset \(SPLIT_USING_CURSOR\) because the error handler answered RESET_PAGINATION to HTTP 400 from http:\/\/127\.0\.0\.1:\d+\/capped\/items\?…; reading again from the first page with start_time "2024-01-02T15:30:00Z"/,
  );
  assert.equal(last(traces).stop_reason, '16 records < page_size 20');
});

test('pagination reset that cannot proceed (a second RESET of the slice) is the stop reason of the refused page', async () => {
  const m = demo('pagination-reset.yaml');
  streamOf(m, 'items_split_on_error').retriever.pagination_reset.action = 'RESET';
  const { traces } = await read(m, 'items_split_on_error');
  assert.match(
    traces[2].stop_reason ?? '',
    /^pagination reset \(RESET\) because the error handler answered RESET_PAGINATION .*reading the same slice again from its first page$/,
  );
  assert.match(
    last(traces).stop_reason ?? '',
    /^pagination reset failed: Stream 'items_split_on_error': pagination was reset twice for the same slice/,
  );
});

// --- Test-read limits, for every strategy of the demo workspace ---

const STRATEGIES: Array<[file: string, stream: string, firstPage: number]> = [
  ['offset-increment.yaml', 'items', 50],
  ['page-increment.yaml', 'pages_zero_based', 50],
  ['page-increment.yaml', 'pages_one_based', 50],
  ['cursor-pagination.yaml', 'cursor_in_body', 40],
  ['cursor-pagination.yaml', 'next_url_in_body', 50],
  ['cursor-pagination.yaml', 'link_header', 50],
  ['pagination-reset.yaml', 'items_split_by_limit', 25],
  ['pagination-reset.yaml', 'items_split_on_error', 20],
];

for (const [file, stream, size] of STRATEGIES) {
  test(`${file} ${stream}: the test read's page limit stops the trace with "page limit of the test read (2) reached"`, async () => {
    // items_split_by_limit resets after 50 records, i.e. after its 2nd page: one page per slice there.
    const pages = stream === 'items_split_by_limit' ? 1 : 2;
    const { r, traces } = await read(demo(file), stream, { maxRecords: 1000, maxPagesPerSlice: pages });
    assert.equal(traces.length, pages);
    assertChained(traces);
    assert.equal(last(traces).stop_reason, `page limit of the test read (${pages}) reached`);
    assert.equal(last(traces).token_out, null);
    assert.equal(r.test_read_limit_reached, true);
  });

  test(`${file} ${stream}: the record limit stops the trace, saying how many of the page's records were kept`, async () => {
    const max = size + 5;
    const { traces } = await read(demo(file), stream, { maxRecords: max, maxPagesPerSlice: 5 });
    assert.equal(traces.length, 2);
    assert.equal(traces[0].next_requested, true);
    assert.deepEqual(
      last(traces),
      stopped(traces[0].token_out, 5, `record limit of the test read (${max}) reached: 5 of the page's ${size} records kept`),
    );
  });

  test(`${file} ${stream}: cancelling the read after the first page ends its trace with "the read was cancelled"`, async () => {
    const controller = new AbortController();
    const onProgress = (e: object) => {
      if ((e as { type?: string }).type === 'page') controller.abort();
    };
    const { traces } = await read(
      demo(file),
      stream,
      { maxRecords: 1000, maxPagesPerSlice: 5 },
      {},
      { signal: controller.signal, onProgress },
    );
    assert.equal(traces.length, 1);
    assert.equal(traces[0].next_requested, false);
    assert.equal(traces[0].stop_reason, 'the read was cancelled');
  });
}

// --- Without a paginator, and a data feed (loopback) ---

test('NoPagination: every slice makes one request, and the trace says so', async () => {
  const lb = await startLoopback((req, res) =>
    json(res, { data: [{ id: 1, region: new URL(req.url, 'http://x').searchParams.get('region') }] }),
  );
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${lb.base}/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      partition_router: {
        type: 'ListPartitionRouter',
        values: ['eu', 'us'],
        cursor_field: 'region',
        request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'region' },
      },
    });
    const r = await testRead(m, {}, 'items', {}, { paginationTrace: true });
    const traces = r.slices.flatMap((s) => s.pages.map((p) => p.pagination_trace));
    assert.deepEqual(traces, [
      stopped(null, 1, 'no pagination (NoPagination): one request per slice'),
      stopped(null, 1, 'no pagination (NoPagination): one request per slice'),
    ]);
  } finally {
    await lb.close();
  }
});

test('is_data_feed: the page whose last record is already synced stops the feed, and the trace says so', async () => {
  // Newest first, 3 per page: page 2 ends with a record older than the state, so the feed stops there.
  const all = Array.from({ length: 9 }, (_, i) => ({ id: 9 - i, updated_at: `2024-01-0${9 - i}T00:00:00Z` }));
  const lb = await startLoopback((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    json(res, { data: all.slice((page - 1) * 3, page * 3) });
  });
  try {
    const m = manifestWith(
      {
        requester: { type: 'HttpRequester', url: `${lb.base}/items` },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        paginator: {
          type: 'DefaultPaginator',
          page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
          pagination_strategy: { type: 'PageIncrement', page_size: 3, start_from_page: 1 },
        },
      },
      {
        incremental_sync: {
          type: 'DatetimeBasedCursor',
          cursor_field: 'updated_at',
          datetime_format: '%Y-%m-%dT%H:%M:%SZ',
          start_datetime: '2024-01-01T00:00:00Z',
          end_datetime: '2024-01-31T00:00:00Z',
          is_data_feed: true,
        },
      },
    );
    const state = [
      { type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: { updated_at: '2024-01-05T12:00:00Z' } } },
    ];
    const r = await testRead(m, {}, 'items', {}, { paginationTrace: true, state });
    const traces = r.slices.flatMap((s) => s.pages.map((p) => p.pagination_trace as PaginationTrace));
    assert.equal(traces.length, 2);
    assert.deepEqual(traces[0], requested(null, 2, 3));
    assert.equal(traces[1].token_in, 2);
    assert.match(traces[1].stop_reason ?? '', /^is_data_feed: the page's last record is outside the cursor's range/);
  } finally {
    await lb.close();
  }
});

test('AsyncRetriever: the download pages carry a trace; without download_paginator one request per download', async () => {
  const { r, traces } = await read(demo('async-job.yaml'), 'report_lines', {}, { api_key: 'demo-api-key' }, { sleep: async () => {} });
  // No log: the demo's creation requester uses request_body (nothing deprecated to warn about).
  assert.deepEqual(
    r.logs.map((l) => l.level),
    [],
  );
  assert.deepEqual(traces, [stopped(null, 20, 'no download_paginator: one request per download target')]);
});

// --- The CLI ---

test("CLI: the pretty format shows each page's trace; json includes it only with --trace", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trace-cli-'));
  try {
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({ url_base: api.url }));
    const manifestFile = join(dir, 'cursor.yaml');
    writeFileSync(
      manifestFile,
      readFileSync(join(WORKSPACE, 'cursor-pagination.yaml'), 'utf8').replace(
        'request_parameters: {limit: "40"}',
        'request_parameters: {limit: "40", total: "60"}',
      ),
    );
    const runCli = async (args: string[]) => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (c) => (text += c));
      const code = await readCommand([manifestFile, '--stream', 'cursor_in_body', '--config', configFile, ...args], out, new PassThrough());
      return { code, text };
    };
    const pretty = await runCli([]);
    assert.equal(pretty.code, 0);
    assert.match(pretty.text, /page 1: GET .*\n {6}token ∅ → \S+ · next page: requested\n/);
    assert.match(
      pretty.text,
      /page 2: GET .*\n {6}token \S+ → ∅ · stopped: stop_condition "\{\{ response\.meta\.next_cursor is none \}\}" evaluated true\n/,
    );
    const plain = JSON.parse((await runCli(['--format', 'json'])).text) as StreamRead;
    assert.ok(plain.slices[0].pages.every((p) => !('pagination_trace' in p)));
    const traced = JSON.parse((await runCli(['--format', 'json', '--trace'])).text) as StreamRead;
    assert.deepEqual(
      traced.slices[0].pages.map((p) => p.pagination_trace?.next_requested),
      [true, false],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

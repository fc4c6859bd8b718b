// Behaviours of the components of issue 20 that a golden from the reference cannot show, derived from
// reading the CDK at the pinned commit (sources/streams/call_rate.py, partition_routers/
// union_partition_router.py, requesters/query_properties/, the state-delegating factory method), over
// loopback APIs on 127.0.0.1: the api_budget's waits (the reference's stand-in for pyrate_limiter cannot
// limit, and a reference read with a frozen clock would wait forever), union deduplication, property
// chunking, and the retention period's edge cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { chunksOf } from '../../../server/src/runtime/testRead/queryProperties';
import { json, manifestWith, startLoopback } from './loopback';

const NOW = '2024-03-15T12:00:00Z';

function paged(base: string, budget: Record<string, unknown>) {
  return {
    ...manifestWith({
      requester: { type: 'HttpRequester', url: `${base}/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 1, start_from_page: 1 },
      },
    }),
    api_budget: { type: 'HTTPAPIBudget', ...budget },
  };
}

async function readPaged(budget: Record<string, unknown>, headers: (page: number) => Record<string, string> = () => ({}), pages = 3) {
  const api = await startLoopback((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? '1');
    json(res, { data: page <= pages ? [{ id: page }] : [] }, headers(page));
  });
  const sleeps: number[] = [];
  try {
    const manifest = paged(api.base, budget);
    const read = await testRead(
      manifest,
      {},
      'items',
      { maxPagesPerSlice: 10 },
      {
        now: () => new Date(NOW),
        sleep: async (ms: number) => {
          sleeps.push(ms);
        },
      },
    );
    return { read, sleeps, requests: api.requests.map((r) => r.url) };
  } finally {
    await api.close();
  }
}

test('api_budget MovingWindowCallRatePolicy: the third call of a 2-per-10-s window waits 10 s (logged), then the read goes on', async () => {
  const { read, sleeps, requests } = await readPaged({
    policies: [{ type: 'MovingWindowCallRatePolicy', rates: [{ type: 'Rate', limit: 2, interval: 'PT10S' }], matchers: [] }],
  });
  assert.deepEqual(requests, ['/items', '/items?page=2', '/items?page=3', '/items?page=4']);
  // Calls 1 and 2 at t=0; call 3 waits until call 1 leaves the window; call 4 until call 2 does (both at t=0), so no second wait.
  assert.deepEqual(sleeps, [10000]);
  assert.ok(
    read.logs.some(
      (l) =>
        l.level === 'INFO' &&
        /MovingWindowCallRatePolicy \(2 per 0:00:10\) reached its limit; waiting 10 s before GET .*\/items, as the Python CDK does/.test(
          l.message,
        ),
    ),
    JSON.stringify(read.logs),
  );
  assert.equal(read.slices[0].pages.length, 4);
});

test('api_budget FixedWindowCallRatePolicy: the first window lasts 10 days from the build, so a test read stops where the CDK would wait', async () => {
  const { read, requests } = await readPaged({
    policies: [{ type: 'FixedWindowCallRatePolicy', period: 'PT1H', call_limit: 2, matchers: [] }],
  });
  assert.deepEqual(requests, ['/items', '/items?page=2']);
  const error = read.logs.find((l) => l.level === 'ERROR');
  assert.match(
    error?.message ?? '',
    /api_budget: FixedWindowCallRatePolicy \(2 calls per 1:00:00\) has no room for GET .*\/items; the Python CDK would wait 10 days, 0:00:00 here before sending it\. A test read waits at most 60 s/,
  );
});

test("api_budget FixedWindowCallRatePolicy: the API's reset header moves the window, so the wait is the time to that reset", async () => {
  const reset = String(Date.parse(NOW) / 1000 + 30);
  const { sleeps, requests } = await readPaged(
    { ratelimit_reset_header: 'X-Reset', policies: [{ type: 'FixedWindowCallRatePolicy', period: 'PT1H', call_limit: 2, matchers: [] }] },
    () => ({ 'X-Reset': reset }),
  );
  assert.deepEqual(requests, ['/items', '/items?page=2', '/items?page=3', '/items?page=4']);
  // After the reset the window rolls by the period (an hour), so a single 30 s wait.
  assert.deepEqual(sleeps, [30000]);
});

test('api_budget: remaining calls reported as 0 (or a status_codes_for_ratelimit_hit status) empty the fixed window', async () => {
  const reset = String(Date.parse(NOW) / 1000 + 5);
  const { sleeps, requests } = await readPaged(
    { policies: [{ type: 'FixedWindowCallRatePolicy', period: 'PT1M', call_limit: 100, matchers: [] }] },
    (page): Record<string, string> => (page === 1 ? { 'ratelimit-remaining': '0', 'ratelimit-reset': reset } : {}),
  );
  assert.deepEqual(requests, ['/items', '/items?page=2', '/items?page=3', '/items?page=4']);
  assert.deepEqual(sleeps, [5000]);
});

test("api_budget: a matcher weight above the window is the CDK's ValueError; policies that match nothing leave requests alone", async () => {
  const heavy = await readPaged({
    policies: [
      {
        type: 'FixedWindowCallRatePolicy',
        period: 'PT1M',
        call_limit: 2,
        matchers: [{ type: 'HttpRequestRegexMatcher', url_path_pattern: '^/items', weight: 3 }],
      },
    ],
  });
  assert.match(heavy.read.logs.find((l) => l.level === 'ERROR')?.message ?? '', /ValueError: Weight can not exceed the call limit/);
  assert.deepEqual(heavy.requests, []);
  const other = await readPaged({
    policies: [
      {
        type: 'FixedWindowCallRatePolicy',
        period: 'PT1M',
        call_limit: 1,
        matchers: [
          { type: 'HttpRequestRegexMatcher', method: 'POST' },
          { type: 'HttpRequestRegexMatcher', url_path_pattern: '^/other' },
          { type: 'HttpRequestRegexMatcher', params: { page: '9' } },
          { type: 'HttpRequestRegexMatcher', headers: { 'X-Sandbox': 'true' } },
        ],
      },
    ],
  });
  assert.equal(other.requests.length, 4);
  assert.deepEqual(other.sleeps, []);
});

test('UnionPartitionRouter: equal values are one partition as in a Python set (1, 1.0 and true), lists are refused', async () => {
  const api = await startLoopback((req, res) => json(res, { data: [{ id: req.url }] }));
  try {
    const union = (values: unknown[][]) =>
      manifestWith({
        requester: { type: 'HttpRequester', url: `${api.base}/items`, request_parameters: { k: '{{ stream_partition.k }}' } },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        partition_router: {
          type: 'UnionPartitionRouter',
          partition_field: 'k',
          partition_routers: values.map((v) => ({ type: 'ListPartitionRouter', cursor_field: 'k', values: v })),
        },
      });
    const r = await testRead(
      union([
        [1, 'a'],
        [true, 'b', 'a'],
      ]),
      {},
      'items',
    );
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [{ k: 1 }, { k: 'a' }, { k: 'b' }],
    );
    await assert.rejects(
      testRead(union([['a'], [['x']]]), {}, 'items').then((read) => {
        throw new Error(read.logs.map((l) => l.message).join(' | '));
      }),
      /UnionPartitionRouter can only deduplicate hashable partition values\. Got unhashable value \['x'\] for partition field 'k'\./,
    );
    await assert.rejects(
      testRead(
        manifestWith({
          requester: { type: 'HttpRequester', url: `${api.base}/items` },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
          partition_router: {
            type: 'UnionPartitionRouter',
            partition_field: 'k',
            partition_routers: [
              { type: 'ListPartitionRouter', cursor_field: 'k', values: ['a'] },
              { type: 'ListPartitionRouter', cursor_field: 'j', values: ['b'] },
            ],
          },
        }),
        {},
        'items',
      ),
      /UnionPartitionRouter expects all child partition routers to emit the partition field 'k', but a ListPartitionRouter child emits 'j'\./,
    );
  } finally {
    await api.close();
  }
});

test('PropertyChunking: chunks by count or by characters (length + 3), always-included properties first and not counted', () => {
  assert.deepEqual(chunksOf(['a', 'b', 'c'], ['id'], null, false, 2), [
    ['id', 'a', 'b'],
    ['id', 'c'],
  ]);
  assert.deepEqual(chunksOf(['name', 'email', 'x'], null, null, true, 12), [['name'], ['email', 'x']]);
  // A selection skips properties; without a limit there is one chunk, always-included last, selection ignored (as in the CDK).
  assert.deepEqual(chunksOf(['a', 'b', 'c'], ['id'], new Set(['b']), false, 5), [['id', 'b']]);
  assert.deepEqual(chunksOf(['a', 'b'], ['id'], new Set(), false, null), [['a', 'b', 'id']]);
});

test('api_retention_period: a state the cursor cannot read falls back to a full refresh, with a WARN; a completed full refresh counts as now', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [{ id: 1, created: '2024-03-14T00:00:00Z' }] }));
  try {
    const stream = (base: string) => ({
      type: 'StateDelegatingStream',
      name: 'items',
      api_retention_period: '{{ config.retention }}',
      full_refresh_stream: {
        type: 'DeclarativeStream',
        name: 'items',
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url: `${base}/full` },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        },
      },
      incremental_stream: {
        type: 'DeclarativeStream',
        name: 'items',
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url: `${base}/incremental` },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        },
        incremental_sync: {
          type: 'DatetimeBasedCursor',
          cursor_field: 'created',
          datetime_format: '%Y-%m-%dT%H:%M:%SZ',
          start_datetime: '2024-03-01T00:00:00Z',
        },
      },
    });
    const manifest = {
      version: '7.0.0',
      type: 'DeclarativeSource',
      check: { type: 'CheckStream', stream_names: ['items'] },
      streams: [stream(api.base)],
    };
    const withState = (s: Record<string, unknown>) => ({
      now: () => new Date(NOW),
      state: [{ type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: s } }],
    });
    const unreadable = await testRead(manifest, { retention: 'P7D' }, 'items', {}, withState({ created: 'yesterday' }));
    assert.ok(
      unreadable.logs.some((l) => l.level === 'WARN' && /could not be read, so the read falls back to a full refresh/.test(l.message)),
    );
    const finished = await testRead(manifest, { retention: 'P7D' }, 'items', {}, withState({ __ab_no_cursor_state_message: true }));
    assert.ok(!finished.logs.some((l) => l.level === 'WARN'));
    // No period (an empty template): the state decides alone.
    await testRead(manifest, { retention: '' }, 'items', {}, withState({ created: '2020-01-01T00:00:00Z' }));
    assert.deepEqual(
      api.requests.map((r) => r.url.split('?')[0]),
      ['/full', '/incremental', '/incremental'],
    );
  } finally {
    await api.close();
  }
});

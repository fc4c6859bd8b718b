// Pagination reset (§7.8) over loopback: RESET once then success, a second RESET fails, SPLIT_USING_CURSOR
// reading an API that refuses to page deep, a split that cannot progress, the build-time errors, and
// the test-read page cap restarting with each attempt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead, type StreamRead } from '../../../server/src/runtime';
import type { RuntimeError } from '../../../server/src/runtime/errors';
import { createPaginationReset } from '../../../server/src/runtime/testRead/paginationReset';
import { createDatetimeCursor } from '../../../server/src/runtime/testRead/datetimeCursor';
import type { ReadContext } from '../../../server/src/runtime/testRead/readContext';
import { json, manifestWith, startLoopback, type Recorded } from './loopback';
import type { ServerResponse } from 'node:http';

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** Record i of the capped data set: updated_at hourly from 2024-01-01T00:00:00Z, ascending. */
const record = (i: number) => ({ id: i + 1, updated_at: iso(T0 + i * HOUR) });

/**
 * A data set of `total` records sorted by updated_at, filtered by `start` (updated_at >= start), paged
 * by offset/limit, that answers 400 when a query asks past `cap` records (like APIs capping offsets).
 */
function cappedApi(total: number, cap: number, opts: { ignoreStart?: boolean } = {}) {
  return (req: Recorded, res: ServerResponse) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const start = q.get('start') && !opts.ignoreStart ? Date.parse(q.get('start') as string) : T0;
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit') ?? 2);
    if (offset + limit > cap) return json(res, { error: `cannot page deeper than ${cap} records` }, {}, 400);
    const matching = Array.from({ length: total }, (_, i) => record(i)).filter((r) => Date.parse(r.updated_at) >= start);
    json(res, { data: matching.slice(offset, offset + limit) });
  };
}

/** A stream with a DatetimeBasedCursor (start sent as `start`), offset pagination by 2 and the given reset. */
function cursorStream(
  base: string,
  paginationReset: Record<string, unknown> | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return manifestWith(
    {
      requester: { type: 'HttpRequester', url: `${base}/items`, ...(extra.requester as object) },
      record_selector: {
        type: 'RecordSelector',
        extractor: { type: 'DpathExtractor', field_path: ['data'] },
        ...(extra.record_selector as object),
      },
      paginator: {
        type: 'DefaultPaginator',
        page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
        pagination_strategy: { type: 'OffsetIncrement', page_size: 2 },
      },
      ...(paginationReset ? { pagination_reset: paginationReset } : {}),
    },
    {
      incremental_sync: {
        type: 'DatetimeBasedCursor',
        cursor_field: 'updated_at',
        datetime_format: '%Y-%m-%dT%H:%M:%SZ',
        start_datetime: '2024-01-01T00:00:00Z',
        end_datetime: '2024-02-01T00:00:00Z',
        start_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'start' },
      },
    },
  );
}

const ids = (r: StreamRead) => r.slices.flatMap((s) => s.pages.flatMap((p) => p.records.map((x) => x.id as number)));
const errors = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR');
const infos = (r: StreamRead) => r.logs.filter((l) => l.level === 'INFO').map((l) => l.message);

test('RESET: an error-handler RESET_PAGINATION restarts the slice once, then the read succeeds; the pages stay in one slice', async () => {
  let refused = false;
  const api = await startLoopback((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 0);
    if (page === 1 && !refused) {
      refused = true;
      return json(res, { error: 'cursor expired' }, {}, 409);
    }
    json(res, { data: page < 3 ? [{ id: page * 2 + 1 }, { id: page * 2 + 2 }] : [] });
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        error_handler: {
          type: 'DefaultErrorHandler',
          response_filters: [{ type: 'HttpResponseFilter', action: 'RESET_PAGINATION', http_codes: [409] }],
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 2 },
      },
      pagination_reset: { type: 'PaginationReset', action: 'RESET' },
    });
    const r = await testRead(m, {}, 'items', { maxPagesPerSlice: 10 });
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?page=1', '/items', '/items?page=1', '/items?page=2', '/items?page=3'],
    );
    assert.deepEqual(errors(r), []);
    assert.equal(r.slices.length, 1);
    assert.equal(r.slices[0].pages.length, 6);
    assert.deepEqual(ids(r), [1, 2, 1, 2, 3, 4, 5, 6]);
    assert.ok(!r.logs.some((l) => /not applied/.test(l.message)));
    const reset = infos(r).find((m) => m.includes('pagination reset'));
    assert.match(
      reset ?? '',
      /Stream 'items': pagination reset \(RESET\) because the error handler answered RESET_PAGINATION to HTTP 409 from http:\/\/127\.0\.0\.1:\d+\/items\?…; reading the same slice again from its first page\./,
    );
  } finally {
    await api.close();
  }
});

test('RESET: a second reset of the same slice ends the read with a system error', async () => {
  const api = await startLoopback((_req, res) => json(res, { error: 'cursor expired' }, {}, 409));
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        error_handler: {
          type: 'DefaultErrorHandler',
          response_filters: [{ type: 'HttpResponseFilter', action: 'RESET_PAGINATION', http_codes: [409] }],
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      pagination_reset: { type: 'PaginationReset', action: 'RESET' },
    });
    const r = await testRead(m, {}, 'items');
    assert.equal(api.requests.length, 2);
    assert.equal(r.slices[0].pages.length, 2);
    assert.match(errors(r)[0]?.message ?? '', /pagination was reset twice for the same slice .*RESET restarts a slice only once/);
  } finally {
    await api.close();
  }
});

test('SPLIT_USING_CURSOR with limits reads an API capped at 6 records per query completely; the start moves to the last cursor value', async () => {
  const api = await startLoopback(cappedApi(10, 6));
  try {
    const m = cursorStream(api.base, {
      type: 'PaginationReset',
      action: 'SPLIT_USING_CURSOR',
      limits: { type: 'PaginationResetLimits', number_of_records: 6 },
    });
    const r = await testRead(m, {}, 'items', { maxPagesPerSlice: 10 });
    assert.deepEqual(errors(r), []);
    const s0 = 'start=2024-01-01T00%3A00%3A00Z';
    const s5 = 'start=2024-01-01T05%3A00%3A00Z';
    assert.deepEqual(
      api.requests.map((q) => q.url),
      [
        `/items?limit=2&${s0}`,
        `/items?offset=2&limit=2&${s0}`,
        `/items?offset=4&limit=2&${s0}`,
        `/items?limit=2&${s5}`,
        `/items?offset=2&limit=2&${s5}`,
        `/items?offset=4&limit=2&${s5}`,
      ],
    );
    // The record at the new start is read again: the CDK's split is inclusive.
    assert.deepEqual(ids(r), [1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10]);
    assert.equal(r.slices.length, 1);
    assert.deepEqual(r.slices[0].slice_descriptor, { start_time: '2024-01-01T00:00:00Z', end_time: '2024-02-01T00:00:00Z' });
    assert.deepEqual(
      infos(r).filter((m) => m.includes('pagination reset')),
      [
        'Stream \'items\': pagination reset (SPLIT_USING_CURSOR) because this attempt read 6 records (pagination_reset.limits.number_of_records); reading again from the first page with start_time "2024-01-01T05:00:00Z" (was "2024-01-01T00:00:00Z"), the last \'updated_at\' read.',
      ],
    );
  } finally {
    await api.close();
  }
});

test('SPLIT_USING_CURSOR triggered by the error handler: a 400 past the cap narrows the slice instead of failing', async () => {
  const api = await startLoopback(cappedApi(9, 4));
  try {
    const m = cursorStream(
      api.base,
      { type: 'PaginationReset', action: 'SPLIT_USING_CURSOR' },
      {
        requester: {
          error_handler: {
            type: 'DefaultErrorHandler',
            response_filters: [{ type: 'HttpResponseFilter', action: 'RESET_PAGINATION', error_message_contains: 'cannot page deeper' }],
          },
        },
      },
    );
    const r = await testRead(m, {}, 'items', { maxPagesPerSlice: 10, maxRecords: 1000 });
    assert.deepEqual(errors(r), []);
    assert.deepEqual([...new Set(ids(r))], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const starts = api.requests.map((q) => new URL(q.url, 'http://x').searchParams.get('start'));
    assert.deepEqual([...new Set(starts)], ['2024-01-01T00:00:00Z', '2024-01-01T03:00:00Z', '2024-01-01T06:00:00Z']);
    assert.ok(
      api.requests.some((q) => q.url.includes('offset=4')),
      'the refused request is part of the read',
    );
  } finally {
    await api.close();
  }
});

test('SPLIT_USING_CURSOR that cannot narrow the slice (the API ignores the start) ends with a system error', async () => {
  const api = await startLoopback(cappedApi(10, 6, { ignoreStart: true }));
  try {
    const m = cursorStream(api.base, {
      type: 'PaginationReset',
      action: 'SPLIT_USING_CURSOR',
      limits: { type: 'PaginationResetLimits', number_of_records: 6 },
    });
    const r = await testRead(m, {}, 'items', { maxPagesPerSlice: 10 });
    assert.equal(api.requests.length, 6);
    assert.match(
      errors(r)[0]?.message ?? '',
      /cannot narrow the slice: the last 'updated_at' read \("2024-01-01T05:00:00Z"\) does not move the slice start past "2024-01-01T05:00:00Z"/,
    );
  } finally {
    await api.close();
  }
});

test('pagination_reset build errors: limits with a record_filter, SPLIT_USING_CURSOR without a cursor, an unknown action', async () => {
  const reset = { type: 'PaginationReset', action: 'SPLIT_USING_CURSOR', limits: { type: 'PaginationResetLimits', number_of_records: 6 } };
  const filtered = cursorStream('http://127.0.0.1:9', reset, {
    record_selector: { record_filter: { type: 'RecordFilter', condition: '{{ record.id > 0 }}' } },
  });
  await assert.rejects(
    testRead(filtered, {}, 'items'),
    (e: RuntimeError) =>
      e.failureType === 'config_error' && /limits cannot be combined with record_selector\.record_filter/.test(e.message),
  );
  const noCursor = manifestWith({
    requester: { type: 'HttpRequester', url: 'http://127.0.0.1:9/items' },
    pagination_reset: { type: 'PaginationReset', action: 'SPLIT_USING_CURSOR' },
  });
  await assert.rejects(
    testRead(noCursor, {}, 'items'),
    (e: RuntimeError) => e.failureType === 'config_error' && /SPLIT_USING_CURSOR .* the stream has no incremental_sync/.test(e.message),
  );
  const unknown = manifestWith({
    requester: { type: 'HttpRequester', url: 'http://127.0.0.1:9/items' },
    pagination_reset: { type: 'PaginationReset', action: 'SPLIT' },
  });
  await assert.rejects(
    testRead(unknown, {}, 'items'),
    (e: RuntimeError) => e.failureType === 'config_error' && /must be SPLIT_USING_CURSOR or RESET, got "SPLIT"/.test(e.message),
  );
});

test('the test-read page cap applies per attempt: it restarts with the initial token of a reset', async () => {
  let refused = false;
  const api = await startLoopback((req, res) => {
    const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset') ?? 0);
    if (offset === 2 && !refused) {
      refused = true;
      return json(res, { error: 'try again from the start' }, {}, 409);
    }
    json(res, { data: [{ id: offset + 1 }, { id: offset + 2 }] });
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        error_handler: {
          type: 'DefaultErrorHandler',
          response_filters: [{ type: 'HttpResponseFilter', action: 'RESET_PAGINATION', http_codes: [409] }],
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
        pagination_strategy: { type: 'OffsetIncrement', page_size: 2 },
      },
    });
    const r = await testRead(m, {}, 'items', { maxPagesPerSlice: 3 });
    // Attempt 1: two requests (the second refused); attempt 2: three pages, then the cap stops it.
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?offset=2', '/items', '/items?offset=2', '/items?offset=4'],
    );
    assert.deepEqual(errors(r), []);
    assert.equal(r.slices[0].pages.length, 5);
    assert.equal(r.test_read_limit_reached, true);
  } finally {
    await api.close();
  }
});

test('failed resets are system errors: a second RESET, a split without a cursor value, a split that does not move', () => {
  const logs: string[] = [];
  const rc = { config: {}, env: {}, log: (_level: string, message: string) => logs.push(message) } as unknown as ReadContext;
  const slice = { partition: {}, cursor_slice: { start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-02T00:00:00Z' } };
  const isSystemError = (pattern: RegExp) => (e: RuntimeError) => e.failureType === 'system_error' && pattern.test(e.message);

  const once = createPaginationReset({}, 'items', null, rc).forSlice(slice);
  assert.equal(once.reset('test'), slice);
  assert.throws(() => once.reset('test'), isSystemError(/pagination was reset twice/));

  const cursor = createDatetimeCursor(
    {
      type: 'DatetimeBasedCursor',
      cursor_field: 'updated_at',
      datetime_format: '%Y-%m-%dT%H:%M:%SZ',
      start_datetime: '2024-01-01T00:00:00Z',
    },
    rc,
  );
  const split = createPaginationReset(
    { pagination_reset: { type: 'PaginationReset', action: 'SPLIT_USING_CURSOR', limits: { number_of_records: 2 } } },
    'items',
    cursor,
    rc,
  ).forSlice(slice);
  assert.throws(() => split.reset('test'), isSystemError(/no record with a value in 'updated_at' was read/));
  split.observe([{ updated_at: '2024-01-01T03:00:00Z' }, { updated_at: '2024-01-01T04:00:00Z' }]);
  assert.equal(split.limitReached(), true);
  assert.deepEqual(split.reset('test').cursor_slice, { start_time: '2024-01-01T04:00:00Z', end_time: '2024-01-02T00:00:00Z' });
  assert.equal(split.limitReached(), false, 'the record counter restarts with the attempt');
  split.observe([{ updated_at: '2024-01-01T04:00:00Z' }]);
  assert.throws(() => split.reset('test'), isSystemError(/does not move the slice start past "2024-01-01T04:00:00Z"/));
  split.observe([{ updated_at: 'yesterday' }]);
  assert.throws(() => split.reset('test'), isSystemError(/cannot parse "yesterday"/));
  assert.equal(logs.length, 2);
});

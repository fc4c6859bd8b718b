// Incremental sync in a test read, as the reference's concurrent cursor does it (reference-incremental.md
// §2–§6 and its worked examples W1–W8): the exact request sequence, slices and state of each case,
// read through testRead against a loopback API with a frozen clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead, type StreamRead } from '../../../server/src/runtime';
import { json, manifestWith, startLoopback, type Recorded } from './loopback';
import type { ServerResponse } from 'node:http';

type Obj = Record<string, unknown>;
const NOW = new Date('2024-03-01T12:00:00.123Z');
const env = (extra: Obj = {}) => ({ now: () => NOW, ...extra });

/** A stream on `${base}/items` with the given DatetimeBasedCursor fields and retriever additions. */
function stream(base: string, cursor: Obj, retriever: Obj = {}, extra: Obj = {}): Obj {
  return manifestWith(
    {
      requester: { type: 'HttpRequester', url: `${base}/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      ...retriever,
    },
    { incremental_sync: { type: 'DatetimeBasedCursor', cursor_field: 'updated_at', ...cursor }, ...extra },
  );
}

const query = (name: string, field = name) => ({ type: 'RequestOption', inject_into: 'request_parameter', field_name: field });
const paths = (reqs: Recorded[]) => reqs.map((r) => r.url);
const descriptors = (r: StreamRead) => r.slices.map((s) => s.slice_descriptor);
const states = (r: StreamRead) =>
  r.slices.map((s) => (s.state[0] as { stream: { stream_state: Obj } } | undefined)?.stream.stream_state ?? null);
const errors = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
const ids = (r: StreamRead) => r.slices.flatMap((s) => s.pages.flatMap((p) => p.records.map((x) => x.id)));

async function withApi(
  handler: (req: Recorded, res: ServerResponse) => void,
  body: (base: string, requests: Recorded[]) => Promise<void>,
): Promise<void> {
  const api = await startLoopback(handler);
  try {
    await body(api.base, api.requests);
  } finally {
    await api.close();
  }
}

const empty = (_req: Recorded, res: ServerResponse) => json(res, { data: [] });

const daily = {
  datetime_format: '%Y-%m-%d',
  start_datetime: '2024-01-01',
  end_datetime: '2024-01-03',
  step: 'P1D',
  cursor_granularity: 'P1D',
  cursor_field: 'date',
  start_time_option: query('from'),
  end_time_option: query('to'),
};

test('W1 date windows: the last window runs to the end date, and each slice shows the state after it', async () => {
  await withApi(empty, async (base, requests) => {
    const r = await testRead(stream(base, daily), {}, 'items', {}, env());
    assert.deepEqual(errors(r), []);
    assert.deepEqual(paths(requests), ['/items?from=2024-01-01&to=2024-01-01', '/items?from=2024-01-02&to=2024-01-03']);
    assert.deepEqual(descriptors(r), [
      { start_time: '2024-01-01', end_time: '2024-01-01' },
      { start_time: '2024-01-02', end_time: '2024-01-03' },
    ]);
    assert.deepEqual(states(r), [{ date: '2024-01-01' }, { date: '2024-01-01' }]);
    // The Builder's dataclasses.asdict form of the AirbyteStateMessage: unset protocol fields are null;
    // the entrypoint sets sourceStats to the records since the previous state message.
    assert.deepEqual(r.slices[0].state, [
      {
        type: 'STREAM',
        stream: { stream_descriptor: { name: 'items', namespace: null }, stream_state: { date: '2024-01-01' } },
        global_: null,
        data: null,
        sourceStats: { recordCount: 0 },
        destinationStats: null,
      },
    ]);
    assert.equal(r.test_read_limit_reached, false);
  });
});

test('W1 date windows: a range of one step is one window; start == end or end < start makes no request at all', async () => {
  await withApi(empty, async (base, requests) => {
    const one = await testRead(stream(base, { ...daily, end_datetime: '2024-01-02' }), {}, 'items', {}, env());
    assert.deepEqual(descriptors(one), [{ start_time: '2024-01-01', end_time: '2024-01-02' }]);
    assert.deepEqual(paths(requests), ['/items?from=2024-01-01&to=2024-01-02']);
    for (const end of ['2024-01-01', '2023-12-31']) {
      const none = await testRead(stream(base, { ...daily, end_datetime: end }), {}, 'items', {}, env());
      assert.deepEqual(none.slices, [], `end ${end}`);
      assert.deepEqual(errors(none), []);
    }
    assert.equal(requests.length, 1, 'no request for an empty range');
  });
});

test('W2 weekly epoch seconds: a step boundary adds no extra window; cursor values and state are strings', async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const since = new URL(req.url, 'http://x').searchParams.get('since');
    json(res, {
      data:
        since === '1704067200'
          ? [
              { id: 1, updated_at: 1704100000 },
              { id: 2, updated_at: 1704090000 },
            ]
          : [],
    });
  };
  await withApi(handler, async (base, requests) => {
    const cursor = {
      datetime_format: '%s',
      start_datetime: '1704067200',
      end_datetime: '1705276800',
      step: 'P1W',
      cursor_granularity: 'PT1S',
      partition_field_start: 'since',
      partition_field_end: 'until',
      start_time_option: query('since'),
      end_time_option: query('until'),
    };
    const r = await testRead(stream(base, cursor), {}, 'items', {}, env());
    assert.deepEqual(paths(requests), ['/items?since=1704067200&until=1704671999', '/items?since=1704672000&until=1705276800']);
    assert.deepEqual(states(r), [{ updated_at: '1704100000' }, { updated_at: '1704100000' }]);
    const shorter = await testRead(stream(base, { ...cursor, end_datetime: '1704800000' }), {}, 'items', {}, env());
    assert.deepEqual(descriptors(shorter)[1], { since: '1704672000', until: '1704800000' });
  });
});

test('W3 sub-second formats: PT0.000001S with %f keeps microseconds; %_ms, %ms and %s_as_float windows', async () => {
  const cases: [string, string, string, string, string][] = [
    ['%Y-%m-%dT%H:%M:%S.%fZ', 'PT0.000001S', '2024-01-01T00:00:00.000000Z', '2024-01-01T23:59:59.999999Z', '2024-01-03T00:00:00.000000Z'],
    ['%Y-%m-%dT%H:%M:%S.%_msZ', 'PT0.001S', '2024-01-01T00:00:00.000Z', '2024-01-01T23:59:59.999Z', '2024-01-03T00:00:00.000Z'],
    ['%ms', 'PT0.001S', '1704067200000', '1704153599999', '1704240000000'],
    ['%s_as_float', 'PT1S', '1704067200.0', '1704153599.0', '1704240000.0'],
  ];
  await withApi(empty, async (base) => {
    for (const [format, granularity, start, firstEnd, end] of cases) {
      const r = await testRead(
        stream(base, { datetime_format: format, start_datetime: start, end_datetime: end, step: 'P1D', cursor_granularity: granularity }),
        {},
        'items',
        {},
        env(),
      );
      assert.deepEqual(errors(r), [], format);
      assert.equal(r.slices.length, 2, format);
      assert.deepEqual(r.slices[0].slice_descriptor, { start_time: start, end_time: firstEnd }, format);
      assert.equal((r.slices[1].slice_descriptor as Obj).end_time, end, format);
    }
  });
});

test('microseconds of a record survive into the state; a value between windows does not fall in a 999 µs gap', async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const from = new URL(req.url, 'http://x').searchParams.get('from');
    json(res, { data: from === '2024-01-01T00:00:00.000000Z' ? [{ id: 1, updated_at: '2024-01-01T23:59:59.999999Z' }] : [] });
  };
  await withApi(handler, async (base, requests) => {
    const cursor = {
      datetime_format: '%Y-%m-%dT%H:%M:%S.%fZ',
      start_datetime: '2024-01-01T00:00:00.000000Z',
      end_datetime: '2024-01-03T00:00:00.000000Z',
      step: 'P1D',
      cursor_granularity: 'PT0.000001S',
      start_time_option: query('from'),
      end_time_option: query('to'),
    };
    const r = await testRead(stream(base, cursor), {}, 'items', {}, env());
    assert.deepEqual(
      paths(requests).map((u) => decodeURIComponent(u)),
      [
        '/items?from=2024-01-01T00:00:00.000000Z&to=2024-01-01T23:59:59.999999Z',
        '/items?from=2024-01-02T00:00:00.000000Z&to=2024-01-03T00:00:00.000000Z',
      ],
    );
    assert.deepEqual(states(r), [{ updated_at: '2024-01-01T23:59:59.999999Z' }, { updated_at: '2024-01-01T23:59:59.999999Z' }]);
  });
});

const hourly = {
  datetime_format: '%Y-%m-%dT%H:%M:%SZ',
  start_datetime: '2024-01-01T00:00:00Z',
  end_datetime: '2024-01-04T00:00:00Z',
  step: 'P1D',
  cursor_granularity: 'PT1S',
  start_time_option: query('from'),
};

test('W4 state: the highest cursor value read; empty windows do not move it', async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const from = new URL(req.url, 'http://x').searchParams.get('from');
    if (from === '2024-01-01T00:00:00Z')
      return json(res, {
        data: [
          { id: 1, updated_at: '2024-01-01T05:00:00Z' },
          { id: 2, updated_at: '2024-01-01T03:00:00Z' },
        ],
      });
    if (from === '2024-01-03T00:00:00Z') return json(res, { data: [{ id: 3, updated_at: '2024-01-03T07:00:00Z' }] });
    json(res, { data: [] });
  };
  await withApi(handler, async (base) => {
    const r = await testRead(stream(base, hourly), {}, 'items', {}, env());
    assert.deepEqual(descriptors(r), [
      { start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-01T23:59:59Z' },
      { start_time: '2024-01-02T00:00:00Z', end_time: '2024-01-02T23:59:59Z' },
      { start_time: '2024-01-03T00:00:00Z', end_time: '2024-01-04T00:00:00Z' },
    ]);
    assert.deepEqual(states(r), [
      { updated_at: '2024-01-01T05:00:00Z' },
      { updated_at: '2024-01-01T05:00:00Z' },
      { updated_at: '2024-01-03T07:00:00Z' },
    ]);
  });
});

test('W4 input state and lookback_window: windows start at state − lookback; a state before the start is ignored', async () => {
  await withApi(empty, async (base, requests) => {
    const input = (v: string) =>
      env({ state: [{ type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: { updated_at: v } } }] });
    const r = await testRead(stream(base, { ...hourly, lookback_window: 'P1D' }), {}, 'items', {}, input('2024-01-02T12:00:00Z'));
    assert.deepEqual(descriptors(r), [
      { start_time: '2024-01-01T12:00:00Z', end_time: '2024-01-02T11:59:59Z' },
      { start_time: '2024-01-02T12:00:00Z', end_time: '2024-01-03T11:59:59Z' },
      { start_time: '2024-01-03T12:00:00Z', end_time: '2024-01-04T00:00:00Z' },
    ]);
    assert.deepEqual(states(r), [
      { updated_at: '2024-01-02T12:00:00Z' },
      { updated_at: '2024-01-02T12:00:00Z' },
      { updated_at: '2024-01-02T12:00:00Z' },
    ]);
    const old = await testRead(stream(base, { ...hourly, lookback_window: 'P1D' }), {}, 'items', {}, input('2023-12-01T12:00:00Z'));
    assert.equal((old.slices[0].slice_descriptor as Obj).start_time, '2024-01-01T00:00:00Z');
    const none = await testRead(stream(base, { ...hourly, lookback_window: 'P1D' }), {}, 'items', {}, env());
    assert.equal((none.slices[0].slice_descriptor as Obj).start_time, '2024-01-01T00:00:00Z', 'without state the lookback has no effect');
    assert.equal(requests.length, 9);
  });
});

test('min/max datetimes bound start and end; no end_datetime means now (the frozen clock, with its milliseconds)', async () => {
  await withApi(empty, async (base) => {
    const cursor = {
      datetime_format: '%Y-%m-%dT%H:%M:%S.%fZ',
      start_datetime: { type: 'MinMaxDatetime', datetime: '2020-01-01T00:00:00.000000Z', min_datetime: '2024-02-28T00:00:00.000000Z' },
    };
    const r = await testRead(stream(base, cursor), {}, 'items', {}, env());
    assert.deepEqual(descriptors(r), [{ start_time: '2024-02-28T00:00:00.000000Z', end_time: '2024-03-01T12:00:00.123000Z' }]);
    const capped = await testRead(
      stream(base, {
        ...cursor,
        end_datetime: { type: 'MinMaxDatetime', datetime: '2030-01-01T00:00:00.000000Z', max_datetime: '2024-02-29T00:00:00.000000Z' },
      }),
      {},
      'items',
      {},
      env(),
    );
    assert.deepEqual(descriptors(capped), [{ start_time: '2024-02-28T00:00:00.000000Z', end_time: '2024-02-29T00:00:00.000000Z' }]);
  });
});

test('a start with a UTC offset keeps it in its windows; the end from a UTC value prints +0000', async () => {
  await withApi(empty, async (base) => {
    const r = await testRead(
      stream(base, {
        datetime_format: '%Y-%m-%dT%H:%M:%S%z',
        start_datetime: '2024-01-01T00:00:00+0200',
        end_datetime: '2024-01-02T12:00:00+0000',
        step: 'P1D',
        cursor_granularity: 'PT1S',
      }),
      {},
      'items',
      {},
      env(),
    );
    assert.deepEqual(descriptors(r), [
      { start_time: '2024-01-01T00:00:00+0200', end_time: '2024-01-01T23:59:59+0200' },
      { start_time: '2024-01-02T00:00:00+0200', end_time: '2024-01-02T12:00:00+0000' },
    ]);
  });
});

test('W8 clamping: DAY skips every other day (reference quirk), MONTH and WEEK align windows', async () => {
  await withApi(empty, async (base) => {
    const day = await testRead(
      stream(base, { ...hourly, end_datetime: '2024-01-08T12:00:00Z', clamping: { target: 'DAY' } }),
      {},
      'items',
      {},
      env(),
    );
    assert.deepEqual(descriptors(day), [
      { start_time: '2024-01-02T00:00:00Z', end_time: '2024-01-02T23:59:59Z' },
      { start_time: '2024-01-04T00:00:00Z', end_time: '2024-01-04T23:59:59Z' },
      { start_time: '2024-01-06T00:00:00Z', end_time: '2024-01-06T23:59:59Z' },
    ]);
    // The windows leave gaps, so the state stays at the start.
    assert.deepEqual(states(day)[2], { updated_at: '2024-01-01T00:00:00Z' });
    const month = await testRead(
      stream(base, {
        ...hourly,
        start_datetime: '2024-01-15T00:00:00Z',
        end_datetime: '2024-04-10T00:00:00Z',
        step: 'P31D',
        clamping: { target: 'MONTH' },
      }),
      {},
      'items',
      {},
      env(),
    );
    assert.deepEqual(descriptors(month), [
      { start_time: '2024-02-01T00:00:00Z', end_time: '2024-02-29T23:59:59Z' },
      { start_time: '2024-03-01T00:00:00Z', end_time: '2024-03-31T23:59:59Z' },
    ]);
    const week = await testRead(
      stream(base, {
        ...hourly,
        start_datetime: '2024-01-03T00:00:00Z',
        end_datetime: '2024-01-25T00:00:00Z',
        step: 'P1W',
        cursor_granularity: 'P1D',
        clamping: { target: 'WEEK', target_details: { weekday: 'MONDAY' } },
      }),
      {},
      'items',
      {},
      env(),
    );
    assert.deepEqual(descriptors(week), [
      { start_time: '2024-01-08T00:00:00Z', end_time: '2024-01-14T00:00:00Z' },
      { start_time: '2024-01-15T00:00:00Z', end_time: '2024-01-21T00:00:00Z' },
    ]);
    await assert.rejects(
      testRead(stream(base, { ...hourly, clamping: { target: 'WEEK' } }), {}, 'items', {}, env()),
      /Given WEEK clamping, weekday needs to be provided as target_details/,
    );
    await assert.rejects(
      testRead(stream(base, { ...hourly, clamping: { target: 'YEAR' } }), {}, 'items', {}, env()),
      /Invalid clamping target YEAR, expected DAY, WEEK, MONTH/,
    );
  });
});

/** Pages of a newest-first API: `?cursor=n` selects page n of `pages` (record ids = day of month). */
function newestFirst(pages: number[][]) {
  return (req: Recorded, res: ServerResponse) => {
    const n = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
    const data = (pages[n] ?? []).map((d) => ({ id: d, updated_at: `2024-01-${String(d).padStart(2, '0')}T00:00:00Z` }));
    json(res, { data, next: n + 1 < pages.length ? n + 1 : null });
  };
}
const cursorPaginator = {
  paginator: {
    type: 'DefaultPaginator',
    page_token_option: query('cursor'),
    pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}', stop_condition: '{{ response.next is none }}' },
  },
};
const feedWindow = { datetime_format: '%Y-%m-%dT%H:%M:%SZ', start_datetime: '2024-01-10T00:00:00Z', end_datetime: '2024-01-20T00:00:00Z' };

test('W5 is_data_feed: pagination stops at a page whose last record is older than the start; out-of-range records are dropped', async () => {
  await withApi(
    newestFirst([
      [21, 15, 12],
      [11, 8, 5],
      [4, 3],
    ]),
    async (base, requests) => {
      const r = await testRead(stream(base, { ...feedWindow, is_data_feed: true }, cursorPaginator), {}, 'items', {}, env());
      assert.deepEqual(errors(r), []);
      assert.deepEqual(paths(requests), ['/items', '/items?cursor=1']);
      assert.deepEqual(
        r.slices[0].pages.map((p) => p.records.map((x) => x.id)),
        [[15, 12], [11]],
      );
      assert.deepEqual(states(r), [{ updated_at: '2024-01-15T00:00:00Z' }]);
    },
  );
  // A future-dated record last on a page also stops pagination.
  await withApi(newestFirst([[15, 21], [11]]), async (base, requests) => {
    const r = await testRead(stream(base, { ...feedWindow, is_data_feed: true }, cursorPaginator), {}, 'items', {}, env());
    assert.deepEqual(paths(requests), ['/items']);
    assert.deepEqual(ids(r), [15]);
  });
});

test('is_client_side_incremental: records outside [start, end] are dropped before the paginator sees them; transformations run first', async () => {
  await withApi(
    newestFirst([
      [21, 15, 12],
      [11, 8, 5],
    ]),
    async (base, requests) => {
      const r = await testRead(stream(base, { ...feedWindow, is_client_side_incremental: true }, cursorPaginator), {}, 'items', {}, env());
      assert.deepEqual(paths(requests), ['/items', '/items?cursor=1'], 'a client-side filter does not stop pagination');
      assert.deepEqual(
        r.slices[0].pages.map((p) => p.records.map((x) => x.id)),
        [[15, 12], [11]],
      );
      // The cursor field is read from the transformed record: a transformation that moves it forward keeps more.
      const transformed = await testRead(
        stream(base, { ...feedWindow, is_client_side_incremental: true }, cursorPaginator, {
          transformations: [
            { type: 'AddFields', fields: [{ type: 'AddedFieldDefinition', path: ['updated_at'], value: '2024-01-11T00:00:00Z' }] },
          ],
        }),
        {},
        'items',
        {},
        env(),
      );
      assert.deepEqual(ids(transformed), [21, 15, 12, 11, 8, 5]);
    },
  );
});

test('W7 per-partition cursor: partition-major windows; the state after the first slice, then the final state with the global value', async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const region = q.get('region');
    const first = q.get('from') === '2024-01-01T00:00:00Z';
    json(res, { data: first ? [{ id: `${region}1`, updated_at: region === 'eu' ? '2024-01-01T05:00:00Z' : '2024-01-01T09:00:00Z' }] : [] });
  };
  await withApi(handler, async (base, requests) => {
    const m = stream(base, hourly, {
      partition_router: { type: 'ListPartitionRouter', values: ['eu', 'us'], cursor_field: 'region', request_option: query('region') },
    });
    const r = await testRead(m, {}, 'items', {}, env());
    assert.deepEqual(errors(r), []);
    assert.deepEqual(paths(requests), [
      '/items?region=eu&from=2024-01-01T00%3A00%3A00Z',
      '/items?region=eu&from=2024-01-02T00%3A00%3A00Z',
      '/items?region=eu&from=2024-01-03T00%3A00%3A00Z',
      '/items?region=us&from=2024-01-01T00%3A00%3A00Z',
      '/items?region=us&from=2024-01-02T00%3A00%3A00Z',
    ]);
    assert.deepEqual(descriptors(r)[3], { region: 'us', start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-01T23:59:59Z' });
    const a = {
      use_global_cursor: false,
      states: [
        { partition: { region: 'eu' }, cursor: { updated_at: '2024-01-01T05:00:00Z' } },
        { partition: { region: 'us' }, cursor: { updated_at: '2024-01-01T00:00:00Z' } },
      ],
      lookback_window: 0,
    };
    const got = states(r);
    assert.deepEqual(got.slice(0, 4), [a, a, a, a]);
    const b = got[4] as Obj;
    assert.deepEqual(b.states, [a.states[0], { partition: { region: 'us' }, cursor: { updated_at: '2024-01-01T09:00:00Z' } }]);
    assert.deepEqual(b.state, { updated_at: '2024-01-01T09:00:00Z' });
    assert.equal(b.use_global_cursor, false);
    assert.ok(Number(b.lookback_window) >= 1, 'the final lookback is the read duration in whole seconds');
    assert.equal(r.test_read_limit_reached, true);
  });
});

test('W7 per-partition input state: known partitions resume from their cursor, new ones from the global state minus its lookback', async () => {
  await withApi(empty, async (base) => {
    const m = stream(base, hourly, { partition_router: { type: 'ListPartitionRouter', values: ['eu', 'us'], cursor_field: 'region' } });
    const input = {
      states: [{ partition: { region: 'eu' }, cursor: { updated_at: '2024-01-02T00:00:00Z' } }],
      state: { updated_at: '2024-01-03T00:00:00Z' },
      lookback_window: 3600,
    };
    const r = await testRead(
      m,
      {},
      'items',
      {},
      env({ state: [{ type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: input } }] }),
    );
    assert.deepEqual(
      descriptors(r).map((d) => [(d as Obj).region, (d as Obj).start_time]),
      [
        ['eu', '2024-01-02T00:00:00Z'],
        ['eu', '2024-01-03T00:00:00Z'],
        ['us', '2024-01-02T23:00:00Z'],
        ['us', '2024-01-03T23:00:00Z'],
      ],
    );
    const last = states(r)[3] as Obj;
    assert.deepEqual(last.state, { updated_at: '2024-01-03T00:00:00Z' }, 'no record read: the input global state stays');
    assert.equal(last.lookback_window, 3600);
  });
});

test('global_substream_cursor: one global value; no intermediate state without a parent state, the final one at the end', async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const region = new URL(req.url, 'http://x').searchParams.get('region');
    json(res, { data: [{ id: region, updated_at: region === 'eu' ? '2024-01-02T05:00:00Z' : '2024-01-01T08:00:00Z' }] });
  };
  await withApi(handler, async (base) => {
    const m = stream(
      base,
      { ...hourly, step: undefined, cursor_granularity: undefined, global_substream_cursor: true },
      { partition_router: { type: 'ListPartitionRouter', values: ['eu', 'us'], cursor_field: 'region', request_option: query('region') } },
    );
    const r = await testRead(m, {}, 'items', {}, env());
    assert.deepEqual(errors(r), []);
    assert.deepEqual(r.slices[0].state, []);
    const final = states(r)[1] as Obj;
    assert.equal(final.use_global_cursor, true);
    assert.equal(final.states, undefined);
    assert.deepEqual(final.state, { updated_at: '2024-01-02T05:00:00Z' });
  });
});

test('a stream without incremental_sync: no state until the end, then __ab_no_cursor_state_message on the last slice', async () => {
  await withApi(empty, async (base) => {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${base}/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      partition_router: { type: 'ListPartitionRouter', values: ['a', 'b'], cursor_field: 'k' },
    });
    const r = await testRead(m, {}, 'items', {}, env());
    assert.deepEqual(states(r), [null, { __ab_no_cursor_state_message: true }]);
  });
});

test("a step without cursor_granularity is the reference's build error", async () => {
  await assert.rejects(
    testRead(stream('http://127.0.0.1:9', { ...hourly, cursor_granularity: undefined }), {}, 'items', {}, env()),
    /If step is defined, cursor_granularity should be as well and vice-versa/,
  );
});

test('the CLI takes the input state with --state (a bare stream state or a list of state messages)', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { PassThrough } = await import('node:stream');
  const { readCommand } = await import('../../../server/src/runtime/cli/readCommand');
  const dir = mkdtempSync(join(tmpdir(), 'inc-state-'));
  try {
    await withApi(empty, async (base) => {
      const file = (name: string, value: unknown) => {
        const p = join(dir, name);
        writeFileSync(p, JSON.stringify(value));
        return p;
      };
      const manifest = file('m.yaml', stream(base, hourly));
      const run = async (state: unknown) => {
        const out = Object.assign(new PassThrough(), { text: '' });
        out.on('data', (d) => (out.text += String(d)));
        const code = await readCommand(
          [manifest, '--stream', 'items', '--config', file('c.json', {}), '--state', file('s.json', state), '--format', 'json'],
          out,
          new PassThrough(),
        );
        return { code, read: JSON.parse(out.text) as StreamRead };
      };
      const bare = await run({ updated_at: '2024-01-03T00:00:00Z' });
      assert.equal(bare.code, 0);
      assert.deepEqual(descriptors(bare.read), [{ start_time: '2024-01-03T00:00:00Z', end_time: '2024-01-04T00:00:00Z' }]);
      const listed = await run([
        { type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: { updated_at: '2024-01-02T00:00:00Z' } } },
      ]);
      assert.equal(listed.read.slices.length, 2);
      const { prettySummary } = await import('../../../server/src/runtime/cli/readCommand');
      assert.match(prettySummary(listed.read, 'items'), /\nState after the read: \{"updated_at":"2024-01-02T00:00:00Z"\}\n/);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a start_datetime only the cursor formats can read is read with a WARN quoting the CDK's error", async () => {
  await withApi(empty, async (base) => {
    const cursor = {
      datetime_format: '%s',
      cursor_datetime_formats: ['%s'],
      end_datetime: '1651536000',
      start_datetime: { type: 'MinMaxDatetime', datetime: '1651363200', datetime_format: '%Y-%m-%dT%H:%M:%SZ' },
    };
    const r = await testRead(stream(base, cursor), {}, 'items', {}, env());
    assert.deepEqual(descriptors(r), [{ start_time: '1651363200', end_time: '1651536000' }]);
    const warn = r.logs.find((l) => l.level === 'WARN')?.message ?? '';
    assert.match(warn, /time data '1651363200' does not match format '%Y-%m-%dT%H:%M:%SZ'. The Airbyte CDK fails the read/);
  });
});

test('StateDelegatingStream reads its full-refresh stream without state and its incremental stream with one', async () => {
  await withApi(empty, async (base, requests) => {
    const inner = (path: string, incremental: boolean) => ({
      type: 'DeclarativeStream',
      name: 'items',
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${base}/${path}` },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
      ...(incremental ? { incremental_sync: { type: 'DatetimeBasedCursor', cursor_field: 'updated_at', ...hourly } } : {}),
    });
    const m = {
      version: '6.0.0',
      type: 'DeclarativeSource',
      check: { type: 'CheckStream', stream_names: ['items'] },
      streams: [
        {
          type: 'StateDelegatingStream',
          name: 'items',
          full_refresh_stream: inner('full', false),
          incremental_stream: inner('changes', true),
        },
      ],
    };
    const full = await testRead(m, {}, 'items', {}, env());
    assert.deepEqual(states(full), [{ __ab_no_cursor_state_message: true }]);
    const inc = await testRead(
      m,
      {},
      'items',
      {},
      env({
        state: [{ type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: { updated_at: '2024-01-03T00:00:00Z' } } }],
      }),
    );
    assert.deepEqual(errors(inc), []);
    assert.deepEqual(paths(requests), ['/full', '/changes?from=2024-01-03T00%3A00%3A00Z']);
    assert.deepEqual(states(inc), [{ updated_at: '2024-01-03T00:00:00Z' }]);
  });
});

test("a partition key that is also a cursor slice key is the reference's error", async () => {
  await withApi(empty, async (base) => {
    const m = stream(base, hourly, { partition_router: { type: 'ListPartitionRouter', values: ['x'], cursor_field: 'start_time' } });
    const r = await testRead(m, {}, 'items', {}, env());
    assert.match(errors(r)[0] ?? '', /Keys for partition and incremental sync cursor should not overlap/);
  });
});

test("incremental_dependency: the parent starts from parent_state of the input; the final state carries the parent's state", async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/projects')
      return json(res, {
        data: [
          { id: 'p1', updated_at: '2024-01-03T10:00:00Z' },
          { id: 'p2', updated_at: '2024-01-03T08:00:00Z' },
        ],
      });
    json(res, { data: [{ id: `${url.searchParams.get('project')}-1`, updated_at: '2024-01-03T09:00:00Z' }] });
  };
  await withApi(handler, async (base, requests) => {
    const projects = {
      type: 'DeclarativeStream',
      name: 'projects',
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${base}/projects` },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
      incremental_sync: {
        type: 'DatetimeBasedCursor',
        cursor_field: 'updated_at',
        ...hourly,
        step: undefined,
        cursor_granularity: undefined,
      },
    };
    const router = (dependency: boolean) => ({
      partition_router: {
        type: 'SubstreamPartitionRouter',
        parent_stream_configs: [
          {
            type: 'ParentStreamConfig',
            stream: projects,
            parent_key: 'id',
            partition_field: 'project_id',
            request_option: query('project'),
            incremental_dependency: dependency,
          },
        ],
      },
    });
    const child = { ...hourly, step: undefined, cursor_granularity: undefined, start_time_option: undefined };
    const input = env({
      state: [
        {
          type: 'STREAM',
          stream: {
            stream_descriptor: { name: 'items' },
            stream_state: { parent_state: { projects: { updated_at: '2024-01-02T00:00:00Z' } } },
          },
        },
      ],
    });
    const r = await testRead(stream(base, child, router(true)), {}, 'items', {}, input);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(paths(requests), ['/projects?from=2024-01-02T00%3A00%3A00Z', '/items?project=p1', '/items?project=p2']);
    const final = states(r)[1] as Obj;
    assert.deepEqual(final.parent_state, { projects: { updated_at: '2024-01-03T10:00:00Z' } });
    assert.deepEqual(final.states, [
      { partition: { parent_slice: {}, project_id: 'p1' }, cursor: { updated_at: '2024-01-03T09:00:00Z' } },
      { partition: { parent_slice: {}, project_id: 'p2' }, cursor: { updated_at: '2024-01-03T09:00:00Z' } },
    ]);
    const without = await testRead(stream(base, child, router(false)), {}, 'items', {}, input);
    assert.equal(requests[3].url, '/projects?from=2024-01-01T00%3A00%3A00Z', 'without the dependency the parent reads from its start');
    assert.deepEqual((states(without)[1] as Obj).parent_state, {});
  });
});

test('epoch cursor values go through int(): a JSON float is truncated, a decimal string does not parse', async () => {
  const handler = (_req: Recorded, res: ServerResponse) =>
    json(res, {
      data: [
        { id: 1, updated_at: 1704100000.9 },
        { id: 2, updated_at: '1704090000.5' },
      ],
    });
  await withApi(handler, async (base) => {
    const r = await testRead(
      stream(base, { datetime_format: '%s', start_datetime: '1704067200', end_datetime: '1704200000' }),
      {},
      'items',
      {},
      env(),
    );
    assert.deepEqual(states(r), [{ updated_at: '1704100000' }]);
    assert.match(
      r.logs.find((l) => l.level === 'WARN')?.message ?? '',
      /Could not find cursor field `updated_at` in record for stream items/,
    );
  });
});

test('IncrementingCountCursor: one slice from the start value (or the state), start_value_option sends it, the state is the highest id', async () => {
  const handler = (req: Recorded, res: ServerResponse) => {
    const since = Number(new URL(req.url, 'http://x').searchParams.get('since_id'));
    json(res, { data: [{ id: since + 5 }, { id: since + 7 }, { id: since + 6 }] });
  };
  await withApi(handler, async (base, requests) => {
    const counter = (extra: Obj = {}) =>
      manifestWith(
        {
          requester: { type: 'HttpRequester', url: `${base}/items` },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
          ...extra,
        },
        {
          incremental_sync: { type: 'IncrementingCountCursor', cursor_field: 'id', start_value: 0, start_value_option: query('since_id') },
        },
      );
    const r = await testRead(counter(), {}, 'items', {}, env());
    assert.deepEqual(errors(r), []);
    assert.deepEqual(descriptors(r), [{ start: 0, end: null }]);
    assert.deepEqual(states(r), [{ id: 7 }]);
    const resumed = await testRead(
      counter(),
      {},
      'items',
      {},
      env({ state: [{ type: 'STREAM', stream: { stream_descriptor: { name: 'items' }, stream_state: { id: 100 } } }] }),
    );
    assert.deepEqual(states(resumed), [{ id: 107 }]);
    assert.deepEqual(paths(requests), ['/items?since_id=0', '/items?since_id=100']);
    await assert.rejects(
      testRead(counter({ partition_router: { type: 'ListPartitionRouter', values: ['a'], cursor_field: 'k' } }), {}, 'items', {}, env()),
      /does not currently support usage of a PartitionRouter and an IncrementingCountCursor at the same time/,
    );
  });
});

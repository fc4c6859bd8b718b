// Differences from the reference CDK found by the differential harness (issue 13, docs/fidelity.md), each
// read end to end over a loopback API on 127.0.0.1: the requests, slices and state must be the reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { json, manifestWith, startLoopback } from './loopback';

const selectData = { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } };

/** A parent stream `projects` paginated by `?page=N`, `perPage` records a page, `pages` pages. */
function pagedParent(base: string) {
  return {
    type: 'DeclarativeStream',
    name: 'projects',
    retriever: {
      type: 'SimpleRetriever',
      requester: { type: 'HttpRequester', url: `${base}/projects` },
      record_selector: selectData,
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 2, start_from_page: 1 },
      },
    },
  };
}

/** Projects p1…p8, two a page; children answer one record. */
async function projectsApi() {
  return startLoopback((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/projects') {
      const page = Number(u.searchParams.get('page') ?? '1');
      const ids = [2 * page - 1, 2 * page].filter((n) => n <= 8).map((n) => ({ id: `p${n}` }));
      return json(res, { data: ids });
    }
    json(res, { data: [{ id: u.pathname }] });
  });
}

test('harness: a partition_router written as a one-element list is a cartesian product, read in full before the first child request (source-launchdarkly, source-clockify)', async () => {
  const api = await projectsApi();
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/projects/{{ stream_partition.project_id }}/items` },
      record_selector: selectData,
      partition_router: [
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [
            { type: 'ParentStreamConfig', stream: pagedParent(api.base), parent_key: 'id', partition_field: 'project_id' },
          ],
        },
      ],
    });
    const r = await testRead(m, {}, 'items', { maxSlices: 3, maxPagesPerSlice: 3 });
    // itertools.product materialises the router: every parent page (up to the page limit) comes first.
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/projects', '/projects?page=2', '/projects?page=3', '/projects/p1/items', '/projects/p2/items', '/projects/p3/items'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [
        { project_id: 'p1', parent_slice: {} },
        { project_id: 'p2', parent_slice: {} },
        { project_id: 'p3', parent_slice: {} },
      ],
    );
    assert.equal(r.auxiliary_requests.filter((a) => a.type === 'PARENT_STREAM').length, 3);
  } finally {
    await api.close();
  }
});

test('harness: a single substream router looks one parent record ahead, so a page boundary fetches the next parent page first (source-algolia)', async () => {
  const api = await projectsApi();
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/projects/{{ stream_partition.project_id }}/items` },
      record_selector: selectData,
      partition_router: {
        type: 'SubstreamPartitionRouter',
        parent_stream_configs: [
          { type: 'ParentStreamConfig', stream: pagedParent(api.base), parent_key: 'id', partition_field: 'project_id' },
        ],
      },
    });
    const r = await testRead(m, {}, 'items', { maxSlices: 4, maxPagesPerSlice: 5 });
    // p4 is the last record of page 2: to know it is, the router fetches page 3 before p4's partition is
    // used; the slice limit (islice) then stops without using p5. Every slice is planned before the first
    // data request (one worker), so the parent pages come first.
    assert.deepEqual(
      api.requests.map((q) => q.url),
      [
        '/projects',
        '/projects?page=2',
        '/projects?page=3',
        '/projects/p1/items',
        '/projects/p2/items',
        '/projects/p3/items',
        '/projects/p4/items',
      ],
    );
    assert.equal(r.slices.length, 4);
  } finally {
    await api.close();
  }
});

const noCursorState = { __ab_no_cursor_state_message: true };
const stateOf = (s: { state: unknown[] }) => s.state.map((m) => (m as { stream: { stream_state: unknown } }).stream.stream_state);

/** A child stream `items` of the parent `parents` (one page, or `?page=N` pages of three). */
function childOfParents(base: string, parentPaginated = false) {
  const parent = {
    type: 'DeclarativeStream',
    name: 'parents',
    retriever: {
      type: 'SimpleRetriever',
      requester: { type: 'HttpRequester', url: `${base}/parents` },
      record_selector: selectData,
      ...(parentPaginated
        ? {
            paginator: {
              type: 'DefaultPaginator',
              page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
              pagination_strategy: { type: 'PageIncrement', page_size: 3, start_from_page: 1 },
            },
          }
        : {}),
    },
  };
  return manifestWith({
    requester: { type: 'HttpRequester', url: `${base}/items/{{ stream_partition.pid }}` },
    record_selector: selectData,
    partition_router: {
      type: 'SubstreamPartitionRouter',
      parent_stream_configs: [{ type: 'ParentStreamConfig', stream: parent, parent_key: 'id', partition_field: 'pid' }],
    },
  });
}

test('harness: a failed partition is logged, the next partitions are still read and the stream still ends with its final state', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/parents') return json(res, { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    if (req.url === '/items/b') return json(res, { error: 'boom' }, {}, 500);
    json(res, { data: [{ id: req.url }] });
  });
  try {
    const r = await testRead(childOfParents(api.base), {}, 'items', { maxSlices: 5 });
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/parents', '/items/a', '/items/b', '/items/c'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.pages.map((p) => p.records.length)),
      [[1], [0], [1]],
    );
    assert.deepEqual(r.slices.map(stateOf), [[], [], [noCursorState]]);
    const errors = r.logs.filter((l) => l.level === 'ERROR');
    assert.equal(errors.length, 1);
    assert.equal(
      errors[0].message,
      'Exhausted available request attempts. Please see logs for more details. Exception: HTTP Status Code: 500. Error: Internal server error.',
    );
    assert.match(errors[0].internal_message ?? '', /HTTP 500 for GET .*\/items\/b/);
  } finally {
    await api.close();
  }
});

test('harness: when making slices fails (a parent page), the slices already made are read and the final state is emitted', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/parents?page=2') return json(res, {}, {}, 500);
    if (req.url === '/parents') return json(res, { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    json(res, { data: [{ id: req.url }] });
  });
  try {
    const r = await testRead(childOfParents(api.base, true), {}, 'items', { maxSlices: 5 });
    // c is the last record of page 1: looking past it fails, so c's partition is never made (as in the reference).
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/parents', '/parents?page=2', '/items/a', '/items/b'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [
        { pid: 'a', parent_slice: {} },
        { pid: 'b', parent_slice: {} },
      ],
    );
    assert.deepEqual(r.slices.map(stateOf), [[], [noCursorState]]);
    assert.equal(r.logs.filter((l) => l.level === 'ERROR').length, 1);
  } finally {
    await api.close();
  }
});

test('harness: a stream without partitions whose only page fails still shows {"__ab_no_cursor_state_message": true}', async () => {
  const api = await startLoopback((_req, res) => json(res, { message: 'nope' }, {}, 403));
  try {
    const r = await testRead(
      manifestWith({ requester: { type: 'HttpRequester', url: `${api.base}/items` }, record_selector: selectData }),
      {},
      'items',
    );
    assert.equal(r.slices.length, 1);
    assert.deepEqual(stateOf(r.slices[0]), [noCursorState]);
    assert.equal(r.logs.filter((l) => l.level === 'ERROR').length, 1);
  } finally {
    await api.close();
  }
});

test('harness: a failed date window does not move the state on, and the later windows are still read', async () => {
  const api = await startLoopback((req, res) => {
    const since = new URL(req.url, 'http://x').searchParams.get('since') ?? '';
    if (since.startsWith('2024-03-13')) return json(res, {}, {}, 500);
    json(res, { data: [{ id: since, updated: `${since.slice(0, 10)}T05:00:00Z` }] });
  });
  try {
    const m = manifestWith(
      { requester: { type: 'HttpRequester', url: `${api.base}/items` }, record_selector: selectData },
      {
        incremental_sync: {
          type: 'DatetimeBasedCursor',
          cursor_field: 'updated',
          datetime_format: '%Y-%m-%dT%H:%M:%SZ',
          start_datetime: '2024-03-12T00:00:00Z',
          step: 'P1D',
          cursor_granularity: 'PT1S',
          start_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'since' },
        },
      },
    );
    const r = await testRead(m, {}, 'items', { maxSlices: 4 }, { now: () => new Date('2024-03-15T12:00:00Z') });
    assert.equal(api.requests.length, 4);
    // The gap left by the failed window keeps the state at the first window's value (recorded from the reference).
    assert.deepEqual(r.slices.map(stateOf), [
      [{ updated: '2024-03-12T05:00:00Z' }],
      [{ updated: '2024-03-12T05:00:00Z' }],
      [{ updated: '2024-03-12T05:00:00Z' }],
      [{ updated: '2024-03-12T05:00:00Z' }],
    ]);
  } finally {
    await api.close();
  }
});

test('harness: integral Python floats keep their float text in JSON bodies, headers, query strings and URLs (1710028800000.0, 1e+16)', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [{ id: 1 }] }));
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items/{{ 3 * 1.0 }}`,
        http_method: 'POST',
        request_headers: { 'X-T': '{{ timestamp(config.start) * 1000 }}', 'X-Big': '{{ 1e16 }}' },
        request_parameters: { p: '{{ timestamp(config.start) * 1000 }}', l: '{{ [1.0, 2] }}' },
        request_body_json: {
          a: '{{ timestamp(config.start) * 1000 }}',
          b: '{{ 0.5 }}',
          c: '{{ [1.0, 1e-7, 2] }}',
          d: { e: '{{ 2.0 }}' },
          f: '{{ 10 / 2 }}',
          g: '{{ 7 }}',
        },
      },
      record_selector: selectData,
    });
    await testRead(m, { start: '2024-03-10T00:00:00Z' }, 'items');
    // Recorded from the reference CDK: Python's json.dumps and str() of the same values.
    const [q] = api.requests;
    assert.equal(q.url, '/items/3.0?p=1710028800000.0&l=1.0&l=2');
    assert.equal(q.headers['x-t'], '1710028800000.0');
    assert.equal(q.headers['x-big'], '1e+16');
    assert.equal(q.body, '{"a": 1710028800000.0, "b": 0.5, "c": [1.0, 1e-07, 2], "d": {"e": 2.0}, "f": 5.0, "g": 7}');
  } finally {
    await api.close();
  }
});

test('harness: a body given as one string counts by its typed value: text as is, a dict as a form (floats as 2.0), a number not at all', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [{ id: 1 }] }));
  try {
    const read = async (path: string, requester: Record<string, unknown>) =>
      testRead(
        manifestWith({
          requester: { type: 'HttpRequester', url: `${api.base}/${path}`, http_method: 'POST', ...requester },
          record_selector: selectData,
        }),
        {},
        'items',
      );
    await read('text', { request_body: { type: 'RequestBodyPlainText', value: 'hello {{ 1 }}' } });
    await read('float', { request_body: { type: 'RequestBodyPlainText', value: '{{ 4 * 1.0 }}' } });
    await read('number', { request_body_data: '12' });
    await read('dict', { request_body_data: "{{ {'a': 1, 'b': 2.0} }}" });
    await read('list', { request_body_data: { n: '{{ [2.0] }}' } });
    // Recorded from the reference CDK: combine_mappings drops a body that is neither a str nor a mapping.
    assert.deepEqual(
      api.requests.map((q) => [q.url, q.body]),
      [
        ['/text', 'hello 1'],
        ['/float', ''],
        ['/number', ''],
        ['/dict', 'a=1&b=2.0'],
        ['/list', 'n=2.0'],
      ],
    );
  } finally {
    await api.close();
  }
});

test('harness: with incremental_dependency the parent cursor closes its slice at its last record, so the first state already has that parent value', async () => {
  const api = await startLoopback((req, res) => {
    const u = new URL(req.url, 'http://x');
    const since = u.searchParams.get('since') ?? '';
    if (u.pathname === '/parents')
      return json(res, { data: [{ id: `P${since.slice(8, 10)}`, updated: `${since.slice(0, 10)}T05:00:00Z` }] });
    json(res, { data: [{ id: u.pathname, updated: `${since.slice(0, 10)}T06:00:00Z` }] });
  });
  try {
    const cursor = (start: string, step: string) => ({
      type: 'DatetimeBasedCursor',
      cursor_field: 'updated',
      datetime_format: '%Y-%m-%dT%H:%M:%SZ',
      start_datetime: start,
      step,
      cursor_granularity: 'PT1S',
      start_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'since' },
    });
    const parents = {
      type: 'DeclarativeStream',
      name: 'parents',
      primary_key: ['id'],
      incremental_sync: cursor('2024-03-13T00:00:00Z', 'P1D'),
      retriever: { type: 'SimpleRetriever', requester: { type: 'HttpRequester', url: `${api.base}/parents` }, record_selector: selectData },
    };
    const m = manifestWith(
      {
        requester: { type: 'HttpRequester', url: `${api.base}/items/{{ stream_partition.pid }}` },
        record_selector: selectData,
        partition_router: {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [
            { type: 'ParentStreamConfig', parent_key: 'id', partition_field: 'pid', incremental_dependency: true, stream: parents },
          ],
        },
      },
      { incremental_sync: cursor('2024-03-14T00:00:00Z', 'P10D') },
    );
    const r = await testRead(m, {}, 'items', {}, { now: () => new Date('2024-03-15T12:00:00Z') });
    const parentState = r.slices.map((s) => (stateOf(s)[0] as { parent_state: unknown }).parent_state);
    // Recorded from the reference: the first parent window's value (05:00), not its start (00:00).
    assert.deepEqual(parentState, [
      { parents: { updated: '2024-03-13T05:00:00Z' } },
      { parents: { updated: '2024-03-13T05:00:00Z' } },
      { parents: { updated: '2024-03-15T05:00:00Z' } },
    ]);
  } finally {
    await api.close();
  }
});

test('harness: with a schema, records become dicts as in the reference: pairs make an object, other values fail the slice with "An unexpected error occurred…"', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/b')
      return json(res, {
        data: [
          { id: 1 },
          [
            ['a', 1],
            ['b', 2],
          ],
          ['xy', { k: 1, v: 2 }],
          [[1, 2, 3]],
          { id: 9 },
        ],
      });
    json(res, { data: [{ id: 1 }, [1, 2], 'ab'] });
  });
  try {
    const m = manifestWith(
      {
        requester: { type: 'HttpRequester', url: `${api.base}/{{ stream_partition.p }}` },
        record_selector: selectData,
        partition_router: { type: 'ListPartitionRouter', cursor_field: 'p', values: ['a', 'b'] },
      },
      { schema_loader: { type: 'InlineSchemaLoader', schema: { type: 'object', properties: {} } } },
    );
    const r = await testRead(m, {}, 'items');
    // Recorded from the reference CDK (dict(record) in RecordSelector._normalize_by_schema).
    assert.deepEqual(
      r.slices.map((s) => s.pages.map((p) => p.records)),
      [[[{ id: 1 }]], [[{ id: 1 }, { a: 1, b: 2 }, { x: 'y', k: 'v' }]]],
    );
    const errors = r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
    assert.equal(errors.length, 2);
    assert.match(
      errors[0],
      /An unexpected error occurred in stream items: TypeError \(cannot convert dictionary update sequence element #0 to a sequence\)/,
    );
    assert.match(
      errors[1],
      /An unexpected error occurred in stream items: ValueError \(dictionary update sequence element #0 has length 3; 2 is required\)/,
    );
    assert.ok(r.logs.some((l) => l.level === 'WARN' && /a record was a list, not an object/.test(l.message)));
  } finally {
    await api.close();
  }
});

test('harness: without a schema, a record that is not an object ends the whole read as in the reference ("Unexpected type for data_or_message")', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [[1, 2, 3]] }));
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/{{ stream_partition.p }}` },
      record_selector: selectData,
      partition_router: { type: 'ListPartitionRouter', cursor_field: 'p', values: ['a', 'b'] },
    });
    const r = await testRead(m, {}, 'items');
    // Recorded from the reference CDK: one slice with an empty page, no later slice, no final state.
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/a'],
    );
    assert.deepEqual(
      r.slices.map((s) => [s.pages.map((p) => p.records), s.state]),
      [[[[]], []]],
    );
    const errors = r.logs.filter((l) => l.level === 'ERROR');
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /Unexpected type for data_or_message: <class 'list'>: \[1, 2, 3\]/);
  } finally {
    await api.close();
  }
});

test('harness: global_substream_cursor with an empty parent state ({}) emits no intermediate state (Python: not {} is true) (source-bamboo-hr)', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/parents') return json(res, { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    json(res, { data: [{ id: req.url, updated: '2024-03-14T05:00:00Z' }] });
  });
  try {
    const m = manifestWith(
      {
        requester: { type: 'HttpRequester', url: `${api.base}/items/{{ stream_partition.pid }}` },
        record_selector: selectData,
        partition_router: {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [
            {
              type: 'ParentStreamConfig',
              parent_key: 'id',
              partition_field: 'pid',
              stream: {
                type: 'DeclarativeStream',
                name: 'parents',
                retriever: {
                  type: 'SimpleRetriever',
                  requester: { type: 'HttpRequester', url: `${api.base}/parents` },
                  record_selector: selectData,
                },
              },
            },
          ],
        },
      },
      {
        incremental_sync: {
          type: 'DatetimeBasedCursor',
          cursor_field: 'updated',
          datetime_format: '%Y-%m-%dT%H:%M:%SZ',
          start_datetime: '2024-03-14T00:00:00Z',
          global_substream_cursor: true,
        },
      },
    );
    const r = await testRead(m, {}, 'items', {}, { now: () => new Date('2024-03-15T12:00:00Z') });
    const states = r.slices.map(stateOf);
    assert.deepEqual(states.slice(0, 2), [[], []]);
    const final = states[2][0] as Record<string, unknown>;
    assert.deepEqual(
      { ...final, lookback_window: 'n' },
      { use_global_cursor: true, state: { updated: '2024-03-14T05:00:00Z' }, lookback_window: 'n', parent_state: {} },
    );
  } finally {
    await api.close();
  }
});

test('harness: LegacySessionTokenAuthenticator validates a stored session token twice per data request, as the reference reads `token` twice (source-metabase)', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/api/user/current') return json(res, { id: 1 });
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? '1');
    json(res, { data: page < 2 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }] });
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url_base: `${api.base}/api/`,
        path: 'card',
        authenticator: {
          type: 'LegacySessionTokenAuthenticator',
          header: 'X-Session',
          session_token: '{{ config.token }}',
          session_token_response_key: 'id',
          login_url: 'session',
          validate_session_url: 'user/current',
        },
      },
      record_selector: selectData,
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 2, start_from_page: 1 },
      },
    });
    await testRead(m, { token: 'S' }, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/api/user/current', '/api/user/current', '/api/card', '/api/user/current', '/api/user/current', '/api/card?page=2'],
    );
  } finally {
    await api.close();
  }
});

/** Partitions p over `values`; the URL renders `format_datetime(p)`, which fails for a value that is not a date. */
function datedPartitions(base: string, values: string[]) {
  return manifestWith({
    requester: {
      type: 'HttpRequester',
      url: `${base}/y/{{ format_datetime(stream_partition.p, '%Y') }}`,
      authenticator: {
        type: 'OAuthAuthenticator',
        token_refresh_endpoint: `${base}/token`,
        client_id: 'c',
        client_secret: 's',
        refresh_token: 'r',
      },
    },
    record_selector: selectData,
    partition_router: { type: 'ListPartitionRouter', cursor_field: 'p', values },
  });
}

async function tokenApi() {
  return startLoopback((req, res) =>
    req.url === '/token' ? json(res, { access_token: 'A', expires_in: 3600 }) : json(res, { data: [{ id: req.url }] }),
  );
}

test('harness: a slice that fails before any request is not shown (the Builder groups slices by their pages) and does not count for the slice limit (source-free-agent-connector)', async () => {
  const api = await tokenApi();
  try {
    const r = await testRead(datedPartitions(api.base, ['2024-01-01', 'bad', '2023-02-02']), {}, 'items', { maxSlices: 3 });
    // Recorded from the reference CDK.
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/token', '/y/2024', '/y/2023'],
    );
    assert.deepEqual(
      r.slices.map((s) => [s.slice_descriptor, stateOf(s)]),
      [
        [{ p: '2024-01-01' }, []],
        [{ p: '2023-02-02' }, [noCursorState]],
      ],
    );
    assert.equal(r.test_read_limit_reached, false);
    assert.match(r.logs.find((l) => l.level === 'ERROR')?.message ?? '', /Invalid isoformat string: 'bad'/);
    // When the last slice is the one not shown, the final state reaches no slice.
    const last = await testRead(datedPartitions(api.base, ['2024-01-01', '2023-02-02', 'bad']), {}, 'items');
    assert.deepEqual(last.slices.map(stateOf), [[], []]);
  } finally {
    await api.close();
  }
});

test('harness: the URL and the requester headers are rendered before the authenticator, so a template error there costs no token request', async () => {
  const api = await tokenApi();
  try {
    const r = await testRead(datedPartitions(api.base, ['bad']), {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      [],
    );
    assert.deepEqual(r.slices, []);
  } finally {
    await api.close();
  }
});

test('harness: an OAuth token whose new expiry is already past is refreshed on both token reads of a request, as in the reference (source-square)', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/token') return json(res, { access_token: 'A', expires_at: '2020-01-01T00:00:00Z' });
    json(res, { data: [{ id: 1 }] });
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        authenticator: {
          type: 'OAuthAuthenticator',
          token_refresh_endpoint: `${api.base}/token`,
          client_id: 'c',
          client_secret: 's',
          refresh_token: 'r',
          expires_in_name: 'expires_at',
          token_expiry_date_format: 'YYYY-MM-DDTHH:mm:ss[Z]',
        },
      },
      record_selector: selectData,
    });
    await testRead(m, {}, 'items', {}, { now: () => new Date('2024-03-15T12:00:00Z') });
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/token', '/token', '/items'],
    );
  } finally {
    await api.close();
  }
});

test('harness: a list of routers reads every router even when the first yields no partition (itertools.product materialises all first) (source-testrail)', async () => {
  const api = await startLoopback((req, res) => json(res, { data: req.url === '/teams' ? [{ id: 't1' }] : [] }));
  try {
    const parent = (name: string) => ({
      type: 'DeclarativeStream',
      name,
      retriever: { type: 'SimpleRetriever', requester: { type: 'HttpRequester', url: `${api.base}/${name}` }, record_selector: selectData },
    });
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
      partition_router: [
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [
            { type: 'ParentStreamConfig', stream: parent('projects'), parent_key: 'id', partition_field: 'project_id' },
          ],
        },
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [{ type: 'ParentStreamConfig', stream: parent('teams'), parent_key: 'id', partition_field: 'team_id' }],
        },
      ],
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/projects', '/teams'],
    );
    assert.deepEqual(r.slices, []);
  } finally {
    await api.close();
  }
});

test("a spec whose `required` names a key twice: the reference reads nothing and logs jsonschema's SchemaError (source-hellobaton, issue 20)", async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [{ id: 1 }] }));
  try {
    const m = manifestWith({
      type: 'SimpleRetriever',
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
    });
    const spec: { type: string; connection_specification: object } = {
      type: 'Spec',
      connection_specification: {
        type: 'object',
        required: ['api_key', 'api_key', 'company'],
        properties: { api_key: { type: 'string' }, company: { type: 'string' } },
      },
    };
    m.spec = spec;
    const r = await testRead(m, { api_key: 'k', company: 'c' }, 'items', {}, {});
    // Before: the read went on (3 requests in the harness) where the reference sent none.
    assert.deepEqual(api.requests, []);
    assert.deepEqual(r.slices, []);
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message),
      ["['api_key', 'api_key', 'company'] has non-unique elements"],
    );
    // A `required` list without repeats (and enum values that repeat) changes nothing.
    spec.connection_specification = {
      type: 'object',
      required: ['api_key'],
      properties: { api_key: { type: 'string', enum: ['k', 'k'] } },
    };
    const ok = await testRead(m, { api_key: 'k' }, 'items', {}, {});
    assert.equal(ok.slices[0].pages[0].records.length, 1);
  } finally {
    await api.close();
  }
});

// Divergences from the reference seen on real connectors (issue 13), each read end to end over a
// loopback API: the request sequence and records must be the reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { createHttpFetch } from '../../../server/src/runtime/http/transport';
import { createBackoffStrategy } from '../../../server/src/runtime/http/backoffStrategies';
import { json, manifestWith, startLoopback } from './loopback';

const selectData = { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } };

test('divergence 1: `response._links.next.href` resolves (HAL): a mapping key starting with _ is reachable as an attribute', async () => {
  const api = await startLoopback((req, res, base) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    json(res, { data: [{ id: page }], _links: page < 3 ? { next: { href: `${base}/items?page=${page + 1}` } } : {} });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestPath' },
        pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response._links.next.href }}', stop_condition: "{{ 'next' not in response._links }}" },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(api.requests.map((q) => q.url), ['/items', '/items?page=2', '/items?page=3']);
    assert.deepEqual(r.slices[0].pages.flatMap((p) => p.records), [{ id: 1 }, { id: 2 }, { id: 3 }]);
    assert.deepEqual(r.logs.filter((l) => l.level === 'ERROR'), []);
  } finally {
    await api.close();
  }
});

test('divergence 2: CursorPagination sees header names as sent: headers.get("Link") is the raw text, headers.link the parsed map', async () => {
  const api = await startLoopback((req, res, base) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    const headers: Record<string, string> = { 'X-Total-Pages': '2' };
    if (page < 2) headers.Link = `<${base}/items?page=${page + 1}>; rel="next"`;
    json(res, { data: [{ id: page }] }, headers);
  });
  try {
    // source-bugsnag's templates, verbatim.
    const bugsnag = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestPath' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: '{{ headers.get("Link", {}).split(";")[0][1:-1] }}',
          stop_condition: `{{ not headers.get("Link", {}) or 'rel="next"' not in headers.get("Link", {}) }}`,
        },
      },
    });
    const r = await testRead(bugsnag, {}, 'items');
    assert.deepEqual(api.requests.map((q) => q.url), ['/items', '/items?page=2']);
    // The results view shows the names as the server sent them.
    assert.equal(r.slices[0].pages[0].response?.headers?.Link, `<${api.base}/items?page=2>; rel="next"`);
    assert.equal(r.slices[0].pages[0].response?.headers?.['X-Total-Pages'], '2');

    // `headers.link` is the parsed map; a lower-case lookup of another header misses (case-sensitive copy).
    api.requests.length = 0;
    const parsed = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestPath' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: "{{ headers.link.next.url if headers.get('x-total-pages') is none else 'wrong' }}",
          stop_condition: "{{ 'next' not in headers.link }}",
        },
      },
    });
    const r2 = await testRead(parsed, {}, 'items');
    assert.deepEqual(api.requests.map((q) => q.url), ['/items', '/items?page=2']);
    assert.deepEqual(r2.logs.filter((l) => l.level === 'ERROR'), []);
  } finally {
    await api.close();
  }
});

test('divergence 2: error-handler templates and WaitTimeFromHeader look header names up case-insensitively', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url.startsWith('/wait')) return json(res, { error: 'slow down' }, { 'X-Wait-Seconds': '7' }, 429);
    json(res, { data: [{ id: 1 }] }, { 'X-Quota-Left': '0' });
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        error_handler: {
          type: 'DefaultErrorHandler',
          response_filters: [
            { type: 'HttpResponseFilter', action: 'FAIL', predicate: "{{ headers['x-quota-left'] == '0' and 'X-QUOTA-LEFT' in headers }}", error_message: "quota left: {{ headers.get('x-QUOTA-left') }}" },
          ],
        },
      },
      record_selector: selectData,
    });
    const r = await testRead(m, {}, 'items');
    assert.match(r.logs.find((l) => l.level === 'ERROR')?.message ?? '', /quota left: 0/);

    // Test reads never retry, so the wait is checked on the strategy with a response from the real transport.
    const waited = await createHttpFetch()({ method: 'GET', url: `${api.base}/wait`, headers: {}, body: null });
    assert.equal(createBackoffStrategy({ type: 'WaitTimeFromHeader', header: 'x-wait-seconds' }, {}, {}, undefined)(waited, 1), 7);
  } finally {
    await api.close();
  }
});

test('divergence 6: a list of routers is a product built once (W6): the parent is read once, first router outer, ChainMap merge', async () => {
  const api = await startLoopback((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/projects') return json(res, { data: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }] });
    json(res, { data: [{ id: `${u.searchParams.get('region')}-${u.searchParams.get('project')}` }] });
  });
  try {
    const projects = {
      type: 'DeclarativeStream',
      name: 'projects',
      retriever: { type: 'SimpleRetriever', requester: { type: 'HttpRequester', url: `${api.base}/projects` }, record_selector: selectData },
    };
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
      partition_router: [
        { type: 'ListPartitionRouter', cursor_field: 'region', values: ['eu', 'us'], request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'region' } },
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [{ type: 'ParentStreamConfig', stream: projects, parent_key: 'id', partition_field: 'project_id', request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'project' } }],
        },
      ],
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(api.requests.map((q) => q.url), [
      '/projects',
      '/items?project=p1&region=eu', '/items?project=p2&region=eu', '/items?project=p3&region=eu',
      '/items?project=p1&region=us', '/items?project=p2&region=us',
    ]);
    assert.deepEqual(r.slices.map((s) => JSON.stringify(s.slice_descriptor)), [
      '{"project_id":"p1","parent_slice":{},"region":"eu"}',
      '{"project_id":"p2","parent_slice":{},"region":"eu"}',
      '{"project_id":"p3","parent_slice":{},"region":"eu"}',
      '{"project_id":"p1","parent_slice":{},"region":"us"}',
      '{"project_id":"p2","parent_slice":{},"region":"us"}',
    ]);
    assert.equal(r.auxiliary_requests.filter((a) => a.type === 'PARENT_STREAM').length, 1);
    assert.equal(r.test_read_limit_reached, true);
  } finally {
    await api.close();
  }
});

test('divergence 6: with two substream routers, parent_slice (a key both produce) comes from the first router', async () => {
  const api = await startLoopback((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/orgs/a/projects') return json(res, { data: [{ id: 'p1' }] });
    if (u.pathname === '/teams') return json(res, { data: [{ id: 't1' }, { id: 't2' }] });
    json(res, { data: [{ id: 1 }] });
  });
  try {
    const stream = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
      type: 'DeclarativeStream',
      name,
      retriever: { type: 'SimpleRetriever', requester: { type: 'HttpRequester', url }, record_selector: selectData, ...extra },
    });
    const projects = stream('projects', `${api.base}/orgs/{{ stream_partition.org }}/projects`, { partition_router: { type: 'ListPartitionRouter', cursor_field: 'org', values: ['a'] } });
    const teams = stream('teams', `${api.base}/teams`);
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items/{{ stream_partition.project_id }}/{{ stream_partition.team_id }}` },
      record_selector: selectData,
      partition_router: [
        { type: 'SubstreamPartitionRouter', parent_stream_configs: [{ type: 'ParentStreamConfig', stream: projects, parent_key: 'id', partition_field: 'project_id' }] },
        { type: 'SubstreamPartitionRouter', parent_stream_configs: [{ type: 'ParentStreamConfig', stream: teams, parent_key: 'id', partition_field: 'team_id' }] },
      ],
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(api.requests.map((q) => q.url), ['/orgs/a/projects', '/teams', '/items/p1/t1', '/items/p1/t2']);
    assert.deepEqual(r.slices.map((s) => s.slice_descriptor), [
      { team_id: 't1', parent_slice: { org: 'a' }, project_id: 'p1' },
      { team_id: 't2', parent_slice: { org: 'a' }, project_id: 'p1' },
    ]);
  } finally {
    await api.close();
  }
});

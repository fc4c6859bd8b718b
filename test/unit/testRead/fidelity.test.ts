// Divergences from the reference seen on real connectors (issue 13), each read end to end over a
// loopback API: the request sequence and records must be the reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createHttpFetch } from '../../../server/src/runtime/http/transport';
import { createBackoffStrategy } from '../../../server/src/runtime/http/backoffStrategies';
import { createAuthenticator, createPaginationStrategy, createPaginator, testRead } from '../../../server/src/runtime';
import { json, manifestWith, startLoopback } from './loopback';

const selectData = { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } };

/** A stream on `${base}/items` whose CursorPagination follows the next URL as a RequestPath. */
function linkPaginated(base: string, cursorValue: string, stopCondition: string) {
  return manifestWith({
    requester: { type: 'HttpRequester', url: `${base}/items` },
    record_selector: selectData,
    paginator: {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestPath' },
      pagination_strategy: { type: 'CursorPagination', cursor_value: cursorValue, stop_condition: stopCondition },
    },
  });
}

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
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: '{{ response._links.next.href }}',
          stop_condition: "{{ 'next' not in response._links }}",
        },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?page=2', '/items?page=3'],
    );
    assert.deepEqual(
      r.slices[0].pages.flatMap((p) => p.records),
      [{ id: 1 }, { id: 2 }, { id: 3 }],
    );
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
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
    const bugsnag = linkPaginated(
      api.base,
      '{{ headers.get("Link", {}).split(";")[0][1:-1] }}',
      `{{ not headers.get("Link", {}) or 'rel="next"' not in headers.get("Link", {}) }}`,
    );
    const r = await testRead(bugsnag, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?page=2'],
    );
    // The results view shows the names as the server sent them.
    assert.equal(r.slices[0].pages[0].response?.headers?.Link, `<${api.base}/items?page=2>; rel="next"`);
    assert.equal(r.slices[0].pages[0].response?.headers?.['X-Total-Pages'], '2');

    // `headers.link` is the parsed map; a lower-case lookup of another header misses (case-sensitive copy).
    api.requests.length = 0;
    const parsed = linkPaginated(
      api.base,
      "{{ headers.link.next.url if headers.get('x-total-pages') is none else 'wrong' }}",
      "{{ 'next' not in headers.link }}",
    );
    const r2 = await testRead(parsed, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?page=2'],
    );
    assert.deepEqual(
      r2.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
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
            {
              type: 'HttpResponseFilter',
              action: 'FAIL',
              predicate: "{{ headers['x-quota-left'] == '0' and 'X-QUOTA-LEFT' in headers }}",
              error_message: "quota left: {{ headers.get('x-QUOTA-left') }}",
            },
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
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${api.base}/projects` },
        record_selector: selectData,
      },
    };
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selectData,
      partition_router: [
        {
          type: 'ListPartitionRouter',
          cursor_field: 'region',
          values: ['eu', 'us'],
          request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'region' },
        },
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [
            {
              type: 'ParentStreamConfig',
              stream: projects,
              parent_key: 'id',
              partition_field: 'project_id',
              request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'project' },
            },
          ],
        },
      ],
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      [
        '/projects',
        '/items?project=p1&region=eu',
        '/items?project=p2&region=eu',
        '/items?project=p3&region=eu',
        '/items?project=p1&region=us',
        '/items?project=p2&region=us',
      ],
    );
    assert.deepEqual(
      r.slices.map((s) => JSON.stringify(s.slice_descriptor)),
      [
        '{"project_id":"p1","parent_slice":{},"region":"eu"}',
        '{"project_id":"p2","parent_slice":{},"region":"eu"}',
        '{"project_id":"p3","parent_slice":{},"region":"eu"}',
        '{"project_id":"p1","parent_slice":{},"region":"us"}',
        '{"project_id":"p2","parent_slice":{},"region":"us"}',
      ],
    );
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
    const projects = stream('projects', `${api.base}/orgs/{{ stream_partition.org }}/projects`, {
      partition_router: { type: 'ListPartitionRouter', cursor_field: 'org', values: ['a'] },
    });
    const teams = stream('teams', `${api.base}/teams`);
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items/{{ stream_partition.project_id }}/{{ stream_partition.team_id }}` },
      record_selector: selectData,
      partition_router: [
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [{ type: 'ParentStreamConfig', stream: projects, parent_key: 'id', partition_field: 'project_id' }],
        },
        {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [{ type: 'ParentStreamConfig', stream: teams, parent_key: 'id', partition_field: 'team_id' }],
        },
      ],
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/orgs/a/projects', '/teams', '/items/p1/t1', '/items/p1/t2'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [
        { team_id: 't1', parent_slice: { org: 'a' }, project_id: 'p1' },
        { team_id: 't2', parent_slice: { org: 'a' }, project_id: 'p1' },
      ],
    );
  } finally {
    await api.close();
  }
});

test("divergence 9: the reference's own error texts come first, with its failure types", async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/deep') return json(res, { a: { b: { c: { d: { e: { f: { g: { access_token: 'T' } } } } } } } });
    if (req.url === '/none') return json(res, { token_type: 'bearer' });
    if (req.url === '/grant') return json(res, { error: 'invalid_grant' }, {}, 400);
    json(res, { error: 'invalid_client' }, {}, 401);
  });
  const oauth = (path: string) => ({
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: `${api.base}${path}`,
    client_id: 'id',
    client_secret: 'SECRETX',
    refresh_token: 'SECRETR',
  });
  const refused = async (path: string) => {
    try {
      await createAuthenticator(oauth(path), {}).authenticate();
    } catch (e) {
      assert.ok(!/SECRET/.test((e as Error).message));
      return e as Error & { failureType: string };
    }
    throw new Error('expected a failure');
  };
  try {
    const deep = await refused('/deep');
    assert.equal(deep.failureType, 'config_error');
    assert.ok(
      deep.message.startsWith("The maximum level of recursion is reached. Couldn't find the specified `access_token` in the response."),
      deep.message,
    );
    const none = await refused('/none');
    assert.equal(none.failureType, 'system_error');
    assert.ok(none.message.startsWith('Token refresh API response was missing access token access_token'), none.message);
    const grant = await refused('/grant');
    assert.equal(grant.failureType, 'config_error');
    assert.ok(
      grant.message.startsWith('Refresh token is invalid or expired. Please re-authenticate from Sources/<your source>/Settings.'),
      grant.message,
    );
    const client = await refused('/client');
    assert.equal(client.failureType, 'system_error');
    assert.ok(client.message.startsWith(`401 Client Error: Unauthorized for url: ${api.base}/client`), client.message);
  } finally {
    await api.close();
  }
  const selective = {
    type: 'SelectiveAuthenticator',
    authenticator_selection_path: ['auth', 'kind'],
    authenticators: { token: { type: 'BearerAuthenticator', api_token: 'x' } },
  };
  assert.throws(
    () => createAuthenticator(selective, {}),
    (e: Error & { failureType: string }) =>
      e.message.startsWith('The path from `authenticator_selection_path` is not found in the config.') && e.failureType === 'config_error',
  );
  assert.throws(
    () => createAuthenticator(selective, { auth: { kind: 'basic' } }),
    (e: Error) => e.message.startsWith('The authenticator `basic` is not found.'),
  );
  assert.throws(
    () =>
      createPaginator(
        {
          type: 'DefaultPaginator',
          page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
          pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}' },
        },
        {},
      ),
    (e: Error) => e.message.startsWith('page_size_option cannot be set if the pagination strategy does not have a page_size'),
  );
  assert.throws(
    () => createPaginationStrategy({ type: 'PageIncrement', page_size: "{{ config['n'] }}" }, { n: 'ten' }),
    (e: Error) => e.message.startsWith("ten is of type <class 'str'>. Expected <class 'int'>"),
  );
  const offsets = createPaginationStrategy({ type: 'OffsetIncrement', page_size: 1 }, {});
  assert.throws(
    () => offsets.nextPageToken({ status: 200, headers: {}, body: '[{"id":1}]' }, 1, { id: 1 }, 'x'),
    (e: Error) => e.message.startsWith('Last page token value x for OffsetIncrement pagination strategy was not an integer'),
  );
});

test("divergence 9: a token endpoint that cannot be reached says the reference's network-error text (transient)", async () => {
  const api = await startLoopback((_req, res) => json(res, {}));
  const base = api.base;
  await api.close();
  const auth = createAuthenticator(
    { type: 'OAuthAuthenticator', token_refresh_endpoint: `${base}/token`, client_id: 'id', client_secret: 's', refresh_token: 'r' },
    {},
    {},
    { sleep: async () => {} },
  );
  await assert.rejects(
    auth.authenticate(),
    (e: Error & { failureType: string }) =>
      e.failureType === 'transient_error' && e.message.startsWith('OAuth access token refresh request failed due to a network error.'),
  );
});

/** source-airtable's API, imitated: two bases' meta data and one table's records. */
function airtableApi() {
  return startLoopback((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/v0/meta/bases') return json(res, { bases: [{ id: 'app1', name: 'Sales Base', permissionLevel: 'create' }] });
    if (u.pathname === '/v0/meta/bases/app1/tables')
      return json(res, {
        tables: [
          { id: 'tbl1', name: 'Deals', fields: [] },
          { id: 'tbl2', name: 'Open Leads', fields: [] },
        ],
      });
    if (u.pathname === '/v0/app1/tbl2')
      return json(res, { records: [{ id: 'rec1', createdTime: '2024-01-01T00:00:00.000Z', fields: { Name: 'Ada' } }] });
    json(res, { error: 'not found' }, {}, 404);
  });
}

// The shared corpus sits beside the worktree (../shared); without it this test is skipped (the demo
// workspace's dynamic streams are tested in demoStreams.test.ts either way).
const AIRTABLE = join(__dirname, '../../../../shared/corpus/manifests/source-airtable.yaml');

test('divergence 8: dynamic streams of the real source-airtable manifest (HttpComponentsResolver) resolve and run', {
  skip: existsSync(AIRTABLE) ? false : 'the shared corpus (../shared/corpus) is not present',
}, async () => {
  const manifest = parse(readFileSync(AIRTABLE, 'utf8'), { maxAliasCount: 1000 });
  const api = await airtableApi();
  // The manifest's url_base is Airtable's; the requests go to the loopback API over real HTTP.
  const http = createHttpFetch();
  const fetch = (req: { method: string; url: string; headers: Record<string, string>; body: string | null }) =>
    http({ ...req, url: req.url.replace('https://api.airtable.com', api.base) });
  const config = { credentials: { auth_method: 'api_key', api_key: 'patSECRET123' } };
  try {
    const { listStreams } = await import('../../../server/src/runtime');
    const listed = await listStreams(manifest, config, {}, { fetch });
    assert.deepEqual(
      listed.map((s) => [s.name, s.dynamic, s.resolver]),
      [
        ['sales_base/deals/tbl1', true, 'HttpComponentsResolver'],
        ['sales_base/open_leads/tbl2', true, 'HttpComponentsResolver'],
      ],
    );
    api.requests.length = 0;
    const r = await testRead(manifest, config, 'sales_base/open_leads/tbl2', {}, { fetch });
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/v0/meta/bases', '/v0/meta/bases/app1/tables', '/v0/app1/tbl2'],
    );
    // The resolver's exchanges belong to the definition, not to the stream read (the reference drops them).
    assert.deepEqual(r.auxiliary_requests, []);
    assert.equal(r.slices.length, 1);
    assert.equal(r.slices[0].pages[0].request?.url, `${api.base}/v0/app1/tbl2`.replace(api.base, 'https://api.airtable.com'));
    assert.equal(r.slices[0].pages[0].records.length, 1);
    assert.ok(!JSON.stringify(r).includes('patSECRET123'));
  } finally {
    await api.close();
  }
});

test('divergence 8: ConfigComponentsResolver and ParametrizedComponentsResolver streams resolve from the config / the manifest and run', async () => {
  const api = await startLoopback((req, res) => json(res, { data: [{ id: req.url }] }));
  try {
    const template = {
      type: 'DeclarativeStream',
      name: 'placeholder',
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${api.base}/reports`, request_parameters: { kind: 'none' } },
        record_selector: selectData,
      },
    };
    const manifest = {
      version: '6.44.0',
      type: 'DeclarativeSource',
      check: { type: 'CheckStream', stream_names: [] },
      streams: [],
      dynamic_streams: [
        {
          type: 'DynamicDeclarativeStream',
          name: 'custom_reports',
          stream_template: template,
          components_resolver: {
            type: 'ConfigComponentsResolver',
            stream_config: { type: 'StreamConfig', configs_pointer: ['reports'] },
            components_mapping: [
              { type: 'ComponentMappingDefinition', field_path: ['name'], value: "report_{{ components_values['name'] }}" },
              {
                type: 'ComponentMappingDefinition',
                field_path: ['retriever', 'requester', 'request_parameters', 'kind'],
                value: "{{ components_values['kind'] }}",
              },
              {
                type: 'ComponentMappingDefinition',
                field_path: ['retriever', 'requester', 'request_parameters', 'limit'],
                value: '{{ components_values.limit }}',
                create_or_update: true,
              },
            ],
          },
        },
        {
          type: 'DynamicDeclarativeStream',
          stream_template: template,
          components_resolver: {
            type: 'ParametrizedComponentsResolver',
            stream_parameters: { type: 'StreamParametersDefinition', list_of_parameters_for_stream: [{ name: 'labels', kind: 'label' }] },
            components_mapping: [
              { type: 'ComponentMappingDefinition', field_path: ['name'], value: '{{ components_values.name }}' },
              {
                type: 'ComponentMappingDefinition',
                field_path: ['retriever', 'requester', 'request_parameters', 'kind'],
                value: '{{ components_values.kind }}',
              },
            ],
          },
        },
      ],
    };
    const config = {
      reports: [
        { name: 'daily', kind: 'day', limit: 7 },
        { name: 'weekly', kind: 'week' },
      ],
    };
    const { listStreams } = await import('../../../server/src/runtime');
    assert.deepEqual(
      (await listStreams(manifest, config)).map((s) => [s.name, s.definition]),
      [
        ['report_daily', 'custom_reports'],
        ['report_weekly', 'custom_reports'],
        ['labels', 'dynamic_stream_1'],
      ],
    );
    const r = await testRead(manifest, config, 'report_daily');
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    const labels = await testRead(manifest, config, 'labels');
    assert.deepEqual(
      labels.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/reports?kind=day&limit=7', '/reports?kind=label'],
    );
    const missing = await testRead(manifest, config, 'report_monthly');
    assert.match(
      missing.logs[0].message,
      /Stream 'report_monthly' is not defined in the manifest \(nor resolved from its dynamic_streams\); streams: report_daily, report_weekly, labels/,
    );
    // A duplicate resolved name is the reference's error, worded for a config resolver.
    await assert.rejects(
      listStreams(manifest, {
        reports: [
          { name: 'a', kind: 'x' },
          { name: 'a', kind: 'y' },
        ],
      }),
      /Dynamic streams list contains a duplicate name: report_a\. Please check your configuration\./,
    );
  } finally {
    await api.close();
  }
});

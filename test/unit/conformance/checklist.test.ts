// reference-behaviour.md §13, "behaviours most likely to be reimplemented wrongly": one test per line,
// driven through the built bundle out/runtime.js exactly as runtime-api.md describes it (the surface
// other conformance suites use). Request shapes go over real HTTP on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { json, manifestWith, startLoopback } from '../testRead/loopback';

type Obj = Record<string, unknown>;
type HttpRequest = { method: string; url: string; headers: Record<string, string>; body: string | null };
type HttpResponse = { status: number; headers: Record<string, string>; body: string };
type StreamRead = {
  logs: { level: string; message: string }[];
  slices: { slice_descriptor: unknown; pages: { records: Obj[]; request: HttpRequest | null; response: HttpResponse | null }[] }[];
  test_read_limit_reached: boolean;
  auxiliary_requests: { title: string; type: string; request: HttpRequest; response: HttpResponse }[];
  latest_config_update: Obj | null;
};

// The suite runner builds before testing, so the bundle is there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = require(join(__dirname, '..', '..', '..', 'out', 'runtime.js'));

const jinja = (t: string, ctx: Obj = {}) => rt.interpolate(t, { config: {}, ...ctx }, 'jinja');
const bool = (t: string, ctx: Obj = {}) => rt.interpolate(t, { config: {}, ...ctx }, 'boolean');
const str = (t: string, ctx: Obj = {}) => rt.interpolate(t, { config: {}, ...ctx }, 'string');
const res = (body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const selector = (path: string[] = ['data'], extra: Obj = {}) => ({
  type: 'RecordSelector',
  extractor: { type: 'DpathExtractor', field_path: path },
  ...extra,
});
const frozen = (iso: string) => () => new Date(iso);

/** A scripted transport: answers in order, records every request. */
function scripted(answers: ((req: HttpRequest) => HttpResponse)[]) {
  const seen: HttpRequest[] = [];
  let i = 0;
  const fetch = async (req: HttpRequest) => {
    seen.push(req);
    const answer = answers[Math.min(i++, answers.length - 1)];
    return answer(req);
  };
  return { seen, fetch };
}

// ---------------------------------------------------------------------------------------------- Interpolation

test('§13 rendered text comes back with Python literal rules, not JSON rules', () => {
  assert.equal(jinja("{{ '123' }}"), 123);
  assert.equal(jinja("{{ 'True' }}"), true);
  assert.equal(jinja("{{ 'true' }}"), 'true');
  assert.equal(jinja(`{{ "'x'" }}`), 'x');
  assert.equal(jinja("{{ '0x1A' }}"), 26);
  assert.equal(jinja("{{ '007' }}"), '007');
  assert.equal(jinja("{{ 'null' }}"), 'null');
  assert.deepEqual(jinja("{{ config['d'] }}", { config: { d: { k: true } } }), { k: true });
});

test('§13 query and form values keep the rendered string unless it is a list; None is "None"; an empty render drops the key', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [] }));
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        http_method: 'POST',
        request_parameters: { n: "{{ '0x1A' }}", none: '{{ None }}', empty: "{{ config['missing'] }}", list: "{{ ['a', 'b'] }}" },
        request_body_data: { f: "{{ '1_000' }}", g: '{{ None }}', h: "{{ '' }}" },
      },
      record_selector: selector(),
    });
    await rt.testRead(m, {}, 'items');
    assert.equal(api.requests.length, 1);
    assert.equal(api.requests[0].url, '/items?n=0x1A&none=None&list=a&list=b');
    assert.equal(api.requests[0].body, 'f=1_000&g=None');
  } finally {
    await api.close();
  }
});

test('§13 InterpolatedBoolean: null is true, missing or empty is false, "false"/"0"/0/[] are false', () => {
  assert.equal(bool('{{ config.a }}', { config: { a: null } }), true);
  assert.equal(bool("{{ config['missing'] }}"), false);
  assert.equal(bool(''), false);
  for (const falsy of ["{{ 'false' }}", "{{ 'False' }}", "{{ '0' }}", '{{ 0 }}', '{{ 0.0 }}', '{{ [] }}', '{{ {} }}'])
    assert.equal(bool(falsy), false, falsy);
  for (const truthy of ["{{ 'no' }}", '{{ 1 }}', '{{ [0] }}', "{{ 'None' }}"]) assert.equal(bool(truthy), true, truthy);
});

test('§13 undeclared variables are errors; last_records does not exist; any template containing stream_state is rejected', () => {
  assert.throws(
    () => jinja('{{ response.next }}'),
    (e: { kind: string }) => e.kind === 'undeclared_variable',
  );
  assert.throws(
    () => jinja('{{ last_records }}'),
    (e: { kind: string }) => e.kind === 'undeclared_variable',
  );
  assert.throws(
    () => jinja("{{ 'stream_state' }}"),
    (e: { kind: string; message: string }) =>
      e.kind === 'config_error' && /stream_state/.test(e.message) && /stream_interval/.test(e.message),
  );
});

test('§13 InterpolatedString: a chained access on a missing key raises, a first-level missing key gives ""', () => {
  assert.equal(str("{{ config['missing'] }}"), '');
  assert.equal(str('{{ config.missing }}'), '');
  assert.throws(() => str('{{ config.a.b }}'));
});

test('§13 timestamp() of a date string is a float; the string filter wraps non-strings (as JSON) in triple quotes, so they stay text', () => {
  const ts = jinja("{{ timestamp('2021-01-01T00:00:00Z') }}");
  assert.equal(ts, 1609459200);
  assert.equal(rt.interpolate("{{ timestamp('2021-01-01T00:00:00Z') | string }}", { config: {} }, 'string'), '1609459200.0');
  assert.equal(str("{{ {'a': 1} | string }}"), '{"a": 1}');
  assert.equal(jinja('{{ 5 | string }}'), '5');
  assert.equal(jinja("{{ 'text' | string }}"), 'text');
});

// ---------------------------------------------------------------------------------------------- Pagination

test('§13 OffsetIncrement / PageIncrement count raw extracted records; CursorPagination uses the post-filter count and last record', async () => {
  // Offset: 3 raw records (the filter would keep 1): the next offset is 3, and a full page continues.
  const offset = rt.createPaginator(
    {
      type: 'DefaultPaginator',
      pagination_strategy: { type: 'OffsetIncrement', page_size: 3 },
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
    },
    {},
    { recordExtractor: { type: 'DpathExtractor', field_path: ['data'] } },
  );
  assert.deepEqual(offset.nextPageToken(res({ data: [{ id: 1 }, { id: 2 }, { id: 3 }] }), 1, { id: 3 }, null), { next_page_token: 3 });
  const page = rt.createPaginator(
    {
      type: 'DefaultPaginator',
      pagination_strategy: { type: 'PageIncrement', page_size: 3 },
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
    },
    {},
    { recordExtractor: { type: 'DpathExtractor', field_path: ['data'] } },
  );
  assert.deepEqual(page.nextPageToken(res({ data: [{ id: 1 }, { id: 2 }, { id: 3 }] }), 1, { id: 3 }, null), { next_page_token: 1 });
  // Cursor: the template sees what the page loop passes (post-filter), not the raw body count.
  const api = await startLoopback((req, res) =>
    json(res, {
      data: req.url.includes('after')
        ? [{ id: 9, keep: true }]
        : [
            { id: 1, keep: true },
            { id: 2, keep: false },
          ],
    }),
  );
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selector(['data'], { record_filter: { type: 'RecordFilter', condition: '{{ record.keep }}' } }),
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'after' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: '{{ last_record.id }}-{{ last_page_size }}',
          stop_condition: "{{ 'after' in headers.get('x-done', '') }}",
        },
      },
    });
    await rt.testRead(m, {}, 'items', { maxPagesPerSlice: 2 });
    assert.equal(api.requests[1].url, '/items?after=1-1');
  } finally {
    await api.close();
  }
});

test('§13 next offset = previous offset + records returned; the first token without injection is the first page count', () => {
  const p = rt.createPaginator(
    {
      type: 'DefaultPaginator',
      pagination_strategy: { type: 'OffsetIncrement', page_size: 10 },
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
    },
    {},
    { recordExtractor: { type: 'DpathExtractor', field_path: [] } },
  );
  assert.equal(p.initialToken(), null);
  const ten = res(Array.from({ length: 10 }, (_, i) => ({ id: i })));
  // The paginator wraps the strategy's token as the reference does: {next_page_token: value}.
  assert.deepEqual(p.nextPageToken(ten, 10, { id: 9 }, null), { next_page_token: 10 });
  assert.deepEqual(p.nextPageToken(ten, 10, { id: 9 }, 10), { next_page_token: 20 });
  assert.equal(p.nextPageToken(res([{ id: 1 }]), 1, { id: 1 }, 20), null);
});

test('§13 a falsy token (0, "", null) stops pagination', () => {
  for (const value of [0, '', null]) {
    const p = rt.createPaginator(
      {
        type: 'DefaultPaginator',
        pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}' },
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'c' },
      },
      {},
    );
    assert.equal(p.nextPageToken(res({ next: value }), 1, { id: 1 }, null), null, JSON.stringify(value));
  }
});

test('§13 CursorPagination: response is the first decoded element; headers.link is the parsed Link map; header keys are case-sensitive', () => {
  const strategy = (cursor: string) => rt.createPaginationStrategy({ type: 'CursorPagination', cursor_value: cursor }, {});
  assert.equal(strategy('{{ response.next }}').nextPageToken(res([{ next: 'first' }, { next: 'second' }]), 2, null, null), 'first');
  const link = '<https://api.example.com/v1/items?page=2>; rel="next", <https://api.example.com/v1/items?page=9>; rel="last"';
  assert.equal(
    strategy("{{ headers['link']['next']['url'] }}").nextPageToken(res([], { Link: link }), 0, null, null),
    'https://api.example.com/v1/items?page=2',
  );
  assert.equal(strategy("{{ headers['X-Next'] }}").nextPageToken(res([], { 'X-Next': 'abc' }), 0, null, null), 'abc');
  assert.equal(strategy("{{ headers.get('x-next') }}").nextPageToken(res([], { 'X-Next': 'abc' }), 0, null, null), null);
});

test('§13 RequestPath tokens follow URL-reference rules; query params are de-duplicated only for the same key and value', async () => {
  const api = await startLoopback((req, res, base) => {
    const hop = req.url;
    if (hop === '/v1/items?limit=50') return json(res, { data: [{ id: 1 }], next: `${base}/v1/items?limit=50&cursor=abc` });
    if (hop === '/v1/items?limit=50&cursor=abc') return json(res, { data: [{ id: 2 }], next: '/v2/other?limit=10' });
    return json(res, { data: [{ id: 3 }], next: null });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/v1/items`, request_parameters: { limit: '50' } },
      record_selector: selector(),
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestPath' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: "{{ response.get('next') }}",
          stop_condition: "{{ response.get('next') is none }}",
        },
      },
    });
    await rt.testRead(m, {}, 'items');
    // Same key, same value: not repeated; same key, other value (limit=10 vs 50): both kept.
    assert.deepEqual(
      api.requests.map((r) => r.url),
      ['/v1/items?limit=50', '/v1/items?limit=50&cursor=abc', '/v2/other?limit=10&limit=50'],
    );
  } finally {
    await api.close();
  }
});

test('§13 the page size option is injected on every request, the page token option only when a token exists', () => {
  const p = rt.createPaginator(
    {
      type: 'DefaultPaginator',
      page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
      pagination_strategy: { type: 'PageIncrement', page_size: 25 },
    },
    {},
  );
  assert.deepEqual(p.requestOptions(null).request_parameters, { limit: 25 });
  assert.deepEqual(p.requestOptions({ next_page_token: 2 }).request_parameters, { page: 2, limit: 25 });
});

test('§13 test reads stop after max_pages_per_slice pages per slice and max_slices slices', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [{ id: 1 }, { id: 2 }] }));
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: selector(),
      partition_router: {
        type: 'ListPartitionRouter',
        values: ['a', 'b', 'c', 'd'],
        cursor_field: 'part',
        request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'part' },
      },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 2 },
      },
    });
    const r: StreamRead = await rt.testRead(m, {}, 'items', { maxPagesPerSlice: 3, maxSlices: 2, maxRecords: 1000 });
    assert.equal(r.slices.length, 2);
    assert.deepEqual(
      r.slices.map((s) => s.pages.length),
      [3, 3],
    );
    assert.equal(api.requests.length, 6);
    assert.equal(r.test_read_limit_reached, true);
  } finally {
    await api.close();
  }
});

// ---------------------------------------------------------------------------------------------- Authentication

const oauthBase = {
  type: 'OAuthAuthenticator',
  token_refresh_endpoint: 'https://auth.example.com/oauth/token',
  client_id: 'abc',
  client_secret: 's3cr3t',
};

test('§13 OAuth refresh body: form-encoded, repeated `scopes`, credentials omitted under an Authorization refresh header, extras never override, nulls omitted', async () => {
  const t = scripted([() => res({ access_token: 'T', expires_in: 3600 }), () => res({ access_token: 'T', expires_in: 3600 })]);
  await rt
    .createAuthenticator(
      {
        ...oauthBase,
        grant_type: 'client_credentials',
        scopes: ['read', 'write'],
        refresh_request_body: { audience: 'api', grant_type: 'override', nothing: null },
      },
      {},
      {},
      { fetch: t.fetch },
    )
    .authenticate();
  assert.equal(t.seen[0].headers['Content-Type'] ?? t.seen[0].headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(t.seen[0].body, 'grant_type=client_credentials&client_id=abc&client_secret=s3cr3t&scopes=read&scopes=write&audience=api');
  await rt
    .createAuthenticator(
      { ...oauthBase, grant_type: 'client_credentials', refresh_request_headers: { Authorization: 'Basic eHg6eXk=' } },
      {},
      {},
      { fetch: t.fetch },
    )
    .authenticate();
  assert.equal(t.seen[1].body, 'grant_type=client_credentials');
});

test('§13 OAuth: no expiry margin (refresh only when now > expiry); without access_token_value the first request refreshes; expires_in is seconds unless token_expiry_date_format', async () => {
  let now = new Date('2024-01-01T00:00:00Z');
  const t = scripted([() => res({ access_token: 'T1', expires_in: 100 }), () => res({ access_token: 'T2', expires_in: 100 })]);
  const auth = rt.createAuthenticator({ ...oauthBase, refresh_token: 'r' }, {}, {}, { fetch: t.fetch, now: () => now });
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer T1');
  now = new Date('2024-01-01T00:01:40Z'); // exactly at expiry: still valid
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer T1');
  now = new Date('2024-01-01T00:01:41Z');
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer T2');
  assert.equal(t.seen.length, 2);
  // A date in expires_in with a token_expiry_date_format whose content does not matter.
  now = new Date('2024-01-01T00:00:00Z');
  const d = scripted([
    () => res({ access_token: 'D1', expires_in: '2024-01-01T10:00:00Z' }),
    () => res({ access_token: 'D2', expires_in: '2024-01-02T10:00:00Z' }),
  ]);
  const dated = rt.createAuthenticator(
    { ...oauthBase, refresh_token: 'r', token_expiry_date_format: 'whatever' },
    {},
    {},
    { fetch: d.fetch, now: () => now },
  );
  await dated.authenticate();
  now = new Date('2024-01-01T09:59:59Z');
  await dated.authenticate();
  assert.equal(d.seen.length, 1);
  now = new Date('2024-01-01T10:00:01Z');
  assert.equal((await dated.authenticate()).request_headers.Authorization, 'Bearer D2');
});

test('§13 OAuth: access token and expiry are found by a recursive key search', async () => {
  const t = scripted([() => res({ data: { session: { access_token: 'NESTED', expires_in: 60 } } })]);
  const parts = await rt
    .createAuthenticator({ ...oauthBase, refresh_token: 'r' }, {}, {}, { fetch: t.fetch, now: frozen('2024-01-01T00:00:00Z') })
    .authenticate();
  assert.equal(parts.request_headers.Authorization, 'Bearer NESTED');
});

test('§13 OAuth: the refresh request retries 429/5xx/network on its own policy, even in a test read that disables retries', async () => {
  let calls = 0;
  const waits: number[] = [];
  const fetch = async (req: HttpRequest) => {
    if (req.url.includes('oauth')) {
      calls++;
      if (calls === 1) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
      if (calls === 2) return { status: 429, headers: {}, body: '{}' };
      if (calls === 3) return { status: 503, headers: {}, body: '{}' };
      return res({ access_token: 'T', expires_in: 3600 });
    }
    return res({ data: [{ id: 1 }] });
  };
  const m = manifestWith({
    requester: { type: 'HttpRequester', url: 'https://api.example.com/items', authenticator: { ...oauthBase, refresh_token: 'r' } },
    record_selector: selector(),
  });
  const r: StreamRead = await rt.testRead(m, {}, 'items', undefined, {
    fetch,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  });
  assert.equal(calls, 4);
  assert.equal(waits.length, 3);
  assert.equal(r.slices[0].pages[0].records.length, 1);
});

test('§13 refresh_token_updater reads and writes tokens in the config and reports the full config as latest_config_update', async () => {
  const fetch = async (req: HttpRequest) =>
    req.url.includes('oauth') ? res({ access_token: 'NEW_ACCESS', refresh_token: 'NEW_REFRESH', expires_in: 3600 }) : res({ data: [] });
  const config = { credentials: { refresh_token: 'OLD_REFRESH', client_id: 'abc' }, other: 1 };
  const updates: Obj[] = [];
  const m = manifestWith({
    requester: {
      type: 'HttpRequester',
      url: 'https://api.example.com/items',
      authenticator: {
        ...oauthBase,
        refresh_token: "{{ config['credentials']['refresh_token'] }}",
        refresh_token_updater: { refresh_token_config_path: ['credentials', 'refresh_token'] },
      },
    },
    record_selector: selector(),
  });
  const r: StreamRead = await rt.testRead(m, config, 'items', undefined, {
    fetch,
    onConfigUpdate: (c: Obj) => updates.push(structuredClone(c)),
  });
  assert.equal((config.credentials as Obj).refresh_token, 'NEW_REFRESH');
  assert.equal(updates.length, 1);
  assert.equal((updates[0].credentials as Obj).refresh_token, 'NEW_REFRESH');
  assert.equal((updates[0].credentials as Obj).access_token, 'NEW_ACCESS'); // default access_token_config_path
  // The output itself never carries an obtained token (issue #5: nothing secret anywhere in the
  // output): latest_config_update has the config's shape with tokens masked; the real values reach
  // the caller through onConfigUpdate above, which is what the extension and the CLI write back.
  assert.equal((r.latest_config_update!.credentials as Obj).refresh_token, '****');
  assert.equal(r.latest_config_update?.other, 1);
  // A token response that rotates the refresh token but then cannot be used still hands the new
  // refresh token back: it is the only copy left.
  const broken = { credentials: { refresh_token: 'OLD' } };
  const saved: Obj[] = [];
  const failing = async (req: HttpRequest) =>
    req.url.includes('oauth') ? res({ refresh_token: 'ROTATED', expires_in: 3600 }) : res({ data: [] });
  const r2: StreamRead = await rt.testRead({ ...m }, broken, 'items', undefined, {
    fetch: failing,
    onConfigUpdate: (c: Obj) => saved.push(structuredClone(c)),
  });
  assert.equal(saved.length, 1);
  assert.equal((saved[0].credentials as Obj).refresh_token, 'ROTATED');
  assert.ok(r2.logs.some((l) => l.level === 'ERROR' && /access_token/.test(l.message)));
});

test('§13 JWT: iat/nbf = now, exp = now + token_duration (1200), sorted header keys, bare Authorization unless header_prefix', async () => {
  const env = { now: frozen('2023-11-14T22:13:20Z') }; // Unix 1700000000
  const parts = await rt
    .createAuthenticator(
      { type: 'JwtAuthenticator', secret_key: 'test', algorithm: 'HS256', jwt_payload: { iss: 'my-issuer', aud: 'api' } },
      {},
      {},
      env,
    )
    .authenticate();
  assert.equal(
    parts.request_headers.Authorization,
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJteS1pc3N1ZXIiLCJhdWQiOiJhcGkiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMTIwMCwibmJmIjoxNzAwMDAwMDAwfQ.J_d5nmIk9Y0zXxtOfLV5p-qPdffpb5G5izcbQ9FKgvA',
  );
  const prefixed = await rt
    .createAuthenticator(
      { type: 'JwtAuthenticator', secret_key: 'test', algorithm: 'HS256', header_prefix: 'Bearer', jwt_headers: { kid: 'k1' } },
      {},
      {},
      env,
    )
    .authenticate();
  const [header] = String(prefixed.request_headers.Authorization)
    .replace(/^Bearer /, '')
    .split('.');
  assert.deepEqual(Object.keys(JSON.parse(Buffer.from(header, 'base64url').toString())), ['alg', 'kid', 'typ']);
  assert.match(String(prefixed.request_headers.Authorization), /^Bearer ey/);
});

test('§13 duplicate header keys between request_headers and the authenticator are an error, not an override', async () => {
  const m = manifestWith({
    requester: {
      type: 'HttpRequester',
      url: 'https://api.example.com/items',
      request_headers: { Authorization: 'mine' },
      authenticator: { type: 'BearerAuthenticator', api_token: 'tok' },
    },
    record_selector: selector(),
  });
  const t = scripted([() => res({ data: [] })]);
  const r: StreamRead = await rt.testRead(m, {}, 'items', undefined, { fetch: t.fetch });
  assert.equal(t.seen.length, 0);
  const error = r.logs.find((l) => l.level === 'ERROR');
  assert.ok(error && /Authorization/.test(error.message), JSON.stringify(r.logs));
  assert.ok(!/tok\b/.test(error.message));
});

test('§13 session token without expiration_duration logs in on every token read', async () => {
  let logins = 0;
  const fetch = async (req: HttpRequest) => {
    if (req.url.endsWith('/login')) return res({ token: `s${++logins}` });
    return res({ data: [{ id: 1 }] });
  };
  const auth = rt.createAuthenticator(
    {
      type: 'SessionTokenAuthenticator',
      login_requester: { type: 'HttpRequester', url: 'https://api.example.com/login', http_method: 'POST' },
      session_token_path: ['token'],
      request_authentication: { type: 'Bearer' },
    },
    {},
    {},
    { fetch },
  );
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer s1');
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer s2');
  assert.equal(logins, 2);
});

// ---------------------------------------------------------------------------------------------- Test read output

test('§13 the slice descriptor of an unpartitioned stream is the string "{}"', async () => {
  const t = scripted([() => res({ data: [{ id: 1 }] })]);
  const r: StreamRead = await rt.testRead(
    manifestWith({ requester: { type: 'HttpRequester', url: 'https://api.example.com/items' }, record_selector: selector() }),
    {},
    'items',
    undefined,
    { fetch: t.fetch },
  );
  assert.equal(r.slices[0].slice_descriptor, '{}');
});

test('§13 test_read_limit_reached uses >= on slices, pages per slice and cumulative records', async () => {
  const read = async (limits: Obj, pages: number, perPage: number) => {
    let n = 0;
    const fetch = async () => res({ data: Array.from({ length: perPage }, () => ({ id: n++ })) });
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: 'https://api.example.com/items' },
      record_selector: selector(),
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: '{{ last_record.id }}',
          stop_condition: `{{ last_record.id >= ${pages * perPage - 1} }}`,
        },
      },
    });
    return (await rt.testRead(m, {}, 'items', limits, { fetch })) as StreamRead;
  };
  assert.equal((await read({ maxPagesPerSlice: 5 }, 5, 2)).test_read_limit_reached, true); // exactly 5 of 5 pages
  assert.equal((await read({ maxPagesPerSlice: 5 }, 4, 2)).test_read_limit_reached, false);
  assert.equal((await read({ maxRecords: 8 }, 4, 2)).test_read_limit_reached, true); // exactly 8 records
  assert.equal((await read({ maxRecords: 9 }, 4, 2)).test_read_limit_reached, false);
  assert.equal((await read({ maxSlices: 1 }, 1, 2)).test_read_limit_reached, true); // one slice of one allowed
});

test('§13 auxiliary requests: OAuth/login at the top level typed AUTH; parent pages titled "Parent stream: " typed PARENT_STREAM', async () => {
  const fetch = async (req: HttpRequest) => {
    if (req.url.includes('oauth')) return res({ access_token: 'T', expires_in: 3600 });
    if (req.url.endsWith('/parents')) return res({ data: [{ id: 'p1' }] });
    return res({ data: [{ id: 1 }] });
  };
  const requester = (url: string) => ({ type: 'HttpRequester', url, authenticator: { ...oauthBase, refresh_token: 'r' } });
  const parent = {
    type: 'DeclarativeStream',
    name: 'parents',
    primary_key: ['id'],
    retriever: { type: 'SimpleRetriever', requester: requester('https://api.example.com/parents'), record_selector: selector() },
  };
  const m = manifestWith({
    requester: requester("https://api.example.com/parents/{{ stream_partition['parent_id'] }}/items"),
    record_selector: selector(),
    partition_router: {
      type: 'SubstreamPartitionRouter',
      parent_stream_configs: [{ type: 'ParentStreamConfig', stream: parent, parent_key: 'id', partition_field: 'parent_id' }],
    },
  });
  const r: StreamRead = await rt.testRead(m, {}, 'items', undefined, { fetch });
  const auth = r.auxiliary_requests.filter((a) => a.type === 'AUTH');
  const parents = r.auxiliary_requests.filter((a) => a.type === 'PARENT_STREAM');
  assert.ok(auth.length >= 1, JSON.stringify(r.auxiliary_requests.map((a) => a.title)));
  assert.ok(
    parents.length >= 1 && parents.every((a) => a.title.startsWith('Parent stream: ')),
    JSON.stringify(r.auxiliary_requests.map((a) => a.title)),
  );
  assert.equal(r.slices[0].pages[0].request?.url, 'https://api.example.com/parents/p1/items');
});

test('§13 secrets (airbyte_secret values and obtained access tokens) are masked as **** in every logged request and response', async () => {
  const fetch = async (req: HttpRequest) =>
    req.url.includes('oauth')
      ? res({ access_token: 'OBTAINED_TOKEN_1', expires_in: 3600 })
      : res({ data: [{ id: 1, echo: 'OBTAINED_TOKEN_1 s3cr3t-value' }] });
  const m = {
    ...manifestWith({
      requester: {
        type: 'HttpRequester',
        url: 'https://api.example.com/items',
        authenticator: { ...oauthBase, client_secret: "{{ config['secret'] }}", refresh_token: 'r' },
      },
      record_selector: selector(),
    }),
    spec: { type: 'Spec', connection_specification: { type: 'object', properties: { secret: { type: 'string', airbyte_secret: true } } } },
  };
  const r: StreamRead = await rt.testRead(m, { secret: 's3cr3t-value' }, 'items', undefined, { fetch });
  const logged = JSON.stringify([r.slices.map((s) => s.pages.map((p) => [p.request, p.response])), r.auxiliary_requests, r.logs]);
  assert.ok(!logged.includes('OBTAINED_TOKEN_1'));
  assert.ok(!logged.includes('s3cr3t-value'));
  assert.ok(logged.includes('****'));
});

test('§13 max_records is reported by the reference, not enforced; this editor stops at it and says so through test_read_limit_reached', async () => {
  let n = 0;
  const fetch = async () => res({ data: Array.from({ length: 10 }, () => ({ id: n++ })) });
  const m = manifestWith({
    requester: { type: 'HttpRequester', url: 'https://api.example.com/items' },
    record_selector: selector(),
    paginator: {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
      pagination_strategy: { type: 'PageIncrement', page_size: 10 },
    },
  });
  const r: StreamRead = await rt.testRead(m, {}, 'items', { maxRecords: 15 }, { fetch });
  const records = r.slices.flatMap((s) => s.pages.flatMap((p) => p.records));
  assert.ok(records.length >= 15);
  assert.equal(r.test_read_limit_reached, true);
});

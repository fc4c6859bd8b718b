// HttpRequester request building (§4.2-§4.5) with a scripted fetch: URL joining, option merging,
// collisions, bodies, serialisation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpRequester } from '../../../server/src/runtime/http/requester';
import { emptySlice } from '../../../server/src/runtime/records/streamSlice';
import type { HttpRequest, RequestParts } from '../../../server/src/runtime/types';

const parts = (p: Partial<RequestParts>): RequestParts => ({
  path: null,
  request_parameters: {},
  request_headers: {},
  request_body_data: {},
  request_body_json: {},
  ...p,
});
const input = (retrieverParts: RequestParts[] = []) => ({ slice: emptySlice(), nextPageToken: null, retrieverParts });
const build = (component: object, retrieverParts: RequestParts[] = [], auth?: Partial<RequestParts>) =>
  createHttpRequester(
    { type: 'HttpRequester', ...component },
    {},
    auth ? { authenticator: { authenticate: async () => ({ ...parts(auth) }) } } : {},
  ).build(input(retrieverParts));

test('§4.2 URL joining table', async () => {
  const cases: [object, string | null, string][] = [
    [{ url_base: 'https://a.com/v1', path: 'users' }, null, 'https://a.com/v1/users'],
    [{ url_base: 'https://a.com/v1', path: '/users' }, null, 'https://a.com/v1/users'],
    [{ url_base: 'https://a.com/v1' }, '/users', 'https://a.com/users'],
    [{ url_base: 'https://a.com/v1/' }, 'https://b.com/x?y=1', 'https://b.com/x?y=1'],
    [{ url: 'https://a.com/v1/items' }, '?page=2', 'https://a.com/v1/items/?page=2'],
    [{ url_base: 'https://a.com/v1', path: '12345' }, null, 'https://a.com/v1/12345'],
    [{ url_base: 'https://a.com/v1' }, '//cdn.com/x', 'https://cdn.com/x'],
    [{ url: 'https://a.com/v1/items' }, null, 'https://a.com/v1/items'],
  ];
  for (const [component, token, expected] of cases) {
    const req = await build(component, token === null ? [] : [parts({ path: token })]);
    assert.equal(req.url, expected, JSON.stringify({ component, token }));
  }
});

test('query parameters merge in order requester → authenticator → paginator, and dedupe against the URL query (§4.3)', async () => {
  const req = await build(
    { url: 'https://a.com/items', request_parameters: { limit: '50' } },
    [parts({ request_parameters: { offset: 2 } })],
    { request_parameters: { api_key: 'k1' } },
  );
  assert.equal(req.url, 'https://a.com/items?limit=50&api_key=k1&offset=2');
  const deduped = await build({ url: 'https://a.com/items', request_parameters: { limit: '50' } }, [
    parts({ path: 'https://a.com/items?limit=50&cursor=abc' }),
  ]);
  assert.equal(deduped.url, 'https://a.com/items?limit=50&cursor=abc');
  const different = await build({ url: 'https://a.com/items', request_parameters: { limit: '50' } }, [
    parts({ path: 'https://a.com/items?limit=100' }),
  ]);
  assert.equal(different.url, 'https://a.com/items?limit=100&limit=50');
});

test('lists repeat keys, spaces encode as +, reserved characters are percent-encoded', async () => {
  const req = await build({ url: 'https://a.com/x' }, [parts({ request_parameters: { scopes: ['a b', 'c/d'], flag: true } })]);
  assert.equal(req.url, 'https://a.com/x?scopes=a+b&scopes=c%2Fd&flag=True');
});

test('duplicate keys between providers collide, even with equal values, also for headers (§4.5)', async () => {
  await assert.rejects(
    build({ url: 'https://a.com/x', request_headers: { Authorization: 'x' } }, [], { request_headers: { Authorization: 'Bearer t' } }),
    /Request body collision, duplicate keys detected at key path: Authorization\. Please ensure that all keys in the request are unique\./,
  );
  await assert.rejects(
    build({ url: 'https://a.com/x', request_parameters: { a: '1' } }, [parts({ request_parameters: { a: '1' } })]),
    /collision/,
  );
  // Header names are compared exactly: these do not collide.
  const ok = await build({ url: 'https://a.com/x', request_headers: { authorization: 'x' } }, [], {
    request_headers: { Authorization: 'y' },
  });
  assert.deepEqual(ok.headers, { authorization: 'x', Authorization: 'y' });
});

test('JSON bodies merge recursively, serialise like Python json.dumps and set Content-Type', async () => {
  const req = await build({ url: 'https://a.com/x', http_method: 'POST', request_body_json: { filter: { a: 1 }, list: [1, 2] } }, [
    parts({ request_body_json: { filter: { b: 'é' } } }),
  ]);
  assert.equal(req.body, '{"filter": {"a": 1, "b": "\\u00e9"}, "list": [1, 2]}');
  assert.equal(req.headers['Content-Type'], 'application/json');
  await assert.rejects(
    build({ url: 'https://a.com/x', request_body_json: { a: 1 } }, [parts({ request_body_json: { a: 2 } })]),
    /collision/,
  );
});

test('form bodies are urlencoded; a body is attached to GET too; form + JSON together is an error', async () => {
  const req = await build({ url: 'https://a.com/x', request_body_data: { q: 'a b', n: '5' } });
  assert.equal(req.method, 'GET');
  assert.equal(req.body, 'q=a+b&n=5');
  assert.equal(req.headers['Content-Type'], 'application/x-www-form-urlencoded');
  await assert.rejects(
    build({ url: 'https://a.com/x', request_body_data: { q: 'a' } }, [parts({ request_body_json: { b: 1 } })]),
    /only one of request_body_data and request_body_json/,
  );
  assert.throws(
    () =>
      createHttpRequester({ type: 'HttpRequester', url: 'https://a.com', request_body_data: { a: '1' }, request_body_json: { b: 1 } }, {}),
    /both request_body_data and request_body_json/,
  );
});

test('request_body variants: plain text, GraphQL with default query, JSON object', async () => {
  const text = await build({ url: 'https://a.com/x', http_method: 'POST', request_body: { type: 'RequestBodyPlainText', value: 'hello' } });
  assert.equal(text.body, 'hello');
  const gql = await build({
    url: 'https://a.com/x',
    http_method: 'POST',
    request_body: { type: 'RequestBodyGraphQL', value: { variables: { n: 1 } } },
  });
  assert.equal(gql.body, '{"query": "query {\\n    \\n}", "variables": {"n": 1}}');
  const obj = await build({
    url: 'https://a.com/x',
    http_method: 'POST',
    request_body: { type: 'RequestBodyJsonObject', value: { a: [1, null], b: null } },
  });
  assert.equal(obj.body, '{"a": [1, null]}');
});

test('header values are converted to text; config values are interpolated', async () => {
  const r = createHttpRequester(
    { type: 'HttpRequester', url: "{{ config['base'] }}/x", request_headers: { 'X-N': 5, 'X-Key': "{{ config['k'] }}" } },
    { base: 'https://a.com', k: 'v' },
  );
  const req: HttpRequest = await r.build(input());
  assert.equal(req.url, 'https://a.com/x');
  assert.deepEqual(req.headers, { 'X-N': '5', 'X-Key': 'v' });
});

test('REFRESH_TOKEN_THEN_RETRY forces the authenticator to refresh before the retry (§9.4)', async () => {
  const tokens = ['t1', 't2'];
  let current = tokens.shift()!;
  let invalidated = 0;
  const authenticator = {
    authenticate: async () => ({
      request_parameters: {},
      request_headers: { Authorization: `Bearer ${current}` },
      request_body_data: {},
      request_body_json: {},
    }),
    secrets: () => [],
    invalidate: () => {
      invalidated++;
      current = tokens.shift() ?? current;
    },
  };
  const seen: string[] = [];
  const fetch = async (req: HttpRequest) => {
    seen.push(req.headers.Authorization);
    return req.headers.Authorization === 'Bearer t1' ? { status: 401, headers: {}, body: '{}' } : { status: 200, headers: {}, body: '[]' };
  };
  const requester = createHttpRequester(
    {
      type: 'HttpRequester',
      url: 'https://a.com/x',
      error_handler: {
        type: 'DefaultErrorHandler',
        response_filters: [{ type: 'HttpResponseFilter', http_codes: [401], action: 'REFRESH_TOKEN_THEN_RETRY' }],
      },
    },
    {},
    { authenticator },
    { fetch, sleep: async () => undefined },
  );
  const exchange = await requester.send(input());
  assert.equal(exchange.response.status, 200);
  assert.equal(invalidated, 1);
  assert.deepEqual(seen, ['Bearer t1', 'Bearer t2']);
});

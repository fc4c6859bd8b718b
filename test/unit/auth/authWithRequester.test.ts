// Authenticators inside the runtime's HttpRequester with a scripted fetch: how their parts merge
// with the requester's own options, and the token request's independence from the stream's retries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthenticator } from '../../../server/src/runtime';
import { createHttpRequester } from '../../../server/src/runtime/http/requester';
import { emptySlice } from '../../../server/src/runtime/records/streamSlice';
import { frozenClock, json, scriptedFetch } from './helpers';

const input = { slice: emptySlice(), nextPageToken: null, retrieverParts: [] };
const oauth = {
  type: 'OAuthAuthenticator',
  token_refresh_endpoint: 'https://auth.example.com/token',
  grant_type: 'client_credentials',
  client_id: 'abc',
  client_secret: '{{ config.secret }}',
};

test('§12.7: the API key parameter comes after the requester parameters', async () => {
  const auth = createAuthenticator(
    {
      type: 'ApiKeyAuthenticator',
      api_token: '{{ config.key }}',
      inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'api_key' },
    },
    { key: 'k1' },
  );
  const requester = createHttpRequester(
    { type: 'HttpRequester', url: 'https://api.example.com/v1/items', request_parameters: { limit: '10' } },
    { key: 'k1' },
    { authenticator: auth },
  );
  assert.equal((await requester.build(input)).url, 'https://api.example.com/v1/items?limit=10&api_key=k1');
});

test('an Authorization header in request_headers collides with the authenticator (§4.5): an error, not an override', async () => {
  const auth = createAuthenticator({ type: 'BearerAuthenticator', api_token: 't' }, {});
  const requester = createHttpRequester(
    { type: 'HttpRequester', url: 'https://api.example.com/v1/items', request_headers: { Authorization: 'Bearer mine' } },
    {},
    { authenticator: auth },
  );
  await assert.rejects(requester.build(input), /collision/i);
});

test('the token request retries on its own while the data request has retries disabled (test read)', async () => {
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const http = scriptedFetch([json(503, {}), json(200, { access_token: 'TOK', expires_in: 60 }), json(200, { items: [] })]);
  const env = { ...clock.env, fetch: http.fetch };
  const auth = createAuthenticator(oauth, { secret: 's' }, {}, env);
  const requester = createHttpRequester(
    { type: 'HttpRequester', url: 'https://api.example.com/v1/items' },
    { secret: 's' },
    { authenticator: auth, disableRetries: true },
    env,
  );
  const exchange = await requester.send(input);
  assert.equal(exchange.response.status, 200);
  assert.equal(exchange.request.headers.Authorization, 'Bearer TOK');
  assert.deepEqual(
    http.requests.map((r) => r.url),
    ['https://auth.example.com/token', 'https://auth.example.com/token', 'https://api.example.com/v1/items'],
  );
});

test('a refresh header claiming JSON does not change the form body (§6.7.2)', async () => {
  const http = scriptedFetch([json(200, { access_token: 'T' })]);
  await createAuthenticator(
    { ...oauth, refresh_request_headers: { 'Content-Type': 'application/json' } },
    { secret: 's' },
    {},
    { fetch: http.fetch },
  ).authenticate();
  assert.equal(http.requests[0].headers['Content-Type'], 'application/json');
  assert.equal(http.requests[0].body, 'grant_type=client_credentials&client_id=abc&client_secret=s');
});

test('a failing token endpoint fails the data request with its status, and the secret stays out of the message', async () => {
  const http = scriptedFetch([json(401, { error: 'invalid_client', error_description: 'bad secret' })]);
  const auth = createAuthenticator(oauth, { secret: 'TOPSECRET' }, {}, { fetch: http.fetch });
  const requester = createHttpRequester(
    { type: 'HttpRequester', url: 'https://api.example.com/v1/items' },
    {},
    { authenticator: auth },
    { fetch: http.fetch },
  );
  await assert.rejects(requester.send(input), (err: Error & { failureType: string; status: number }) => {
    // The reference re-raises requests' HTTPError, which a read reports as a system error.
    assert.equal(err.failureType, 'system_error');
    assert.equal(err.status, 401);
    assert.match(err.message, /^401 Client Error: Unauthorized for url: https:\/\/auth\.example\.com\/token/);
    assert.match(err.message, /invalid_client: bad secret/);
    assert.ok(!err.message.includes('TOPSECRET'));
    return true;
  });
  assert.equal(http.requests.length, 1, 'no data request after a failed refresh');
});

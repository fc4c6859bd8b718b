import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthenticator } from '../../../server/src/runtime';
import type { AuxiliaryRequest } from '../../../server/src/runtime/types';
import { frozenClock, json, scriptedFetch } from './helpers';

const example = {
  type: 'SessionTokenAuthenticator',
  login_requester: {
    type: 'HttpRequester',
    url: 'https://api.example.com/v1/login',
    http_method: 'POST',
    request_body: { type: 'RequestBodyJsonObject', value: { user: '{{ config.user }}', pass: '{{ config.password }}' } },
  },
  session_token_path: ['data', 'token'],
  expiration_duration: 'PT1H',
  request_authentication: {
    type: 'ApiKey',
    inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Session' },
    api_token: 'Token {{ session_token }}',
  },
};

test('§12.8: one POST login with a JSON body, X-Session header, no new login for an hour', async () => {
  const clock = frozenClock('2024-05-01T12:00:00Z');
  const http = scriptedFetch([json(200, { data: { token: 'S1' } }), json(200, { data: { token: 'S2' } })]);
  const aux: AuxiliaryRequest[] = [];
  const auth = createAuthenticator(
    example,
    { user: 'ann', password: 'pw' },
    { onAuxiliaryRequest: (e) => aux.push(e) },
    { ...clock.env, fetch: http.fetch },
  );
  assert.deepEqual((await auth.authenticate()).request_headers, { 'X-Session': 'Token S1' });
  const [login] = http.requests;
  assert.equal(login.method, 'POST');
  assert.equal(login.url, 'https://api.example.com/v1/login');
  assert.equal(login.body, '{"user": "ann", "pass": "pw"}');
  assert.equal(login.headers['Content-Type'], 'application/json');
  clock.advance(3600);
  await auth.authenticate();
  assert.equal(http.requests.length, 1);
  clock.advance(1);
  assert.deepEqual((await auth.authenticate()).request_headers, { 'X-Session': 'Token S2' });
  assert.equal(aux.length, 2);
  assert.equal(aux[0].title, 'Login request');
  assert.equal(aux[0].description, 'Obtains session token');
  assert.equal(aux[0].response?.body, '{"data":{"token":"****"}}');
  assert.deepEqual(auth.secrets(), ['S1', 'S2']);
});

test('without expiration_duration every token read logs in, twice per sent request with a header token (the reference computes the header twice); Bearer injection; the login has its own authenticator', async () => {
  const http = scriptedFetch([
    json(200, [{ token: 'A' }]),
    json(200, [{ token: 'B' }]),
    json(200, [{ token: 'C' }]),
    json(200, [{ token: 'D' }]),
  ]);
  const auth = createAuthenticator(
    {
      type: 'SessionTokenAuthenticator',
      login_requester: {
        type: 'HttpRequester',
        url_base: 'https://api.example.com/v1',
        path: '/session',
        request_parameters: { mode: 'token' },
        authenticator: { type: 'BasicHttpAuthenticator', username: 'u', password: 'p' },
      },
      session_token_path: ['token'],
      request_authentication: { type: 'Bearer' },
    },
    {},
    {},
    { fetch: http.fetch },
  );
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer A');
  assert.equal(http.requests.length, 1);
  assert.equal((await auth.authenticate({ sending: true })).request_headers.Authorization, 'Bearer C');
  assert.equal(http.requests.length, 3);
  assert.equal(http.requests[0].url, 'https://api.example.com/v1/session?mode=token');
  assert.equal(http.requests[0].method, 'GET');
  assert.equal(http.requests[0].headers.Authorization, 'Basic dTpw');
});

test('without expiration_duration a token injected as a query parameter logs in once per request (only header tokens are computed twice)', async () => {
  const http = scriptedFetch([json(200, { token: 'A' }), json(200, { token: 'B' })]);
  const auth = createAuthenticator(
    {
      type: 'SessionTokenAuthenticator',
      login_requester: { type: 'HttpRequester', url: 'https://api.example.com/v1/session', http_method: 'POST' },
      session_token_path: ['token'],
      request_authentication: {
        type: 'ApiKey',
        inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'session' },
      },
    },
    {},
    {},
    { fetch: http.fetch },
  );
  assert.deepEqual((await auth.authenticate({ sending: true })).request_parameters, { session: 'A' });
  assert.deepEqual((await auth.authenticate({ sending: true })).request_parameters, { session: 'B' });
  assert.equal(http.requests.length, 2);
});

test('calendar-aware expiry: P1M from January 31st lasts until February 29th', async () => {
  const clock = frozenClock('2024-01-31T00:00:00Z');
  const http = scriptedFetch([json(200, { data: { token: 'A' } }), json(200, { data: { token: 'B' } })]);
  const auth = createAuthenticator({ ...example, expiration_duration: 'P1M' }, {}, {}, { ...clock.env, fetch: http.fetch });
  await auth.authenticate();
  clock.advance(29 * 86400);
  await auth.authenticate();
  assert.equal(http.requests.length, 1);
  clock.advance(1);
  await auth.authenticate();
  assert.equal(http.requests.length, 2);
});

test('login failures: missing token path, 401, ignored response, invalid duration', async () => {
  await assert.rejects(
    createAuthenticator(example, {}, {}, { fetch: scriptedFetch([json(200, { data: {} })]).fetch }).authenticate(),
    /no value at session_token_path/,
  );
  await assert.rejects(createAuthenticator(example, {}, {}, { fetch: scriptedFetch([json(401, { error: 'bad' })]).fetch }).authenticate(), {
    failureType: 'config_error',
    status: 401,
  });
  const ignoring = {
    ...example,
    login_requester: {
      ...example.login_requester,
      error_handler: {
        type: 'DefaultErrorHandler',
        response_filters: [{ type: 'HttpResponseFilter', http_codes: [418], action: 'IGNORE' }],
      },
    },
  };
  await assert.rejects(
    createAuthenticator(ignoring, {}, {}, { fetch: scriptedFetch([json(418, {})]).fetch }).authenticate(),
    /Failed to get session token/,
  );
  assert.throws(() => createAuthenticator({ ...example, expiration_duration: '1 hour' }, {}), {
    failureType: 'config_error',
    message: /ISO 8601 duration/,
  });
  assert.throws(() => createAuthenticator({ ...example, request_authentication: { type: 'ApiKey' } }, {}), /requires inject_into/);
});

test('the login requester retries a 5xx through env.sleep', async () => {
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const http = scriptedFetch([json(503, {}), json(200, { data: { token: 'A' } })]);
  const auth = createAuthenticator(example, {}, {}, { ...clock.env, fetch: http.fetch });
  assert.deepEqual((await auth.authenticate()).request_headers, { 'X-Session': 'Token A' });
  assert.deepEqual(clock.sleeps, [1000]);
});

test('with disableRetries (test reads) the login requester does not retry', async () => {
  const http = scriptedFetch([json(503, {})]);
  await assert.rejects(
    createAuthenticator(example, {}, { disableRetries: true }, { fetch: http.fetch, sleep: async () => undefined }).authenticate(),
    {
      failureType: 'transient_error',
      status: 503,
    },
  );
  assert.equal(http.requests.length, 1);
});

test('LegacySessionToken: a stored token rejected with 401 leads to a login, cached afterwards', async () => {
  const http = scriptedFetch([{ status: 401, headers: {}, body: '' }, json(200, { token: 'L1' })]);
  const auth = createAuthenticator(
    {
      type: 'LegacySessionTokenAuthenticator',
      header: 'X-Auth',
      login_url: 'session',
      validate_session_url: 'me',
      session_token_response_key: 'token',
      session_token: '{{ config.old }}',
      username: '{{ config.user }}',
      password: '{{ config.password }}',
    },
    { old: 'stale', user: 'u', password: 'p' },
    { urlBase: 'https://api.example.com/' },
    { fetch: http.fetch },
  );
  assert.deepEqual((await auth.authenticate()).request_headers, { 'X-Auth': 'L1' });
  assert.equal(http.requests[0].url, 'https://api.example.com/me');
  assert.equal(http.requests[0].headers['X-Auth'], 'stale');
  assert.equal(http.requests[1].url, 'https://api.example.com/session');
  assert.equal(http.requests[1].body, '{"username": "u", "password": "p"}');
  const again = scriptedFetch([{ status: 401, headers: {}, body: '' }]);
  await assert.rejects(
    createAuthenticator(
      { type: 'LegacySessionTokenAuthenticator', header: 'X', login_url: 'l', validate_session_url: 'v', session_token_response_key: 't' },
      {},
      {},
      { fetch: again.fetch },
    ).authenticate(),
    /Invalid credentials/,
  );
});

test('RateLimitedMultipleToken rotates its tokens round-robin', async () => {
  const auth = createAuthenticator(
    { type: 'RateLimitedMultipleTokenAuthenticator', tokens: '{{ config.tokens }}', quota_status_source: {}, quotas: [] },
    { tokens: 'a,b' },
  );
  const seen = [];
  for (let i = 0; i < 3; i++) seen.push((await auth.authenticate()).request_headers.Authorization);
  assert.deepEqual(seen, ['Bearer a', 'Bearer b', 'Bearer a']);
});

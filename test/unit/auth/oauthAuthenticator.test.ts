import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthenticator } from '../../../server/src/runtime';
import type { AuxiliaryRequest } from '../../../server/src/runtime/types';
import { frozenClock, json, networkError, scriptedFetch } from './helpers';

const clientCredentials = {
  type: 'OAuthAuthenticator',
  token_refresh_endpoint: 'https://auth.example.com/oauth/token',
  grant_type: 'client_credentials',
  client_id: "{{ config['client_id'] }}",
  client_secret: "{{ config['client_secret'] }}",
  scopes: ['read', 'write'],
  refresh_request_body: { audience: 'api' },
};
const creds = { client_id: 'abc', client_secret: 's3cr3t' };

test('client-credentials refresh request of §12.5, then Bearer until now > expiry (no margin)', async () => {
  const clock = frozenClock('2024-05-01T12:00:00Z');
  const http = scriptedFetch([json(200, { access_token: 'T', expires_in: 3600 }), json(200, { access_token: 'T2', expires_in: 3600 })]);
  const auth = createAuthenticator(clientCredentials, creds, {}, { ...clock.env, fetch: http.fetch });
  assert.deepEqual((await auth.authenticate()).request_headers, { Authorization: 'Bearer T' });
  assert.equal(http.requests.length, 1);
  const [req] = http.requests;
  assert.equal(req.method, 'POST');
  assert.equal(req.url, 'https://auth.example.com/oauth/token');
  assert.equal(req.headers['Content-Type'], 'application/x-www-form-urlencoded');
  assert.equal(req.body, 'grant_type=client_credentials&client_id=abc&client_secret=s3cr3t&scopes=read&scopes=write&audience=api');
  clock.advance(3600);
  await auth.authenticate();
  assert.equal(http.requests.length, 1, 'exactly at expiry the token is still used');
  clock.advance(1);
  assert.deepEqual((await auth.authenticate()).request_headers, { Authorization: 'Bearer T2' });
  assert.equal(http.requests.length, 2);
  assert.deepEqual(auth.secrets(), ['T', 'T2']);
});

test('an Authorization refresh header removes the client credentials from the body; extras never override', async () => {
  const http = scriptedFetch([json(200, { access_token: 'T' })]);
  const component = {
    ...clientCredentials,
    refresh_request_headers: { Authorization: 'Basic YWJjOnMzY3IzdA==' },
    refresh_request_body: { audience: 'api', grant_type: 'ignored' },
  };
  await createAuthenticator(component, creds, {}, { fetch: http.fetch }).authenticate();
  assert.equal(http.requests[0].body, 'grant_type=client_credentials&scopes=read&scopes=write&audience=api');
  assert.equal(http.requests[0].headers.Authorization, 'Basic YWJjOnMzY3IzdA==');
});

test('refresh_token grant with property-name overrides and a nested response', async () => {
  const http = scriptedFetch([json(200, { data: { result: { tok: 'A1', ttl: '60' } } }), json(200, { tok: 'A2', ttl: 60 })]);
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const auth = createAuthenticator(
    {
      type: 'OAuthAuthenticator',
      token_refresh_endpoint: 'https://auth.example.com/token',
      client_id: 'id',
      client_secret: 'sec',
      refresh_token: '{{ config.rt }}',
      client_id_name: 'app_id',
      client_secret_name: 'app_secret',
      refresh_token_name: 'rt',
      grant_type_name: 'gt',
      access_token_name: 'tok',
      expires_in_name: 'ttl',
    },
    { rt: 'r 1' },
    {},
    { ...clock.env, fetch: http.fetch },
  );
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer A1');
  assert.equal(http.requests[0].body, 'gt=refresh_token&app_id=id&app_secret=sec&rt=r+1');
  clock.advance(60);
  await auth.authenticate();
  assert.equal(http.requests.length, 1);
  clock.advance(1);
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer A2', 'the 60 s expiry was parsed from a numeric string');
});

test('a static access token without endpoint is used forever; a valid access_token_value delays the refresh', async () => {
  const none = scriptedFetch([]);
  const fixed = createAuthenticator(
    { type: 'OAuthAuthenticator', client_id: 'a', client_secret: 'b', grant_type: 'x', access_token_value: 'static' },
    {},
    {},
    { fetch: none.fetch },
  );
  assert.equal((await fixed.authenticate()).request_headers.Authorization, 'Bearer static');
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const http = scriptedFetch([json(200, { access_token: 'new', expires_in: 10 })]);
  const held = createAuthenticator(
    { ...clientCredentials, access_token_value: 'held', token_expiry_date: '2024-05-01T01:00:00Z' },
    creds,
    {},
    { ...clock.env, fetch: http.fetch },
  );
  assert.equal((await held.authenticate()).request_headers.Authorization, 'Bearer held');
  clock.advance(3601);
  assert.equal((await held.authenticate()).request_headers.Authorization, 'Bearer new');
});

test('token_expiry_date_format makes expires_in an absolute date; without it a date is an error', async () => {
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const http = scriptedFetch([json(200, { access_token: 'T', expires_in: '2024-05-01 00:10:00' })]);
  const auth = createAuthenticator(
    { ...clientCredentials, token_expiry_date_format: 'ignored' },
    creds,
    {},
    { ...clock.env, fetch: http.fetch },
  );
  await auth.authenticate();
  clock.advance(600);
  await auth.authenticate();
  assert.equal(http.requests.length, 1);
  const bad = scriptedFetch([json(200, { access_token: 'T', expires_in: '2024-05-01' })]);
  await assert.rejects(
    createAuthenticator(clientCredentials, creds, {}, { fetch: bad.fetch }).authenticate(),
    /number of seconds was expected/,
  );
});

test('the refresh request retries 5xx, 429 and network errors with its own back-off through env.sleep', async () => {
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const http = scriptedFetch([json(503, {}), networkError('ECONNRESET'), json(429, {}), json(200, { access_token: 'T' })]);
  const aux: AuxiliaryRequest[] = [];
  const auth = createAuthenticator(
    clientCredentials,
    creds,
    { onAuxiliaryRequest: (e) => aux.push(e) },
    { ...clock.env, fetch: http.fetch },
  );
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer T');
  assert.equal(http.requests.length, 4);
  assert.equal(clock.sleeps.length, 3);
  assert.ok(clock.sleeps.every((ms, i) => ms >= 0 && ms <= 1000 * 2 ** i));
  assert.equal(aux.length, 4);
  assert.deepEqual(
    aux.map((a) => a.response?.status ?? null),
    [503, null, 429, 200],
  );
});

test('retries stop after 300 s of waiting with a transient error carrying the status', async () => {
  const clock = frozenClock('2024-05-01T00:00:00Z');
  const http = { fetch: async () => json(500, { error: 'down' }) };
  await assert.rejects(
    createAuthenticator(clientCredentials, creds, {}, { ...clock.env, fetch: http.fetch }).authenticate(),
    (err: Error & { failureType: string; status: number }) => {
      assert.equal(err.failureType, 'transient_error');
      assert.equal(err.status, 500);
      return true;
    },
  );
  assert.ok(clock.sleeps.reduce((a, b) => a + b, 0) <= 300_000);
});

test("invalid_grant is a config error with the reference's re-authenticate message; 401 is a system error (requests' HTTPError); secrets stay out of messages", async () => {
  const http = scriptedFetch([json(400, { error: 'invalid_grant' })]);
  const rt = {
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: 'https://a.example.com/t?key=SECRETQ',
    client_id: 'id',
    client_secret: 'SECRETX',
    refresh_token: 'SECRETR',
  };
  await assert.rejects(
    createAuthenticator(rt, {}, {}, { fetch: http.fetch }).authenticate(),
    (err: Error & { failureType: string; status: number }) => {
      assert.equal(err.failureType, 'config_error');
      assert.equal(err.status, 400);
      assert.ok(
        err.message.startsWith('Refresh token is invalid or expired. Please re-authenticate from Sources/<your source>/Settings.'),
        err.message,
      );
      assert.ok(!/SECRET/.test(err.message));
      return true;
    },
  );
  const http401 = scriptedFetch([json(401, { error: 'invalid_client' })]);
  await assert.rejects(createAuthenticator(rt, {}, {}, { fetch: http401.fetch }).authenticate(), {
    failureType: 'system_error',
    status: 401,
    message: /^401 Client Error: Unauthorized for url: https:\/\/a\.example\.com\/t\b/,
  });
  const custom = scriptedFetch([json(403, { code: 'revoked' })]);
  await assert.rejects(
    createAuthenticator(
      { ...rt, refresh_token_error_status_codes: [403], refresh_token_error_key: 'code', refresh_token_error_values: ['revoked'] },
      {},
      {},
      { fetch: custom.fetch },
    ).authenticate(),
    /Refresh token is invalid or expired/,
  );
});

test('build-time validation of OAuth fields', () => {
  assert.throws(() => createAuthenticator({ type: 'OAuthAuthenticator', client_secret: 'b', refresh_token: 'r' }, {}), /'client_id'/);
  assert.throws(
    () => createAuthenticator({ type: 'OAuthAuthenticator', client_id: 'a', client_secret: 'b' }, {}),
    /requires the field 'refresh_token'/,
  );
  assert.throws(() => createAuthenticator({ type: 'OAuthAuthenticator', use_profile_assertion: true }, {}), /profile_assertion/);
  assert.throws(
    () =>
      createAuthenticator(
        {
          type: 'OAuthAuthenticator',
          client_id: 'a',
          client_secret: 'b',
          refresh_token_error_key: 'e',
          refresh_token_updater: { refresh_token_error_key: 'x' },
        },
        {},
      ),
    /both on the authenticator and on refresh_token_updater/,
  );
});

test('send_refresh_request_as_query_params puts the arguments in the URL with an empty body', async () => {
  const http = scriptedFetch([json(200, { access_token: 'T' })]);
  await createAuthenticator(
    { ...clientCredentials, send_refresh_request_as_query_params: true },
    creds,
    {},
    { fetch: http.fetch },
  ).authenticate();
  assert.equal(
    http.requests[0].url,
    'https://auth.example.com/oauth/token?grant_type=client_credentials&client_id=abc&client_secret=s3cr3t&scopes=read&scopes=write&audience=api',
  );
  assert.equal(http.requests[0].body, null);
});

test('the auxiliary request reports the refresh with obtained tokens masked, and onSecret receives them', async () => {
  const http = scriptedFetch([json(200, { access_token: 'TOKENVALUE', expires_in: 60 })]);
  const aux: AuxiliaryRequest[] = [];
  const secrets: string[] = [];
  await createAuthenticator(
    clientCredentials,
    creds,
    { onAuxiliaryRequest: (e) => aux.push(e), onSecret: (s) => secrets.push(s) },
    { fetch: http.fetch },
  ).authenticate();
  assert.equal(aux.length, 1);
  assert.equal(aux[0].title, 'Refresh token');
  assert.equal(aux[0].type, 'AUTH');
  assert.equal(aux[0].description, 'Obtains access token');
  assert.equal(aux[0].request.http_method, 'POST');
  assert.equal(aux[0].response?.body, '{"access_token":"****","expires_in":60}');
  assert.match(aux[0].request.body ?? '', /client_secret=\*\*\*\*/, 'the client secret sent is masked too (stricter than the reference)');
  assert.deepEqual([...new Set(secrets)], ['s3cr3t', 'TOKENVALUE']);
});

test('invalidate() forces a refresh before the next request (REFRESH_TOKEN_THEN_RETRY)', async () => {
  const http = scriptedFetch([json(200, { access_token: 'A', expires_in: 3600 }), json(200, { access_token: 'B', expires_in: 3600 })]);
  const auth = createAuthenticator(clientCredentials, creds, {}, { fetch: http.fetch });
  await auth.authenticate();
  auth.invalidate();
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer B');
});

test('profile assertion sends only the JWT-bearer grant and the assertion', async () => {
  const clock = frozenClock(1700000000);
  const http = scriptedFetch([json(200, { access_token: 'T' })]);
  await createAuthenticator(
    {
      type: 'OAuthAuthenticator',
      token_refresh_endpoint: 'https://auth.example.com/token',
      use_profile_assertion: true,
      profile_assertion: {
        type: 'JwtAuthenticator',
        secret_key: 'test',
        algorithm: 'HS256',
        jwt_payload: { iss: 'my-issuer', aud: 'api' },
      },
    },
    {},
    {},
    { ...clock.env, fetch: http.fetch },
  ).authenticate();
  assert.equal(
    http.requests[0].body,
    'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJteS1pc3N1ZXIiLCJhdWQiOiJhcGkiLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMTIwMCwibmJmIjoxNzAwMDAwMDAwfQ.J_d5nmIk9Y0zXxtOfLV5p-qPdffpb5G5izcbQ9FKgvA',
  );
});

test('an aborted test read stops the token request retries', async () => {
  const controller = new AbortController();
  let calls = 0;
  const env = {
    fetch: async () => {
      calls++;
      controller.abort();
      return json(503, {});
    },
    signal: controller.signal,
  };
  await assert.rejects(createAuthenticator(clientCredentials, creds, {}, env).authenticate(), /cancelled/);
  assert.equal(calls, 1);
});

test('§12.5 variant: Basic credentials built by a template in refresh_request_headers', async () => {
  const http = scriptedFetch([json(200, { access_token: 'T', expires_in: 3600 })]);
  const component = {
    ...clientCredentials,
    refresh_request_headers: { Authorization: "Basic {{ (config.client_id ~ ':' ~ config.client_secret) | base64encode }}" },
  };
  await createAuthenticator(component, creds, {}, { fetch: http.fetch }).authenticate();
  assert.equal(http.requests[0].headers.Authorization, `Basic ${Buffer.from('abc:s3cr3t').toString('base64')}`);
  assert.equal(http.requests[0].body, 'grant_type=client_credentials&scopes=read&scopes=write&audience=api');
});

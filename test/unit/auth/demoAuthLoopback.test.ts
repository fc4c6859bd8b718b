// Real HTTP on loopback: authenticators of every scheme against the demo API's auth routes, driven
// through the runtime's HttpRequester and default transport (no env.fetch).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthenticator, buildOAuthConsentUrl, exchangeOAuthCode } from '../../../server/src/runtime';
import { createHttpRequester } from '../../../server/src/runtime/http/requester';
import { emptySlice } from '../../../server/src/runtime/records/streamSlice';
import type { AuxiliaryRequest, RuntimeEnv } from '../../../server/src/runtime/types';
import { DEMO_CREDENTIALS as C, DEMO_RSA_PRIVATE_KEY } from '../../../demo/api/authCredentials';
import { startDemoAuthServer, type DemoAuthServer } from './demoAuthServer';

let demo: DemoAuthServer;
before(async () => {
  demo = await startDemoAuthServer();
});
after(() => demo.close());

/** Sends one data request through a requester using the given authenticator; returns status and parsed body. */
async function read(
  path: string,
  authenticator: object | null,
  config: Record<string, unknown>,
  extra: { method?: string; hooks?: object; env?: RuntimeEnv } = {},
) {
  const env: RuntimeEnv = { now: () => demo.now(), sleep: async () => undefined, ...extra.env };
  const auth = createAuthenticator(authenticator, config, { ...extra.hooks }, env);
  const requester = createHttpRequester(
    { type: 'HttpRequester', url: `${demo.baseUrl}${path}`, http_method: extra.method ?? 'GET' },
    config,
    { authenticator: auth, disableRetries: true },
    env,
  );
  const exchange = await requester.send({ slice: emptySlice(), nextPageToken: null, retrieverParts: [] });
  return { status: exchange.response.status, body: JSON.parse(exchange.response.body), request: exchange.request, auth };
}

test('§12.7 Basic and API key in header, query, form and JSON body', async () => {
  const cfg = { user: C.basic.username, pass: C.basic.password, key: C.apiKey.key };
  assert.equal(
    (await read('/auth/basic/items', { type: 'BasicHttpAuthenticator', username: '{{ config.user }}', password: '{{ config.pass }}' }, cfg))
      .body.data.length,
    5,
  );
  const opt = (inject_into: string, extra: object) => ({
    type: 'ApiKeyAuthenticator',
    api_token: '{{ config.key }}',
    inject_into: { type: 'RequestOption', inject_into, ...extra },
  });
  assert.equal((await read('/auth/api-key/header/items', opt('header', { field_name: C.apiKey.header }), cfg)).status, 200);
  const q = await read('/auth/api-key/query/items', opt('request_parameter', { field_name: C.apiKey.queryParam }), cfg);
  assert.equal(q.request.url, `${demo.baseUrl}/auth/api-key/query/items?api_key=demo-api-key`);
  assert.equal(
    (await read('/auth/api-key/form/items', opt('body_data', { field_name: C.apiKey.formField }), cfg, { method: 'POST' })).status,
    200,
  );
  assert.equal(
    (await read('/auth/api-key/json/items', opt('body_json', { field_path: C.apiKey.jsonPath }), cfg, { method: 'POST' })).status,
    200,
  );
  assert.equal((await read('/auth/bearer/items', { type: 'BearerAuthenticator', api_token: C.bearer.token }, {})).status, 200);
});

test('wrong credentials fail the data request with a config error (401)', async () => {
  await assert.rejects(read('/auth/bearer/items', { type: 'BearerAuthenticator', api_token: 'nope' }, {}), {
    failureType: 'config_error',
    status: 401,
  });
});

test('JWT HS256 and RS256 tokens are accepted by the demo verifier', async () => {
  const payload = { iss: C.jwt.issuer, aud: C.jwt.audience };
  assert.equal(
    (
      await read(
        '/auth/jwt/hs256/items',
        { type: 'JwtAuthenticator', secret_key: C.jwt.hs256Secret, algorithm: 'HS256', jwt_payload: payload, header_prefix: 'Bearer' },
        {},
      )
    ).status,
    200,
  );
  const rs = { type: 'JwtAuthenticator', secret_key: '{{ config.private_key }}', algorithm: 'RS256', jwt_payload: payload };
  assert.equal((await read('/auth/jwt/rs256/items', rs, { private_key: DEMO_RSA_PRIVATE_KEY })).status, 200);
});

test('§12.5 client credentials: one token request reported as an auxiliary request, token masked', async () => {
  const aux: AuxiliaryRequest[] = [];
  const r = await read(
    '/auth/oauth/items',
    {
      type: 'OAuthAuthenticator',
      token_refresh_endpoint: `${demo.baseUrl}/auth/oauth/token`,
      grant_type: 'client_credentials',
      client_id: C.oauth.clientId,
      client_secret: '{{ config.secret }}',
      scopes: ['read'],
    },
    { secret: C.oauth.clientSecret },
    { hooks: { onAuxiliaryRequest: (e: AuxiliaryRequest) => aux.push(e) } },
  );
  assert.equal(r.status, 200);
  assert.equal(aux.length, 1);
  const token = r.auth.secrets()[0];
  assert.ok(token.startsWith('access-'));
  assert.ok(!JSON.stringify(aux).includes(token));
  assert.match(aux[0].response?.body ?? '', /"access_token":"\*\*\*\*"/);
});

test('rotating single-use refresh tokens: written back and never lost, even when the data request then fails', async () => {
  const updates: Record<string, unknown>[] = [];
  const config = {
    credentials: {
      client_id: C.oauth.clientId,
      client_secret: C.oauth.clientSecret,
      refresh_token: (demo.state.auth as { refreshToken?: string } | undefined)?.refreshToken ?? C.oauth.initialRefreshToken,
    },
  };
  const component = {
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: `${demo.baseUrl}/auth/oauth/token`,
    client_id: '{{ config.credentials.client_id }}',
    client_secret: '{{ config.credentials.client_secret }}',
    refresh_token: '{{ config.credentials.refresh_token }}',
    refresh_token_updater: {},
  };
  const before = config.credentials.refresh_token;
  await assert.rejects(
    read(demo.failPath, component, config, { env: { onConfigUpdate: (c) => updates.push(structuredClone(c as Record<string, unknown>)) } }),
    { status: 500 },
  );
  const rotated = config.credentials.refresh_token;
  assert.notEqual(rotated, before);
  assert.equal((updates[updates.length - 1].credentials as Record<string, unknown>).refresh_token, rotated);
  // The old token is spent server-side; the saved one works for the next run.
  const reuse = { credentials: { ...config.credentials, refresh_token: before, access_token: '', token_expiry_date: '' } };
  await assert.rejects(read('/auth/oauth/items', component, reuse), {
    failureType: 'config_error',
    message: /^Refresh token is invalid or expired\. Please re-authenticate/,
  });
  const next = { credentials: { ...config.credentials, access_token: '', token_expiry_date: '' } };
  assert.equal((await read('/auth/oauth/items', component, next)).status, 200);
});

test('session login by POST and by GET; an expired session token gets 401', async () => {
  const config = { user: C.session.username, password: C.session.password };
  const post = {
    type: 'SessionTokenAuthenticator',
    login_requester: {
      type: 'HttpRequester',
      url: `${demo.baseUrl}/auth/session/login`,
      http_method: 'POST',
      request_body: { type: 'RequestBodyJsonObject', value: { username: '{{ config.user }}', password: '{{ config.password }}' } },
    },
    session_token_path: ['data', 'token'],
    expiration_duration: 'PT1M',
    request_authentication: { type: 'ApiKey', inject_into: { type: 'RequestOption', inject_into: 'header', field_name: C.session.header } },
  };
  assert.equal((await read('/auth/session/items', post, config)).status, 200);
  const get = {
    ...post,
    login_requester: {
      type: 'HttpRequester',
      url: `${demo.baseUrl}/auth/session/login`,
      request_parameters: { username: '{{ config.user }}', password: '{{ config.password }}', ttl: '30' },
    },
    request_authentication: { type: 'Bearer' },
  };
  const env: RuntimeEnv = { now: () => demo.now() };
  const auth = createAuthenticator(get, config, {}, env);
  const requester = createHttpRequester(
    { type: 'HttpRequester', url: `${demo.baseUrl}/auth/session/items` },
    config,
    { authenticator: auth, disableRetries: true },
    env,
  );
  const input = { slice: emptySlice(), nextPageToken: null, retrieverParts: [] };
  assert.equal((await requester.send(input)).response.status, 200);
  demo.advance(31);
  // The server's 30 s session is over while the manifest claims a minute: the API answers 401.
  await assert.rejects(requester.send(input), { failureType: 'config_error', status: 401 });
});

test('declarative OAuth: consent redirect with state and PKCE, code exchange, then data with the new token', async () => {
  const spec = {
    consent_url: `${demo.baseUrl}/auth/oauth/authorize?{{ client_id_param }}&{{ redirect_uri_param }}&{{ state_param }}&code_challenge={{ state_value | codechallengeS256 }}&code_challenge_method=S256`,
    access_token_url: `${demo.baseUrl}/auth/oauth/access_token`,
    access_token_params: {
      client_id: '{{ client_id_value }}',
      client_secret: '{{ client_secret_value }}',
      code: '{{ auth_code_value }}',
      redirect_uri: '{{ redirect_uri_value }}',
      code_verifier: '{{ state_value }}',
    },
    extract_output: ['access_token', 'refresh_token'],
  };
  const inputs = { client_id: C.oauth.clientId, client_secret: C.oauth.clientSecret, redirect_uri: 'http://127.0.0.1:9/callback' };
  const consent = buildOAuthConsentUrl(spec, inputs);
  const redirect = await fetch(consent.url, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  const callback = new URL(redirect.headers.get('location') ?? '');
  assert.equal(callback.searchParams.get('state'), consent.state);
  const result = await exchangeOAuthCode(spec, { ...inputs, code: callback.searchParams.get('code') ?? '', state: consent.state });
  assert.match(String(result.outputs.refresh_token), /^demo-refresh-/);
  assert.equal(
    (await read('/auth/oauth/items', { type: 'BearerAuthenticator', api_token: '{{ config.t }}' }, { t: result.outputs.access_token }))
      .status,
    200,
  );
});

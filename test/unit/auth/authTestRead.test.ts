// Whole test reads of authenticated demo streams over loopback: auxiliary requests for token
// refreshes and logins, the config written back, and no obtained token anywhere in the output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { DEMO_CREDENTIALS as C } from '../../../demo/api/authCredentials';
import { startDemoAuthServer, type DemoAuthServer } from './demoAuthServer';

let demo: DemoAuthServer;
before(async () => {
  demo = await startDemoAuthServer();
});
after(() => demo.close());

function manifest(path: string, authenticator: object, secretFields: string[] = []) {
  return {
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['items'] },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 'items',
        primary_key: ['id'],
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url: `${demo.baseUrl}${path}`, authenticator },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        },
      },
    ],
    spec: {
      type: 'Spec',
      connection_specification: {
        type: 'object',
        properties: {
          credentials: {
            type: 'object',
            properties: Object.fromEntries(secretFields.map((f) => [f, { type: 'string', airbyte_secret: true }])),
          },
        },
      },
    },
  };
}

test('OAuth with a single-use refresh token: one auxiliary "Refresh token", config written back, tokens masked', async () => {
  const start = (demo.state.auth as { refreshToken?: string } | undefined)?.refreshToken ?? C.oauth.initialRefreshToken;
  const config = { credentials: { client_id: C.oauth.clientId, client_secret: C.oauth.clientSecret, refresh_token: start } };
  const updates: Record<string, unknown>[] = [];
  const m = manifest(
    '/auth/oauth/items',
    {
      type: 'OAuthAuthenticator',
      token_refresh_endpoint: `${demo.baseUrl}/auth/oauth/token`,
      client_id: '{{ config.credentials.client_id }}',
      client_secret: '{{ config.credentials.client_secret }}',
      refresh_token: '{{ config.credentials.refresh_token }}',
      refresh_token_updater: {},
    },
    ['client_secret', 'refresh_token'],
  );
  const result = await testRead(
    m,
    config,
    'items',
    {},
    { onConfigUpdate: (c) => updates.push(structuredClone(c as Record<string, unknown>)) },
  );
  assert.equal(result.slices[0].pages[0].records.length, 5);
  assert.equal(result.auxiliary_requests.length, 1);
  assert.equal(result.auxiliary_requests[0].title, 'Refresh token');
  assert.equal(result.auxiliary_requests[0].type, 'AUTH');
  const saved = updates[updates.length - 1].credentials as Record<string, string>;
  assert.notEqual(saved.refresh_token, start);
  assert.ok(saved.access_token.startsWith('access-'));
  const output = JSON.stringify(result);
  for (const secret of [saved.access_token, saved.refresh_token, start, C.oauth.clientSecret])
    assert.ok(!output.includes(secret), 'no token in the output');
  assert.ok(result.latest_config_update, 'the config update is reported');
});

test('session login: one auxiliary "Login request" and the session token masked on the data page', async () => {
  const m = manifest(
    '/auth/session/items',
    {
      type: 'SessionTokenAuthenticator',
      login_requester: {
        type: 'HttpRequester',
        url: `${demo.baseUrl}/auth/session/login`,
        http_method: 'POST',
        request_body: {
          type: 'RequestBodyJsonObject',
          value: { username: '{{ config.credentials.username }}', password: '{{ config.credentials.password }}' },
        },
      },
      session_token_path: ['data', 'token'],
      expiration_duration: 'PT1H',
      request_authentication: {
        type: 'ApiKey',
        inject_into: { type: 'RequestOption', inject_into: 'header', field_name: C.session.header },
      },
    },
    ['password'],
  );
  const result = await testRead(m, { credentials: { username: C.session.username, password: C.session.password } }, 'items');
  assert.equal(result.slices[0].pages[0].records.length, 5);
  assert.deepEqual(
    result.auxiliary_requests.map((a) => [a.title, a.description, a.type]),
    [['Login request', 'Obtains session token', 'AUTH']],
  );
  const page = result.slices[0].pages[0];
  assert.equal(page.request?.headers?.[C.session.header], '****');
  const output = JSON.stringify(result);
  assert.ok(!/session-[0-9a-f]{24}/.test(output), 'the session token never appears');
  assert.ok(!output.includes(C.session.password));
});

test('a custom authenticator fails the test read with the "runs only in the Python CDK" message', async () => {
  const m = manifest('/auth/bearer/items', { type: 'CustomAuthenticator', class_name: 'source_x.components.Auth' });
  const outcome = await testRead(m, {}, 'items').then(
    (r) => JSON.stringify(r.logs),
    (e: Error) => e.message,
  );
  assert.match(outcome, /runs only in the Python CDK/);
});

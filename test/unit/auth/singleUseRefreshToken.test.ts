import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthenticator } from '../../../server/src/runtime';
import { frozenClock, json, scriptedFetch } from './helpers';

const component = {
  type: 'OAuthAuthenticator',
  token_refresh_endpoint: 'https://auth.example.com/token',
  client_id: "{{ config['credentials']['client_id'] }}",
  client_secret: "{{ config['credentials']['client_secret'] }}",
  refresh_token: "{{ config['credentials']['refresh_token'] }}",
  refresh_token_updater: {},
};
const configWith = (extra: Record<string, unknown> = {}) => ({
  credentials: { client_id: 'cid', client_secret: 'cs', refresh_token: 'R1', ...extra },
});

test('a single-use refresh token is written back into the config and reported through onConfigUpdate', async () => {
  const clock = frozenClock('2024-05-01T12:00:00Z');
  const http = scriptedFetch([json(200, { access_token: 'A1', refresh_token: 'R2', expires_in: 3600 })]);
  const updates: string[] = [];
  const config = configWith();
  const auth = createAuthenticator(
    component,
    config,
    {},
    { ...clock.env, fetch: http.fetch, onConfigUpdate: (c) => updates.push(JSON.stringify(c)) },
  );
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer A1');
  assert.equal(http.requests[0].body, 'grant_type=refresh_token&client_id=cid&client_secret=cs&refresh_token=R1');
  assert.deepEqual(config.credentials, {
    client_id: 'cid',
    client_secret: 'cs',
    refresh_token: 'R2',
    access_token: 'A1',
    token_expiry_date: '2024-05-01T13:00:00+00:00',
  });
  assert.deepEqual(JSON.parse(updates[updates.length - 1]), config);
  assert.deepEqual(auth.secrets().sort(), ['A1', 'R2']);
});

test('a stored access token with a future expiry is used without a refresh', async () => {
  const clock = frozenClock('2024-05-01T12:00:00Z');
  const http = scriptedFetch([]);
  const config = configWith({ access_token: 'stored', token_expiry_date: '2024-05-01T13:00:00+00:00' });
  const auth = createAuthenticator(component, config, {}, { ...clock.env, fetch: http.fetch });
  assert.equal((await auth.authenticate()).request_headers.Authorization, 'Bearer stored');
  assert.equal(http.requests.length, 0);
});

test('the new refresh token is never lost, even when the rest of the token response is unusable', async () => {
  const http = scriptedFetch([json(200, { refresh_token: 'R2', expires_in: 60 })]);
  const updates: object[] = [];
  const config = configWith();
  await assert.rejects(
    createAuthenticator(
      component,
      config,
      {},
      { fetch: http.fetch, onConfigUpdate: (c) => updates.push(structuredClone(c)) },
    ).authenticate(),
    /no 'access_token' value/,
  );
  assert.equal(config.credentials.refresh_token, 'R2');
  assert.equal(updates.length, 1);
  assert.equal((updates[0] as typeof config).credentials.refresh_token, 'R2');
});

test('custom config paths and refresh token name; a response without a refresh token keeps the old one', async () => {
  const http = scriptedFetch([json(200, { access_token: 'A1', expires_in: 60 })]);
  const config: Record<string, unknown> = { creds: { rt: 'OLD' }, credentials: { client_id: 'from-config' } };
  await createAuthenticator(
    {
      ...component,
      client_id: 'from-manifest',
      refresh_token_updater: {
        refresh_token_name: 'my_rt',
        refresh_token_config_path: ['creds', 'rt'],
        access_token_config_path: ['tokens', 'access'],
        token_expiry_date_config_path: ['tokens', 'exp'],
      },
    },
    config,
    {},
    { fetch: http.fetch, now: () => new Date('2024-05-01T00:00:00.250Z') },
  ).authenticate();
  // Reference quirk (§6.7.7): the config's credentials.client_id wins over the manifest value.
  assert.match(http.requests[0].body ?? '', /client_id=from-config&.*my_rt=OLD/);
  assert.deepEqual(config.creds, { rt: 'OLD' });
  assert.deepEqual(config.tokens, { access: 'A1', exp: '2024-05-01T00:01:00.250000+00:00' });
});

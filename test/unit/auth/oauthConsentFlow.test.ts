import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { buildOAuthConsentUrl, exchangeOAuthCode, oauthInputsFromConfig, renderConsentTemplate } from '../../../server/src/runtime';
import { json, scriptedFetch } from './helpers';

const manifest = {
  spec: {
    type: 'Spec',
    connection_specification: {},
    advanced_auth: {
      auth_flow_type: 'oauth2.0',
      oauth_config_specification: {
        oauth_connector_input_specification: {
          consent_url:
            'https://{{ subdomain }}.example.com/authorize?{{ client_id_param }}&{{ redirect_uri_param }}&{{ state_param }}&{{ scope_param }}&code_challenge={{ state_value | codechallengeS256 }}&code_challenge_method=S256',
          scopes: [{ scope: 'read' }, { scope: 'write all' }],
          scopes_join_strategy: 'space',
          access_token_url: 'https://{{ subdomain }}.example.com/token',
          access_token_headers: { Authorization: "Basic {{ (client_id_value ~ ':' ~ client_secret_value) | b64encode }}" },
          access_token_params: {
            grant_type: 'authorization_code',
            code: '{{ auth_code_value }}',
            code_verifier: '{{ state_value }}',
            redirect_uri: '{{ redirect_uri_value }}',
          },
          extract_output: ['data.access_token', 'data.refresh_token', 'data.expires_in'],
          state: { min: 10, max: 10 },
        },
        complete_oauth_output_specification: {
          properties: {
            access_token: { type: 'string', path_in_connector_config: ['credentials', 'access_token'] },
            refresh_token: { type: 'string', path_in_connector_config: ['credentials', 'refresh_token'] },
          },
        },
        oauth_user_input_from_connector_config_specification: {
          properties: { subdomain: { type: 'string', path_in_connector_config: ['subdomain'] } },
        },
        complete_oauth_server_output_specification: {
          properties: { client_id: { type: 'string', path_in_connector_config: ['credentials', 'client_id'] } },
        },
      },
    },
  },
};

test('consent URL with encoded params, joined scopes, a state of the configured length and a PKCE challenge', () => {
  const consent = buildOAuthConsentUrl(manifest, {
    client_id: 'app 1',
    client_secret: 'never',
    redirect_uri: 'http://localhost:5555/cb?x=1',
    subdomain: 'acme',
  });
  assert.equal(consent.state.length, 10);
  assert.match(consent.state, /^[A-Za-z0-9._-]+$/);
  const challenge = createHash('sha256').update(consent.state).digest('base64url');
  assert.equal(
    consent.url,
    `https://acme.example.com/authorize?client_id=app 1&redirect_uri=http%3A%2F%2Flocalhost%3A5555%2Fcb%3Fx%3D1&state=${consent.state}&scope=read+write+all&code_challenge=${challenge}&code_challenge_method=S256`,
  );
  assert.ok(!consent.url.includes('never'));
});

test('code exchange sends JSON params and the Basic header, extracts dotted outputs and writes the config', async () => {
  const http = scriptedFetch([json(200, { data: { access_token: 'AT', refresh_token: 'RT', expires_in: 3600 } })]);
  const result = await exchangeOAuthCode(
    manifest,
    { client_id: 'id', client_secret: 'sec', redirect_uri: 'http://localhost/cb', subdomain: 'acme', code: 'C0DE', state: 'st4te' },
    { start_date: '2024-01-01' },
    { fetch: http.fetch, now: () => new Date('2024-05-01T12:00:00Z') },
  );
  const [req] = http.requests;
  assert.equal(req.url, 'https://acme.example.com/token');
  assert.equal(req.headers.Authorization, `Basic ${Buffer.from('id:sec').toString('base64')}`);
  assert.equal(req.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(req.body ?? ''), {
    grant_type: 'authorization_code',
    code: 'C0DE',
    code_verifier: 'st4te',
    redirect_uri: 'http://localhost/cb',
  });
  assert.deepEqual(result.outputs, {
    access_token: 'AT',
    refresh_token: 'RT',
    expires_in: 3600,
    token_expiry_date: '2024-05-01T13:00:00Z',
  });
  assert.deepEqual(result.config, { start_date: '2024-01-01', credentials: { client_id: 'id', access_token: 'AT', refresh_token: 'RT' } });
});

test('without access_token_params the exchange is a form with the standard keys; missing outputs are named', async () => {
  const spec = { consent_url: 'https://x.example.com/a', access_token_url: 'https://x.example.com/t', auth_code_key: 'authorization_code' };
  const http = scriptedFetch([json(200, { access_token: 'AT' })]);
  await assert.rejects(
    exchangeOAuthCode(
      spec,
      { client_id: 'i', client_secret: 's', redirect_uri: 'https://cb.example.com/x y', code: 'c' },
      {},
      { fetch: http.fetch },
    ),
    /lacks the expected fields refresh_token/,
  );
  assert.equal(
    http.requests[0].body,
    'grant_type=authorization_code&client_id=i&client_secret=s&authorization_code=c&redirect_uri=https%3A%2F%2Fcb.example.com%2Fx+y',
  );
  const failing = scriptedFetch([json(400, { error: 'invalid_grant' })]);
  await assert.rejects(exchangeOAuthCode(spec, { code: 'c' }, {}, { fetch: failing.fetch }), { failureType: 'config_error', status: 400 });
});

test('template language: if/else, replace, legacy nested notation, disallowed filters', () => {
  assert.equal(
    renderConsentTemplate(
      "{% if scope_value %}s={{ scope_value | replace(' ', ',') }}{% else %}none{% endif %}",
      { scope_value: 'a b' },
      'f',
    ),
    's=a,b',
  );
  assert.equal(renderConsentTemplate('{% if scope_value %}x{% else %}none{% endif %}', {}, 'f'), 'none');
  assert.equal(renderConsentTemplate('{{ {{redirect_uri_value}} | urlEncoder }}', { redirect_uri_value: 'a b/c' }, 'f'), 'a+b%2Fc');
  assert.throws(() => renderConsentTemplate('{{ x | upper }}', {}, 'consent_url'), {
    failureType: 'config_error',
    message: /filter 'upper' is not allowed/,
  });
  assert.throws(() => renderConsentTemplate('{% for x in y %}{% endfor %}', {}, 'consent_url'), /not allowed/);
  assert.throws(() => buildOAuthConsentUrl({}, {}), /no spec.advanced_auth/);
});

test('the inputs a config already holds: client id/secret and user inputs by path_in_connector_config', () => {
  const spec = structuredClone(manifest);
  const server = spec.spec.advanced_auth.oauth_config_specification.complete_oauth_server_output_specification.properties as Record<
    string,
    unknown
  >;
  server.client_secret = { type: 'string', path_in_connector_config: ['credentials', 'client_secret'] };
  assert.deepEqual(oauthInputsFromConfig(spec, { subdomain: 'acme', credentials: { client_id: 'id', client_secret: 'sec' } }), {
    client_id: 'id',
    client_secret: 'sec',
    subdomain: 'acme',
  });
  assert.deepEqual(oauthInputsFromConfig(spec, {}), {});
});

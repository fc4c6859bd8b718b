// Test reads of every stream of demo/workspace/auth-schemes.yaml against the demo API over loopback:
// the §10.3 shape, records from each scheme, auxiliary requests where tokens are obtained, and no
// airbyte_secret value or obtained token anywhere in the output. Also the manifest's consent flow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildOAuthConsentUrl, exchangeOAuthCode, oauthInputsFromConfig, testRead, type OAuthInputs } from '../../../server/src/runtime';
import { startDemoAuthServer, type DemoAuthServer } from './demoAuthServer';

const WORKSPACE = join(__dirname, '..', '..', '..', 'demo', 'workspace');
const manifest = parse(readFileSync(join(WORKSPACE, 'auth-schemes.yaml'), 'utf8'));
const baseConfig = JSON.parse(readFileSync(join(WORKSPACE, 'auth-config.json'), 'utf8'));

let demo: DemoAuthServer;
before(async () => {
  demo = await startDemoAuthServer(null);
});
after(() => demo.close());

const SECRETS = ['password', 'bearer_token', 'api_key', 'jwt_secret', 'client_secret'];
const TOKEN_PATTERN = /(access|session)-[0-9a-f]{24}|demo-refresh-\d+|BEGIN PRIVATE KEY/;
const AUX_BY_STREAM: Record<string, string[]> = {
  oauth_client_credentials: ['Refresh token'],
  oauth_single_use_refresh: ['Refresh token'],
  session_post: ['Login request'],
  session_get: ['Login request'],
};

for (const stream of manifest.streams as { name: string }[]) {
  test(`demo stream ${stream.name}: records, §10.3 shape, nothing secret in the output`, async () => {
    const config = { ...structuredClone(baseConfig), url_base: demo.baseUrl };
    const result = await testRead(manifest, config, stream.name);
    assert.deepEqual(Object.keys(result).sort(), ['auxiliary_requests', 'inferred_datetime_formats', 'inferred_schema', 'latest_config_update', 'logs', 'slices', 'test_read_limit_reached']);
    assert.deepEqual(result.logs.filter((l) => l.level === 'ERROR'), []);
    const records = result.slices[0].pages[0].records as { scheme: string }[];
    assert.equal(records.length, 5);
    assert.deepEqual(result.auxiliary_requests.map((a) => a.title), AUX_BY_STREAM[stream.name] ?? []);
    const output = JSON.stringify(result);
    for (const key of SECRETS) assert.ok(!output.includes(baseConfig[key]), `${key} is masked`);
    assert.ok(!TOKEN_PATTERN.test(output), 'no obtained token or key in the output');
  });
}

test('the workspace manifest authorizes with the declarative OAuth flow against the demo API', async () => {
  const config = { ...structuredClone(baseConfig), url_base: demo.baseUrl };
  const inputs: OAuthInputs = { ...oauthInputsFromConfig(manifest, config), redirect_uri: 'http://127.0.0.1:9/callback' };
  assert.equal(inputs.url_base, demo.baseUrl);
  const consent = buildOAuthConsentUrl(manifest, inputs);
  const redirect = await fetch(consent.url, { redirect: 'manual' });
  const callback = new URL(redirect.headers.get('location') ?? '');
  const result = await exchangeOAuthCode(manifest, { ...inputs, code: callback.searchParams.get('code') ?? '', state: consent.state }, config);
  const credentials = result.config.credentials as Record<string, string>;
  assert.match(credentials.refresh_token, /^demo-refresh-/);
  assert.ok(credentials.access_token.startsWith('access-'));
  assert.ok(credentials.token_expiry_date);
});

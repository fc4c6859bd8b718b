// The declarative OAuth flow of a manifest (test/fixtures/auth/oauth-consent-manifest.yaml) end to end
// against the demo API over loopback: consent redirect with state and PKCE, code exchange, config
// written, then a test read that refreshes with the stored single-use refresh token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildOAuthConsentUrl, exchangeOAuthCode, oauthInputsFromConfig, testRead, type OAuthInputs } from '../../../server/src/runtime';
import { DEMO_CREDENTIALS as C } from '../../../demo/api/authCredentials';
import { startDemoAuthServer, type DemoAuthServer } from './demoAuthServer';

const manifest = parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'auth', 'oauth-consent-manifest.yaml'), 'utf8'));

let demo: DemoAuthServer;
before(async () => {
  demo = await startDemoAuthServer(null);
});
after(() => demo.close());

test('authorize with OAuth, store the tokens in the config, then read with them', async () => {
  const config: Record<string, unknown> = {
    url_base: demo.baseUrl,
    credentials: { client_id: C.oauth.clientId, client_secret: C.oauth.clientSecret },
  };
  const inputs: OAuthInputs = { ...oauthInputsFromConfig(manifest, config), redirect_uri: 'http://127.0.0.1:9/callback' };
  assert.deepEqual(inputs, {
    client_id: C.oauth.clientId,
    client_secret: C.oauth.clientSecret,
    url_base: demo.baseUrl,
    redirect_uri: 'http://127.0.0.1:9/callback',
  });

  const consent = buildOAuthConsentUrl(manifest, inputs);
  assert.ok(
    consent.url.startsWith(
      `${demo.baseUrl}/auth/oauth/authorize?client_id=demo-client&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcallback&state=`,
    ),
  );
  const redirect = await fetch(consent.url, { redirect: 'manual' });
  assert.equal(redirect.status, 302);
  const callback = new URL(redirect.headers.get('location') ?? '');
  assert.equal(callback.searchParams.get('state'), consent.state);

  const exchanged = await exchangeOAuthCode(
    manifest,
    { ...inputs, code: callback.searchParams.get('code') ?? '', state: consent.state },
    config,
  );
  const credentials = exchanged.config.credentials as Record<string, string>;
  assert.match(credentials.refresh_token, /^demo-refresh-\d+$/);
  assert.ok(credentials.access_token.startsWith('access-'));
  assert.ok(credentials.token_expiry_date);

  // A code works once: replaying it is refused by the demo.
  await assert.rejects(
    exchangeOAuthCode(manifest, { ...inputs, code: callback.searchParams.get('code') ?? '', state: consent.state }, config),
    { status: 400 },
  );

  // Forget the access token so that the read must use (and rotate) the stored refresh token.
  const readConfig = structuredClone(exchanged.config);
  delete (readConfig.credentials as Record<string, unknown>).access_token;
  delete (readConfig.credentials as Record<string, unknown>).token_expiry_date;
  const updates: Record<string, unknown>[] = [];
  const result = await testRead(
    manifest,
    readConfig,
    'oauth_items',
    {},
    { onConfigUpdate: (c) => updates.push(structuredClone(c as Record<string, unknown>)) },
  );
  assert.equal(result.slices[0].pages[0].records.length, 5);
  assert.deepEqual(
    result.auxiliary_requests.map((a) => a.title),
    ['Refresh token'],
  );
  const rotated = (updates[updates.length - 1].credentials as Record<string, string>).refresh_token;
  assert.notEqual(rotated, credentials.refresh_token);
  const output = JSON.stringify(result);
  for (const secret of [credentials.refresh_token, rotated, C.oauth.clientSecret]) assert.ok(!output.includes(secret));
});

// The conformance surface is the built bundle (runtime-api.md): check the auth functions are exported
// from out/runtime.js and behave the same there. The suite always builds before running tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const bundle = join(__dirname, '..', '..', '..', 'out', 'runtime.js');

test('out/runtime.js exports createAuthenticator and createRequestOption with the runtime-api.md shapes', async (t) => {
  if (!existsSync(bundle)) {
    t.skip('out/runtime.js is not built; run npm run build');
    return;
  }
  const runtime = require(bundle);
  const parts = await runtime
    .createAuthenticator({ type: 'BasicHttpAuthenticator', username: 'user', password: 'pass' }, {}, {}, {})
    .authenticate();
  assert.deepEqual(parts, {
    request_parameters: {},
    request_headers: { Authorization: 'Basic dXNlcjpwYXNz' },
    request_body_data: {},
    request_body_json: {},
  });
  const option = runtime.createRequestOption({ type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' }, {});
  assert.equal(option.inject_into, 'request_parameter');
  assert.equal(option.field_name, 'page');
  assert.throws(
    () => runtime.createAuthenticator({ type: 'JwtAuthenticator', secret_key: 'k', algorithm: 'XX' }, {}),
    (err: { failureType: string }) => err.failureType === 'config_error',
  );
  for (const name of ['buildOAuthConsentUrl', 'exchangeOAuthCode']) assert.equal(typeof runtime[name], 'function');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAuthenticator, createRequestOption } from '../../../server/src/runtime';

test('NoAuth and an absent authenticator add nothing', async () => {
  const empty = { request_parameters: {}, request_headers: {}, request_body_data: {}, request_body_json: {} };
  assert.deepEqual(await createAuthenticator({ type: 'NoAuth' }, {}).authenticate(), empty);
  assert.deepEqual(await createAuthenticator(null, {}).authenticate(), empty);
});

test('Basic joins user and password (§12.7) and keeps the colon when the password is empty', async () => {
  const a = await createAuthenticator({ type: 'BasicHttpAuthenticator', username: 'user', password: 'pass' }, {}).authenticate();
  assert.equal(a.request_headers.Authorization, 'Basic dXNlcjpwYXNz');
  const b = await createAuthenticator({ type: 'BasicHttpAuthenticator', username: "{{ config['u'] }}" }, { u: 'user' }).authenticate();
  assert.equal(b.request_headers.Authorization, `Basic ${Buffer.from('user:').toString('base64')}`);
  const c = await createAuthenticator(
    { type: 'BasicHttpAuthenticator', username: 'user', password: "{{ config['missing'] }}" },
    {},
  ).authenticate();
  assert.equal(c.request_headers.Authorization, `Basic ${Buffer.from('user:').toString('base64')}`);
});

test('Basic credentials are str() of the rendered value, as Python prints it (§6.3 caveat)', async () => {
  const a = await createAuthenticator(
    { type: 'BasicHttpAuthenticator', username: '{{ config.u }}', password: '{{ config.p }}' },
    { u: 'user', p: '1e3' },
  ).authenticate();
  assert.equal(a.request_headers.Authorization, `Basic ${Buffer.from('user:1000.0').toString('base64')}`);
});

test('Basic without a username is a build-time config error', () => {
  assert.throws(() => createAuthenticator({ type: 'BasicHttpAuthenticator', password: 'p' }, {}), {
    failureType: 'config_error',
    message: /username/,
  });
});

test('Bearer uses a fixed prefix and renders the token from config', async () => {
  const a = await createAuthenticator({ type: 'BearerAuthenticator', api_token: "{{ config['token'] }}" }, { token: 'abc' }).authenticate();
  assert.deepEqual(a.request_headers, { Authorization: 'Bearer abc' });
});

test('ApiKey in a query parameter, a header, a form field and a nested JSON field (§6.5, §12.7)', async () => {
  const config = { key: 'k1' };
  const q = await createAuthenticator(
    {
      type: 'ApiKeyAuthenticator',
      api_token: '{{ config.key }}',
      inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'api_key' },
    },
    config,
  ).authenticate();
  assert.deepEqual(q.request_parameters, { api_key: 'k1' });
  assert.deepEqual(q.request_headers, {});
  const h = await createAuthenticator(
    { type: 'ApiKeyAuthenticator', api_token: '{{ config.key }}', header: 'X-Api-Key' },
    config,
  ).authenticate();
  assert.deepEqual(h.request_headers, { 'X-Api-Key': 'k1' });
  const f = await createAuthenticator(
    {
      type: 'ApiKeyAuthenticator',
      api_token: 'Token {{ config.key }}',
      inject_into: { type: 'RequestOption', inject_into: 'body_data', field_name: 'key' },
    },
    config,
  ).authenticate();
  assert.deepEqual(f.request_body_data, { key: 'Token k1' });
  const j = await createAuthenticator(
    {
      type: 'ApiKeyAuthenticator',
      api_token: '{{ config.key }}',
      inject_into: { type: 'RequestOption', inject_into: 'body_json', field_path: ['auth', 'key'] },
    },
    config,
  ).authenticate();
  assert.deepEqual(j.request_body_json, { auth: { key: 'k1' } });
});

test('ApiKey field_name may use the authenticator $parameters', async () => {
  const a = await createAuthenticator(
    {
      type: 'ApiKeyAuthenticator',
      api_token: 'k',
      inject_into: { type: 'RequestOption', inject_into: 'header', field_name: '{{ parameters.header_name }}' },
      $parameters: { header_name: 'X-Key' },
    },
    {},
  ).authenticate();
  assert.deepEqual(a.request_headers, { 'X-Key': 'k' });
});

test('ApiKey rejects header together with inject_into, and neither, at build time', () => {
  assert.throws(
    () =>
      createAuthenticator(
        {
          type: 'ApiKeyAuthenticator',
          api_token: 'k',
          header: 'X',
          inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'Y' },
        },
        {},
      ),
    { failureType: 'config_error', message: /only one of/ },
  );
  assert.throws(() => createAuthenticator({ type: 'ApiKeyAuthenticator', api_token: 'k' }, {}), {
    failureType: 'config_error',
    message: /requires 'inject_into'/,
  });
});

test('RequestOption: field_name rendered, field_path only with body_json, exactly one of them', () => {
  const rendered = createRequestOption(
    { type: 'RequestOption', inject_into: 'request_parameter', field_name: "{{ config['n'] }}" },
    { n: 'page' },
  );
  assert.equal(rendered.field_name, 'page');
  assert.equal(rendered.field_path, null);
  const o = createRequestOption({ type: 'RequestOption', inject_into: 'header', field_name: 'X-Page' }, {});
  assert.equal(o.inject_into, 'header');
  assert.equal(o.field_name, 'X-Page');
  assert.throws(() => createRequestOption({ type: 'RequestOption', inject_into: 'header' }, {}), /requires either/);
  assert.throws(
    () => createRequestOption({ type: 'RequestOption', inject_into: 'body_json', field_name: 'a', field_path: ['a'] }, {}),
    /only one of/,
  );
  assert.throws(
    () => createRequestOption({ type: 'RequestOption', inject_into: 'request_parameter', field_path: ['a'] }, {}),
    /only valid with inject_into: body_json/,
  );
  assert.throws(() => createRequestOption({ type: 'RequestOption', inject_into: 'cookie', field_name: 'a' }, {}), {
    failureType: 'config_error',
  });
  // An empty field_path (e.g. copied from $parameters, §1.3) counts as absent, as in the reference.
  assert.equal(createRequestOption({ type: 'RequestOption', inject_into: 'header', field_name: 'X', field_path: [] }, {}).field_name, 'X');
});

test('RequestOption injection keeps value types, str()s headers and reuses intermediate objects', () => {
  const parts = {
    request_parameters: {},
    request_headers: {},
    request_body_data: {},
    request_body_json: { data: { keep: 1 } } as Record<string, unknown>,
  };
  createRequestOption({ type: 'RequestOption', inject_into: 'body_json', field_path: ['data', 'viewer', 'id'] }, {}).inject(parts, 5);
  createRequestOption({ type: 'RequestOption', inject_into: 'header', field_name: 'X-Flag' }, {}).inject(parts, true);
  createRequestOption({ type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' }, {}).inject(parts, 50);
  assert.deepEqual(parts.request_body_json, { data: { keep: 1, viewer: { id: 5 } } });
  assert.deepEqual(parts.request_headers, { 'X-Flag': 'True' });
  assert.deepEqual(parts.request_parameters, { limit: 50 });
});

test('unknown and custom authenticator types fail at build time with a clear config error', () => {
  assert.throws(() => createAuthenticator({ type: 'Nope' }, {}), {
    failureType: 'config_error',
    message: /Unknown authenticator type 'Nope'/,
  });
  assert.throws(() => createAuthenticator({ type: 'CustomAuthenticator', class_name: 'source_x.components.A' }, {}), {
    failureType: 'config_error',
    message: /runs only in the Python CDK/,
  });
});

test('SelectiveAuthenticator uses the authenticator named by the config', async () => {
  const component = {
    type: 'SelectiveAuthenticator',
    authenticator_selection_path: ['auth', 'kind'],
    authenticators: {
      token: { type: 'BearerAuthenticator', api_token: '{{ config.auth.token }}' },
      basic: { type: 'BasicHttpAuthenticator', username: 'u', password: 'p' },
    },
  };
  const a = await createAuthenticator(component, { auth: { kind: 'token', token: 't' } }).authenticate();
  assert.deepEqual(a.request_headers, { Authorization: 'Bearer t' });
  assert.throws(() => createAuthenticator(component, { auth: {} }), {
    failureType: 'config_error',
    message: /was not found in the config/,
  });
  assert.throws(() => createAuthenticator(component, { auth: { kind: 'oauth' } }), {
    failureType: 'config_error',
    message: /'oauth', which is not one of/,
  });
});

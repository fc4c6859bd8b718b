// "Copy as cURL with secrets": masked headers and query parameters are re-rendered from the stream's
// requester with the testing values; a token that would have to be fetched, and a body, stay masked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unmaskRequest } from '../../../server/src/runtime/scaffold/curl/unmaskRequest';

const stream = (requester: Record<string, unknown>) => ({
  streams: [
    {
      type: 'DeclarativeStream',
      name: 's',
      retriever: { type: 'SimpleRetriever', requester: { type: 'HttpRequester', url: 'https://a.test/x', ...requester } },
    },
  ],
});

test('API key in a query parameter and a templated secret header are put back; other values untouched', async () => {
  const resolved = stream({
    authenticator: {
      type: 'ApiKeyAuthenticator',
      api_token: "{{ config['key'] }}",
      inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'api_key' },
    },
    request_headers: { 'X-Shop-Token': "shop {{ config['shop'] }}", 'X-Plain': 'p' },
  });
  const { request, stillMasked } = await unmaskRequest(
    resolved,
    's',
    {
      url: 'https://a.test/x?page=2&api_key=****',
      http_method: 'GET',
      headers: { 'X-Shop-Token': 'shop ****', 'X-Plain': 'p' },
      body: null,
    },
    { key: 'k-123', shop: 's-456' },
  );
  assert.deepEqual(stillMasked, []);
  assert.equal(request.url, 'https://a.test/x?page=2&api_key=k-123');
  assert.deepEqual(request.headers, { 'X-Shop-Token': 'shop s-456', 'X-Plain': 'p' });
});

test('basic credentials are re-encoded; an OAuth token is never fetched and stays masked, as does a body', async () => {
  const basic = await unmaskRequest(
    stream({ authenticator: { type: 'BasicHttpAuthenticator', username: "{{ config['u'] }}", password: "{{ config['p'] }}" } }),
    's',
    { url: 'https://a.test/x', http_method: 'GET', headers: { Authorization: 'Basic ****' }, body: null },
    { u: 'ann', p: 'pw' },
  );
  assert.equal(basic.request.headers?.Authorization, `Basic ${Buffer.from('ann:pw').toString('base64')}`);
  const oauth = await unmaskRequest(
    stream({
      authenticator: {
        type: 'OAuthAuthenticator',
        token_refresh_endpoint: 'http://127.0.0.1:9/never',
        client_id: 'c',
        client_secret: 's',
        refresh_token: 'r',
      },
    }),
    's',
    { url: 'https://a.test/x', http_method: 'POST', headers: { Authorization: 'Bearer ****' }, body: '{"secret":"****"}' },
    {},
  );
  assert.equal(oauth.request.headers?.Authorization, 'Bearer ****');
  assert.deepEqual(oauth.stillMasked, [
    'header Authorization',
    'body',
    'the OAuthAuthenticator credentials (a token is never fetched for a copy)',
  ]);
});

// Redirects between two real loopback servers on different ports (two origins): credentials never
// follow to the other origin, a body is never sent there again, and the test read shows every redirect.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpFetch, redirectsOf } from '../../../server/src/runtime/http/transport';
import { testRead } from '../../../server/src/runtime/testRead/testRead';
import { startLoopback, json, manifestWith } from '../testRead/loopback';

type Server = Awaited<ReturnType<typeof startLoopback>>;
let origin: Server;
let other: Server;

before(async () => {
  other = await startLoopback((req, res) => json(res, { data: [{ id: 1, at: 'other' }], got: req.headers }));
  origin = await startLoopback((req, res, base) => {
    const u = new URL(req.url, base);
    const to = (path: string, status: number) => {
      res.writeHead(status, { Location: path });
      res.end();
    };
    if (u.pathname === '/away') return to(`${other.base}/landing`, 302);
    if (u.pathname === '/away-307') return to(`${other.base}/token`, 307);
    if (u.pathname === '/here-308') return to('/echo', 308);
    if (u.pathname === '/here') return to('/echo', 302);
    if (u.pathname === '/token') return to(`${other.base}/token`, 307);
    if (u.pathname === '/echo') return json(res, { data: [{ id: 2 }], got: req.headers, body: req.body });
    json(res, { error: 'no' }, {}, 404);
  });
});
after(async () => {
  await origin.close();
  await other.close();
});

const CREDENTIAL_HEADERS = {
  Authorization: 'Bearer tok-abc/+=',
  Cookie: 'sid=s3cr3t',
  'Proxy-Authorization': 'Basic cHJveHk6cA==',
  'X-API-Key': 'key-123456',
  'X-Custom-Signature': 'sig-from-config',
  Accept: 'application/json',
  'User-Agent': 'studio-test',
};

test('a cross-origin redirect sends no credential-bearing header to the other origin', async () => {
  other.requests.length = 0;
  const res = await createHttpFetch()({
    method: 'GET',
    url: `${origin.base}/away?api_key=q`,
    headers: { ...CREDENTIAL_HEADERS },
    body: null,
  });
  assert.equal(res.status, 200);
  assert.equal(other.requests.length, 1);
  const got = other.requests[0].headers;
  for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-custom-signature'])
    assert.equal(got[name], undefined, `${name} reached the other origin`);
  assert.equal(got.accept, 'application/json');
  assert.equal(got['user-agent'], 'studio-test');
  const redirects = redirectsOf(res);
  assert.equal(redirects?.length, 1);
  assert.equal(redirects![0].crossOrigin, true);
  assert.equal(redirects![0].from, `${origin.base}/away?…`, 'the query string (which may hold a key) is not shown');
  assert.deepEqual([...redirects![0].droppedHeaders].sort(), [
    'Authorization',
    'Cookie',
    'Proxy-Authorization',
    'X-API-Key',
    'X-Custom-Signature',
  ]);
});

test('a same-origin redirect keeps the headers and (307/308) the body', async () => {
  const res = await createHttpFetch()({
    method: 'POST',
    url: `${origin.base}/here-308`,
    headers: { ...CREDENTIAL_HEADERS, 'Content-Type': 'application/json' },
    body: '{"a":1}',
  });
  const body = JSON.parse(res.body);
  assert.equal(body.got['x-api-key'], 'key-123456');
  assert.equal(body.got.authorization, 'Bearer tok-abc/+=');
  assert.equal(body.body, '{"a":1}');
  assert.equal(redirectsOf(res)![0].crossOrigin, false);
});

test('a 307 to another origin that would resend a body is refused with a clear message', async () => {
  other.requests.length = 0;
  await assert.rejects(
    createHttpFetch()({
      method: 'POST',
      url: `${origin.base}/away-307`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_secret=cs-1%2F2&refresh_token=1%2F%2Fabc',
    }),
    (e: Error & { code?: string }) => {
      assert.equal(e.code, 'ERR_UNSAFE_REDIRECT');
      assert.match(e.message, /Refused to follow the 307 redirect of POST .*\/away-307 to another origin \(http:\/\/127\.0\.0\.1:\d+\)/);
      assert.doesNotMatch(e.message, /cs-1|abc/);
      return true;
    },
  );
  assert.equal(other.requests.length, 0, 'nothing reached the other origin');
});

test('the test read shows redirects (INFO log and the page response) and the API key stays home', async () => {
  other.requests.length = 0;
  const manifest = manifestWith({
    requester: {
      type: 'HttpRequester',
      url_base: origin.base,
      path: '/away',
      http_method: 'GET',
      authenticator: {
        type: 'ApiKeyAuthenticator',
        api_token: '{{ config.api_key }}',
        inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Key' },
      },
    },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
  });
  const read = await testRead(manifest, { api_key: 'k/+= é key' }, 'items');
  assert.equal(other.requests.length, 1);
  assert.equal(other.requests[0].headers['x-key'], undefined);
  const info = read.logs.find((l) => l.level === 'INFO' && l.message.startsWith('Redirect:'));
  assert.ok(info, JSON.stringify(read.logs));
  assert.match(info!.message, /GET .*\/away answered 302, followed to .*\/landing \(another origin; not sent there: X-Key\)/);
  const response = read.slices[0].pages[0].response!;
  assert.equal(response.redirects?.length, 1);
  assert.equal(read.slices[0].pages[0].records.length, 1);
});

test('an OAuth token refresh redirected (307) to another origin is refused; client_secret and refresh_token never leave', async () => {
  other.requests.length = 0;
  const manifest = manifestWith({
    requester: {
      type: 'HttpRequester',
      url_base: origin.base,
      path: '/echo',
      http_method: 'GET',
      authenticator: {
        type: 'OAuthAuthenticator',
        token_refresh_endpoint: `${origin.base}/token`,
        client_id: 'cid',
        client_secret: '{{ config.client_secret }}',
        refresh_token: '{{ config.refresh_token }}',
      },
    },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
  });
  const read = await testRead(manifest, { client_secret: 'cs/+= é', refresh_token: '1//refresh+tok=' }, 'items').catch((e: Error) => e);
  assert.equal(other.requests.length, 0);
  const text = read instanceof Error ? read.message : JSON.stringify(read);
  assert.match(text, /Refused to follow the 307 redirect/);
});

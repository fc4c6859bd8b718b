// cURL commands as authors paste them (browser "Copy as cURL", API docs) → RequestSketch, and the
// clear errors for commands that cannot become a stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCurlCommand } from '../../../server/src/runtime/scaffold/curl/parseCurl';
import { requestToCurl, shellQuote } from '../../../server/src/runtime/shared/curlCommand';

test('method, URL, query (order and duplicates kept), headers and body of a multi-line command', async () => {
  const { request, error } = await parseCurlCommand(
    [
      `curl -X PATCH 'https://api.example.com/v1/items/?limit=10&q=a%20b&q=c' \\`,
      `  -H 'Accept: application/json' \\`,
      `  -H "X-Trace: it's" \\`,
      `  --data-raw $'{"name":"it\\'s"}'`,
    ].join('\n'),
  );
  assert.equal(error, undefined);
  assert.deepEqual(request, {
    method: 'PATCH',
    url: 'https://api.example.com/v1/items/',
    query: [
      ['limit', '10'],
      ['q', 'a b'],
      ['q', 'c'],
    ],
    headers: [
      ['Accept', 'application/json'],
      ['X-Trace', "it's"],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ],
    origin: 'the cURL command',
    body: `{"name":"it's"}`,
  });
});

test('-u and --oauth2-bearer become credentials; -G moves data into the query; a URL without scheme gets http://', async () => {
  assert.deepEqual((await parseCurlCommand('curl -u ann:s3cr3t https://x.test/a')).request?.basicAuth, { user: 'ann', password: 's3cr3t' });
  const bearer = (await parseCurlCommand('curl --oauth2-bearer tok123 example.com/a -G -d q=1')).request;
  assert.deepEqual(bearer?.headers, [['Authorization', 'Bearer tok123']]);
  assert.deepEqual(bearer?.query, [['q', '1']]);
  assert.equal(bearer?.url, 'http://example.com/a');
  assert.equal(bearer?.method, 'GET');
});

test('what cannot become a stream is refused with what to do', async () => {
  assert.match((await parseCurlCommand('wget https://x.test')).error ?? '', /does not start with `curl`/);
  assert.match((await parseCurlCommand('curl -F file=@a.png https://x.test/up')).error ?? '', /Multipart/);
  assert.match((await parseCurlCommand('curl -d @body.json https://x.test/up')).error ?? '', /read from a file/);
  assert.match((await parseCurlCommand('curl --digest -u a:b https://x.test/up')).error ?? '', /digest authentication/);
  assert.match((await parseCurlCommand('curl -H "X: 1"')).error ?? '', /could not be read|no URL/);
});

test('requestToCurl quotes for the shell and parses back to the same request', async () => {
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote('https://a.test/x'), 'https://a.test/x');
  const curl = requestToCurl({
    url: 'https://a.test/v1/s?x=1&y=a%20b',
    http_method: 'POST',
    headers: { 'X-Quote': `a'b "c" $HOME`, 'Content-Type': 'application/json' },
    body: '{"k":"it\'s"}',
  });
  assert.equal(curl.split('\n')[0], "curl -X POST 'https://a.test/v1/s?x=1&y=a%20b' \\");
  const back = (await parseCurlCommand(curl)).request!;
  assert.deepEqual(back.headers, [
    ['X-Quote', `a'b "c" $HOME`],
    ['Content-Type', 'application/json'],
  ]);
  assert.equal(back.body, '{"k":"it\'s"}');
  assert.deepEqual(back.query, [
    ['x', '1'],
    ['y', 'a b'],
  ]);
  assert.equal(requestToCurl({ url: 'https://a.test/', http_method: 'GET', headers: null, body: null }), 'curl https://a.test/');
  assert.match(requestToCurl({ url: 'https://a.test/', http_method: 'GET', headers: null, body: 'x' }), /^curl -X GET/);
});

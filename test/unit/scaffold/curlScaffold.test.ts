// Requests → streams: credentials become an authenticator and secret inputs, the rest request options;
// a new manifest or edits to an existing one (every line the author wrote kept), each value commented
// with its origin, and 0 validation errors — on real manifests of the corpus too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { parseManifest, validateManifest } from '../../../server/src/runtime';
import { parseCurlCommand } from '../../../server/src/runtime/scaffold/curl/parseCurl';
import { readHarEntries } from '../../../server/src/runtime/scaffold/curl/harEntries';
import { scaffoldStreams } from '../../../server/src/runtime/scaffold/curl/scaffoldStreams';
import { applyOffsetEdits } from '../../../server/src/runtime/scaffold/curl/scaffoldYaml';

const errors = (text: string) => validateManifest(parseManifest(text)).filter((p) => p.severity === 'error');
const curl = async (c: string) => (await parseCurlCommand(c)).request!;
type Obj = Record<string, any>;
const requesterOf = (text: string, i = 0): Obj => parse(text).streams[i].retriever.requester;

test('a new manifest from a cURL command: authenticator, secret inputs, options, body, comments, 0 problems', async () => {
  const r = scaffoldStreams(
    [
      await curl(
        `curl -X POST 'https://api.shop.test/v2/orders/search?status=open&api_key=k_123' -H 'Authorization: Bearer tok_abc' -H 'X-Client: studio' -H 'Content-Type: application/json' -H 'User-Agent: curl/8' --data-raw '{"limit":5}'`,
      ),
    ],
    undefined,
    'a cURL command',
  );
  const text = r.text!;
  assert.deepEqual(r.streams, ['search']);
  assert.deepEqual(validateManifest(parseManifest(text)), []);
  const req = requesterOf(text);
  assert.deepEqual(req, {
    type: 'HttpRequester',
    url: 'https://api.shop.test/v2/orders/search',
    http_method: 'POST',
    authenticator: { type: 'BearerAuthenticator', api_token: "{{ config['api_key'] }}" },
    request_headers: { 'X-Client': 'studio' },
    request_parameters: { status: 'open', api_key: "{{ config['api_key_2'] }}" },
    request_body: { type: 'RequestBodyJsonObject', value: { limit: 5 } },
  });
  const spec = parse(text).spec.connection_specification;
  assert.deepEqual(spec.required, ['api_key', 'api_key_2']);
  assert.equal(spec.properties.api_key.airbyte_secret, true);
  assert.equal(spec.properties.api_key_2.airbyte_secret, true);
  assert.ok(!text.includes('tok_abc') && !text.includes('k_123'), 'no credential is written into the manifest');
  assert.match(text, /url: https:\/\/api\.shop\.test\/v2\/orders\/search # URL of the cURL command, without its query/);
  assert.match(text, /# from the Authorization: Bearer … in the cURL command\n\s+authenticator:/);
  assert.match(text, /X-Client: studio # header of the cURL command/);
  assert.match(text, /# from the Bearer token of the Authorization header in the cURL command\n\s+api_key:/);
  assert.match(text, /# no response to look at: set the path to the array of records\n\s+field_path: \[\]/);
});

test('each kind of credential: basic (-u or header), API-key header, API-key query parameter, cookies', async () => {
  const one = async (c: string) => requesterOf(scaffoldStreams([await curl(c)], undefined, 'x').text!);
  assert.deepEqual((await one('curl -u ann:pw https://a.test/users')).authenticator, {
    type: 'BasicHttpAuthenticator',
    username: "{{ config['username'] }}",
    password: "{{ config['password'] }}",
  });
  assert.equal(
    (await one(`curl https://a.test/users -H 'Authorization: Basic ${Buffer.from('ann:pw').toString('base64')}'`)).authenticator.type,
    'BasicHttpAuthenticator',
  );
  assert.deepEqual((await one(`curl https://a.test/users -H 'X-Api-Key: k'`)).authenticator, {
    type: 'ApiKeyAuthenticator',
    api_token: "{{ config['api_key'] }}",
    inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Api-Key' },
  });
  assert.deepEqual(
    (await one(`curl https://a.test/users -H 'Authorization: Token t'`)).authenticator.api_token,
    "Token {{ config['api_key'] }}",
  );
  assert.deepEqual((await one(`curl 'https://a.test/users?apikey=k&page=2'`)).authenticator.inject_into, {
    type: 'RequestOption',
    inject_into: 'request_parameter',
    field_name: 'apikey',
  });
  const cookie = await one(`curl https://a.test/users -H 'X-Api-Key: k' -H 'Cookie: sid=1'`);
  assert.equal(cookie.request_headers.Cookie, "{{ config['cookie'] }}");
});

test('added to an existing manifest: url_base reused, inputs added to the spec, stream appended, names kept unique', async () => {
  const existing = [
    'version: 6.44.0',
    'type: DeclarativeSource',
    'definitions:',
    '  base_requester:',
    '    type: HttpRequester',
    '    url_base: https://api.shop.test/v2',
    '    authenticator: {type: BearerAuthenticator, api_token: "{{ config[\'api_key\'] }}"}',
    'check: {type: CheckStream, stream_names: [orders]}',
    'streams:',
    '  # the first stream',
    '  - type: DeclarativeStream',
    '    name: orders',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester: {$ref: "#/definitions/base_requester", path: /orders}',
    '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}',
    'spec:',
    '  type: Spec',
    '  connection_specification:',
    '    type: object',
    '    required: [api_key]',
    '    properties:',
    '      api_key: {type: string, airbyte_secret: true}',
  ].join('\n');
  const r = scaffoldStreams(
    [await curl(`curl 'https://api.shop.test/v2/orders?page=1' -H 'Authorization: Bearer t' -H 'X-Shop-Token: s'`)],
    existing,
    'a cURL command',
  );
  const text = applyOffsetEdits(existing, r.edits!);
  assert.deepEqual(errors(text), []);
  assert.deepEqual(r.streams, ['orders_2']);
  assert.ok(text.startsWith(existing.split('\nspec:')[0].split('\nstreams:')[0]));
  // Every line is kept except the flow `required` list, rewritten with the new input.
  for (const line of existing.split('\n').filter((l) => !l.includes('required:'))) assert.ok(text.includes(line), `kept: ${line}`);
  const doc = parse(text);
  assert.equal(doc.streams.length, 2);
  assert.deepEqual(
    { url_base: doc.streams[1].retriever.requester.url_base, path: doc.streams[1].retriever.requester.path },
    { url_base: 'https://api.shop.test/v2', path: '/orders' },
  );
  assert.match(text, /url_base: https:\/\/api\.shop\.test\/v2 # same as the url_base of definitions\.base_requester/);
  // api_key existed: reused, not declared twice; the second credential is a new secret input.
  assert.deepEqual(Object.keys(doc.spec.connection_specification.properties), ['api_key', 'shop_token']);
  assert.deepEqual(doc.spec.connection_specification.required, ['api_key', 'shop_token']);
  assert.equal(doc.streams[1].retriever.requester.request_headers['X-Shop-Token'], "{{ config['shop_token'] }}");
});

test('HAR: entries for the picker; one stream per endpoint with field_path, primary key and schema from the response', () => {
  const entry = (method: string, url: string, body: unknown, headers: { name: string; value: string }[] = []) => ({
    request: { method, url, headers: [{ name: ':authority', value: 'api.test' }, { name: 'accept-encoding', value: 'gzip' }, ...headers] },
    response: { status: 200, content: { mimeType: 'application/json', text: JSON.stringify(body) } },
  });
  const har = JSON.stringify({
    log: {
      entries: [
        entry(
          'GET',
          'https://api.test/v1/users?page=1',
          {
            meta: { total: 2 },
            results: [
              { uuid: 'a', name: 'Ann' },
              { uuid: 'b', name: 'Bo' },
            ],
          },
          [{ name: 'x-api-key', value: 'k1' }],
        ),
        entry('GET', 'https://api.test/v1/users?page=2', { results: [] }),
        entry('GET', 'https://api.test/v1/teams', [{ id: 1, title: 't' }]),
        { request: { method: 'GET', url: 'data:image/png;base64,AAAA' }, response: { status: 200 } },
      ],
    },
  });
  const { entries, error } = readHarEntries(har);
  assert.equal(error, undefined);
  assert.deepEqual(
    entries.map((e) => `${e.method} ${e.url} ${e.status}`),
    ['GET https://api.test/v1/users?page=1 200', 'GET https://api.test/v1/users?page=2 200', 'GET https://api.test/v1/teams 200'],
  );
  const r = scaffoldStreams(
    entries.map((e) => e.request),
    undefined,
    'a HAR file',
  );
  assert.deepEqual(r.streams, ['users', 'teams']);
  assert.deepEqual(errors(r.text!), []);
  const doc = parse(r.text!);
  assert.deepEqual(doc.streams[0].retriever.record_selector.extractor.field_path, ['results']);
  assert.deepEqual(doc.streams[0].primary_key, ['uuid']);
  assert.deepEqual(Object.keys(doc.streams[0].schema_loader.schema.properties), ['uuid', 'name']);
  assert.deepEqual(doc.streams[1].retriever.record_selector.extractor.field_path, []);
  assert.deepEqual(doc.streams[1].primary_key, ['id']);
  assert.equal(doc.streams[0].retriever.requester.authenticator.inject_into.field_name, 'x-api-key');
  assert.equal(doc.streams[0].retriever.requester.request_headers, undefined, 'browser headers are left out');
  assert.match(r.text!, /# the response's array of objects under results \(2 in the recorded response\)\n\s+field_path:/);
  assert.match(r.text!, /- uuid\n/);
  assert.match(readHarEntries('{"log":{}}').error ?? '', /no log\.entries/);
  assert.match(readHarEntries('not json').error ?? '', /not JSON/);
});

test('corpus: a stream from cURL added to real manifests adds no validation error and keeps every line', async (t) => {
  const dir = [process.env.CORPUS_DIR, join(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'manifests')].find(
    (d) => d && existsSync(d),
  );
  if (!dir) return t.skip('../shared/corpus is not present');
  const request = await curl(`curl 'https://api.example.test/v3/things?limit=50' -H 'Authorization: Bearer t' -H 'X-Team: core'`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .filter((_, i) => i % 10 === 0);
  let checked = 0;
  for (const file of files) {
    const text: string = readFileSync(join(dir, file), 'utf8');
    const before: number = errors(text).length;
    const r = scaffoldStreams([request], text, 'a cURL command');
    const after = applyOffsetEdits(text, r.edits!);
    assert.equal(
      errors(after).length,
      before,
      `${file}: ${JSON.stringify(
        errors(after)
          .slice(0, 3)
          .map((p) => p.message),
      )}`,
    );
    const lines = text.split('\n');
    assert.deepEqual(after.split('\n').filter((l) => lines.includes(l)).length >= lines.length - 2, true, `${file}: lines kept`);
    assert.ok(
      parse(after).streams.some((s: Obj) => s?.name?.startsWith('things')),
      file,
    );
    checked++;
  }
  assert.ok(checked >= 40, `${checked} manifests`);
});

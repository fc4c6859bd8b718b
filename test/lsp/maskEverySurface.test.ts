// One masker for every surface, over stdio: a credential the authenticator reads from a config value
// the spec does not mark airbyte_secret stays masked in the test read, in every hover and completion
// built from the captured read, and in dynamic stream names; API text in hovers cannot break out of
// its code span. The API is a real HTTP server on 127.0.0.1 that echoes the credential back in every
// encoding that hides the whole value.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hover } from 'vscode-languageserver-protocol';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';
import {
  GetSpecRequest,
  ResolveStreamsRequest,
  type GetSpecResult,
  TestReadRequest,
  type ResolveStreamsParams,
  type StreamRead,
  type TestReadParams,
} from '../../server/src/protocol';

const KEY = 'ak-Secret-7Q9z';
const uri = 'file:///w/mask-every-surface/manifest.yaml';

/** Every character encoded: percent (both cases), HTML hex and decimal references, \u escapes, base64. */
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
const ENCODED: Record<string, string> = {
  percentUpper: [...KEY].map((c) => `%${hex(c).toUpperCase()}`).join(''),
  percentLower: [...KEY].map((c) => `%${hex(c)}`).join(''),
  htmlHex: [...KEY].map((c) => `&#x${hex(c)};`).join(''),
  htmlDecimal: [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''),
  unicodeEscape: [...KEY].map((c) => `\\u00${hex(c)}`).join(''),
  base64Offset1: Buffer.from(`x${KEY}`).toString('base64'),
  base64Offset2: Buffer.from(`xy${KEY}`).toString('base64'),
};

const SPAN_BREAKER = 'before `` ![x](http://127.0.0.1:9/leak.png) [link](http://127.0.0.1:9/) after';

let api: Server;
let base = '';
let client: LspTestClient;

function manifest(): string {
  return `version: 6.0.0
type: DeclarativeSource
check: {type: CheckStream, stream_names: [items]}
definitions:
  requester:
    type: HttpRequester
    url_base: "{{ config['url_base'] }}"
    authenticator:
      type: BearerAuthenticator
      api_token: "{{ config['access_key'] }}"
streams:
  - type: DeclarativeStream
    name: items
    primary_key: id
    schema_loader: {type: InlineSchemaLoader, schema: {type: object}}
    retriever:
      type: SimpleRetriever
      requester:
        $ref: "#/definitions/requester"
        path: /items
        request_parameters:
          probe: "{{ config['access_key'] }}"
      record_selector:
        type: RecordSelector
        extractor: {type: DpathExtractor, field_path: [data]}
      paginator:
        type: DefaultPaginator
        pagination_strategy:
          type: CursorPagination
          cursor_value: "{{ response.note }}"
          stop_condition: "{{ true }}"
dynamic_streams:
  - type: DynamicDeclarativeStream
    stream_template:
      type: DeclarativeStream
      name: placeholder
      schema_loader: {type: InlineSchemaLoader, schema: {type: object}}
      retriever:
        type: SimpleRetriever
        requester: {$ref: "#/definitions/requester", path: /items}
        record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: [data]}}
    components_resolver:
      type: HttpComponentsResolver
      retriever:
        type: SimpleRetriever
        requester: {$ref: "#/definitions/requester", path: /tables}
        record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: [tables]}}
      components_mapping:
        - type: ComponentMappingDefinition
          field_path: [name]
          value: "{{ components_values['name'] }}"
spec:
  type: Spec
  connection_specification:
    type: object
    properties:
      url_base: {type: string}
      access_key: {type: string}
`;
}

before(async () => {
  api = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/tables')) {
      res.end(JSON.stringify({ tables: [{ name: `table-${KEY}` }, { name: 'plain' }] }));
      return;
    }
    // The API echoes what it was sent, in every encoding; the JSON body text keeps the \u escapes.
    const body = JSON.stringify({ data: [{ id: 1, auth: req.headers.authorization ?? '', ...ENCODED }], note: SPAN_BREAKER }).replace(
      JSON.stringify(ENCODED.unicodeEscape),
      `"${ENCODED.unicodeEscape}"`,
    );
    res.setHeader('x-echo', ENCODED.percentLower);
    res.end(body);
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  client = await LspTestClient.start();
  await client.open(uri, manifest());
});
after(async () => {
  await client.stop();
  await new Promise((r) => api.close(r));
});

const config = () => ({ url_base: base, access_key: KEY });

async function hoverAt(needle: string, delta: number): Promise<string> {
  const h: Hover | null = await client.hover(uri, positionOf(manifest(), needle, delta));
  return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
}

/** Fails with the surface's name when `text` holds the credential in any form the test knows. */
function assertNoCredential(surface: string, text: string): void {
  for (const form of [KEY, ...Object.values(ENCODED)]) assert.ok(!text.includes(form), `${surface} shows ${form}:\n${text.slice(0, 2000)}`);
  // The core of base64 at any offset: the characters that depend only on the key.
  for (const b64 of [ENCODED.base64Offset1, ENCODED.base64Offset2])
    assert.ok(!text.includes(b64.slice(4, -4)), `${surface} shows base64 of the key`);
}

test('a config value the authenticator uses is masked in the read, in every encoding, though the spec does not mark it', async () => {
  const read = await client.request<StreamRead>(TestReadRequest, {
    uri,
    streamName: 'items',
    config: config(),
    limits: { maxRecords: 10 },
    runId: 'm1',
  } satisfies TestReadParams);
  assert.ok(read.slices?.length, JSON.stringify(read).slice(0, 1500));
  const page = read.slices[0].pages[0];
  assert.equal(page.records.length, 1);
  assertNoCredential('the StreamRead', JSON.stringify(read));
  const record = page.records[0] as Record<string, string>;
  for (const name of Object.keys(ENCODED)) assert.match(record[name], /\*\*\*\*/, `record.${name} is masked`);
  assert.equal(record.auth, 'Bearer ****');
});

test('hover from the last read shows **** for that config value, never the credential (HIGH)', async () => {
  const onAuth = await hoverAt("config['access_key'] }}\"\nstreams", 3);
  const onParam = await hoverAt("config['access_key'] }}\"\n      record_selector", 3);
  for (const [name, md] of [
    ['authenticator', onAuth],
    ['request_parameters', onParam],
  ] as const) {
    assertNoCredential(`the hover on ${name}`, md);
  }
  assert.match(onParam, /From the last read/);
  assert.match(onParam, /\*\*\*\*/);
});

test('completion from the last read never offers the credential in a detail or documentation', async () => {
  const items = await client.completion(uri, positionOf(manifest(), 'response.note }}', 'response.'.length));
  assert.ok(
    items.some((i) => i.label === 'note'),
    'the captured keys are offered',
  );
  assertNoCredential('completion', JSON.stringify(items));
});

test('API text in a hover stays inside its code span: two backticks cannot close it (no image, no link)', async () => {
  const md = await hoverAt('response.note }}"\n          stop_condition', 3);
  assert.match(md, /From the last read/);
  const line = md.split('\n').find((l) => l.includes('leak.png'));
  assert.ok(line, md);
  // The value sits in one code span whose fence is longer than any backtick run inside it.
  const span = /(`{3,}) (.*) \1/.exec(line!);
  assert.ok(span, `a fenced code span: ${line}`);
  assert.ok(span![2].includes('![x](http://127.0.0.1:9/leak.png)'));
  assert.ok(!line!.replace(span![0], '').includes('!['), 'nothing of the value outside the span');
});

test('dynamic stream names that echo a credential are masked', async () => {
  const result = await client.request<{ streams?: Array<{ name: string }> } & Record<string, unknown>>(ResolveStreamsRequest, {
    uri,
    config: config(),
  } as ResolveStreamsParams);
  assertNoCredential('the resolved streams', JSON.stringify(result));
  assert.match(JSON.stringify(result), /table-\*\*\*\*/);
});

test('the client learns the credential paths with the spec, so its views mask them too (its second line of defence)', async () => {
  const spec = await client.request<GetSpecResult>(GetSpecRequest, { uri });
  assert.deepEqual(spec.credentialPaths, [['access_key']]);
});

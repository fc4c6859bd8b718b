// Prototype-safe data through the runtime API (docs/security.md, "Prototype-safe data"): whole test
// reads, recordings and replays with `__proto__`, `constructor` and `prototype` keys at every level
// (manifest, records, config, cassette) leave every built-in prototype as it was; a write path with
// such a segment is refused with a clear error; the next read of another manifest is unaffected.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { testRead } from '../../../server/src/runtime/testRead/testRead';
import { recordRead, replayRead } from '../../../server/src/runtime/cassette/cassetteRead';
import { formatCassette, parseCassette, type Cassette } from '../../../server/src/runtime/cassette/cassette';
import { deepMergeOwn, PROTOTYPE_KEYS } from '../../../server/src/runtime/shared/safeObject';
import { setAtPath } from '../../../server/src/runtime/safePath';
import { mergeEdits } from '../../../client/src/configMerge';
import type { StreamRead } from '../../../server/src/runtime/testRead/streamRead';

/** A JSON text whose objects carry the three keys at every level (JSON.parse makes them own properties). */
const HOSTILE_OBJECT =
  '{"__proto__":{"url_base":"http://evil.invalid","polluted":1,"types":7},"constructor":{"prototype":{"polluted":2}},"prototype":{"polluted":3}}';
const hostileRecord = (id: number) =>
  `{"id":${id},"__proto__":{"polluted":1,"nested":${HOSTILE_OBJECT}},"constructor":{"prototype":{"polluted":2}},"prototype":[${HOSTILE_OBJECT}],"child":${HOSTILE_OBJECT}}`;

const requests: string[] = [];
let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.url} ${req.headers.authorization ?? ''}`);
    res.setHeader('content-type', 'application/json');
    // The wrapper object has the keys too, so the extractor, the paginator and the inferrer walk them.
    res.end(`{"__proto__":{"data":[]},"constructor":{"prototype":{}},"data":[${hostileRecord(1)},${hostileRecord(2)}]}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

/** Every own property (names and symbols, with descriptors) of the built-in prototypes. */
function prototypeSnapshot(): string {
  const protos = [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    String.prototype,
    Number.prototype,
    Boolean.prototype,
    Map.prototype,
    Set.prototype,
    Promise.prototype,
    RegExp.prototype,
    Date.prototype,
    Error.prototype,
  ];
  return protos
    .map((p) =>
      Reflect.ownKeys(p)
        .map((k) => {
          const d = Object.getOwnPropertyDescriptor(p, k)!;
          const value =
            typeof d.value === 'function'
              ? d.value.name
              : d.value !== null && typeof d.value === 'object'
                ? 'object'
                : typeof d.value === 'symbol'
                  ? 'symbol'
                  : String(d.value);
          return `${String(k)}:${value}:${String(d.get?.name)}:${String(d.set?.name)}`;
        })
        .join(','),
    )
    .join('\n');
}

/** A manifest whose definitions, parameters, request options and transformations carry the keys. */
function hostileManifest(extraTransformations = ''): object {
  return parse(`
version: 6.0.0
type: DeclarativeSource
definitions:
  __proto__: { url_base: "http://evil.invalid", polluted: 1 }
  constructor: { prototype: { polluted: 2 } }
  prototype: { polluted: 3 }
check: { type: CheckStream, stream_names: [s] }
streams:
  - type: DeclarativeStream
    name: s
    primary_key: [id]
    $parameters: { __proto__: { polluted: 1 }, constructor: c, prototype: p }
    schema_loader: { type: InlineSchemaLoader, schema: { type: object, properties: { __proto__: { type: object } } } }
    retriever:
      type: SimpleRetriever
      requester:
        type: HttpRequester
        url: "{{ config['base'] }}/items"
        http_method: GET
        request_parameters: { constructor: "{{ config['constructor'] }}", prototype: "x" }
        request_headers: { __proto__: "h" }
      record_selector:
        type: RecordSelector
        extractor: { type: DpathExtractor, field_path: [data] }
    transformations:
      - type: AddFields
        fields: [{ type: AddedFieldDefinition, path: [added, deep], value: "{{ record['__proto__'] }}" }]
      - type: KeysToLower
      - type: KeysReplace
        old: "child"
        new: "__proto__"
      - type: DpathFlattenFields
        field_path: [constructor]
${extraTransformations}
`) as object;
}

/** A config with the keys at every level (as a config.json would carry them). */
const hostileConfig = () =>
  JSON.parse(
    `{"base":"${base}","constructor":"c","__proto__":{"base":"http://evil.invalid","url_base":"http://evil.invalid"},"credentials":${HOSTILE_OBJECT}}`,
  ) as Record<string, unknown>;

const errorsOf = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
const recordsOf = (r: StreamRead) => r.slices.flatMap((s) => s.pages).flatMap((p) => p.records);

test('a whole read, a recording and a replay with prototype keys at every level leave every built-in prototype untouched', async () => {
  const before = prototypeSnapshot();
  const read = await testRead(hostileManifest(), hostileConfig(), 's');
  assert.deepEqual(errorsOf(read), []);
  const records = recordsOf(read) as Record<string, unknown>[];
  assert.equal(records.length, 2);
  // The keys stay data: a record keeps `__proto__` as an own field and its prototype is Object's.
  for (const r of records) {
    assert.equal(Object.getPrototypeOf(r), Object.prototype);
    assert.ok(Object.hasOwn(r, '__proto__'), 'the __proto__ field is kept as data');
  }
  const { cassette } = await recordRead(hostileManifest(), hostileConfig(), 's');
  // The cassette file itself gets the keys at its top level and inside its exchanges.
  const text = formatCassette(cassette).replace(
    /^version:/m,
    `__proto__: { polluted: 1 }\nconstructor: { prototype: { polluted: 2 } }\nversion:`,
  );
  const parsed = parseCassette(text, 'hostile.yaml') as Cassette;
  assert.equal(typeof parsed, 'object');
  const replay = await replayRead(hostileManifest(), parsed, { config: hostileConfig() });
  assert.deepEqual(errorsOf(replay.result), []);
  assert.deepEqual(replay.misses, []);
  assert.equal(recordsOf(replay.result).length, 2);
  assert.equal(prototypeSnapshot(), before, 'no built-in prototype changed');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(({} as Record<string, unknown>).url_base, undefined);
});

for (const path of [
  ['__proto__', 'url_base'],
  ['constructor', 'prototype', 'url_base'],
  ['a', 'prototype'],
]) {
  test(`AddFields path ${JSON.stringify(path)} is refused with a clear error; the next read of another manifest sends its token only to its own host`, async () => {
    const before = prototypeSnapshot();
    const extra = `      - type: AddFields\n        fields: [{ type: AddedFieldDefinition, path: ${JSON.stringify(path)}, value: "http://evil.invalid" }]`;
    const bad = await testRead(hostileManifest(extra), { base }, 's');
    assert.match(
      errorsOf(bad).join('\n'),
      new RegExp(`AddFields path: the path segment "${path.find((s) => PROTOTYPE_KEYS.has(s))}" is not allowed`),
    );
    assert.equal(prototypeSnapshot(), before);
    requests.length = 0;
    const other = parse(`
version: 6.0.0
type: DeclarativeSource
check: { type: CheckStream, stream_names: [t] }
streams:
  - type: DeclarativeStream
    name: t
    primary_key: []
    schema_loader: { type: InlineSchemaLoader, schema: {} }
    retriever:
      type: SimpleRetriever
      requester:
        type: HttpRequester
        url: "{{ config['base'] }}/other"
        http_method: GET
        authenticator: { type: BearerAuthenticator, api_token: "{{ config['token'] }}" }
      record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [data] } }
`) as object;
    const read = await testRead(other, { base, token: 'token-of-another-project' }, 't');
    assert.deepEqual(errorsOf(read), []);
    assert.deepEqual(requests, ['/other Bearer token-of-another-project']);
  });
}

test('OAuth write-back config paths with a prototype segment are refused when the authenticator is built, before any token request', async () => {
  requests.length = 0;
  const manifest = parse(`
version: 6.0.0
type: DeclarativeSource
check: { type: CheckStream, stream_names: [s] }
streams:
  - type: DeclarativeStream
    name: s
    primary_key: []
    schema_loader: { type: InlineSchemaLoader, schema: {} }
    retriever:
      type: SimpleRetriever
      requester:
        type: HttpRequester
        url: "{{ config['base'] }}/items"
        authenticator:
          type: OAuthAuthenticator
          client_id: id
          client_secret: secret
          refresh_token: "{{ config['refresh'] }}"
          token_refresh_endpoint: "{{ config['base'] }}/token"
          refresh_token_updater:
            refresh_token_config_path: [__proto__, url_base]
      record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [data] } }
`) as object;
  await assert.rejects(
    testRead(manifest, { base, refresh: 'r' }, 's'),
    (e: Error & { failureType?: string }) =>
      e.failureType === 'config_error' &&
      /refresh_token_updater\.refresh_token_config_path: the path segment "__proto__" is not allowed/.test(e.message),
  );
  assert.deepEqual(requests, []);
});

test('the one path writer and the mergers keep every key as data', () => {
  const before = prototypeSnapshot();
  for (const bad of [
    ['__proto__', 'x'],
    ['constructor', 'prototype', 'x'],
    ['a', 'prototype'],
  ]) {
    assert.throws(
      () => setAtPath({}, bad, 1, 'test path'),
      (e: Error & { failureType?: string }) => e.failureType === 'config_error' && /test path: the path segment/.test(e.message),
    );
  }
  const update = JSON.parse(HOSTILE_OBJECT) as Record<string, unknown>;
  const merged = deepMergeOwn({ a: 1, __proto__: null } as Record<string, unknown>, update);
  assert.deepEqual(Object.keys(merged).sort(), ['__proto__', 'a', 'constructor', 'prototype']);
  assert.equal(Object.getPrototypeOf(merged), Object.prototype);
  const edited = mergeEdits({}, JSON.parse(HOSTILE_OBJECT), JSON.parse(`{"constructor":{"prototype":{"polluted":9}}}`));
  assert.ok(Object.hasOwn(edited, '__proto__'));
  assert.equal(prototypeSnapshot(), before);
});

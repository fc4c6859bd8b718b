import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { resolveManifest } from '../../../server/src/runtime/manifest/resolve';

const resolve = (value: unknown) => resolveManifest(value);

test('§1 step 1: the top level gets type DeclarativeSource when it has none', () => {
  const r = resolve({ version: '6.0.0', streams: [] });
  assert.equal((r.value as any).type, 'DeclarativeSource');
  assert.deepEqual(r.problems, []);
  assert.equal((resolve({ type: 'Other' }).value as any).type, 'Other');
});

test('§1.1: a "#/" string anywhere is replaced by the resolved target', () => {
  const r = resolve({ definitions: { base: 'https://x', a: '#/definitions/base' }, url: '#/definitions/a' });
  assert.equal((r.value as any).url, 'https://x');
  assert.equal((r.value as any).definitions.a, 'https://x');
});

test('§1.1: $ref merges shallowly and the local keys win', () => {
  const r = resolve({
    definitions: { req: { type: 'HttpRequester', url_base: 'https://a', requester_extra: { a: 1, b: 2 } } },
    x: { $ref: '#/definitions/req', url_base: 'https://b', requester_extra: { c: 3 } },
  });
  assert.deepEqual((r.value as any).x, { type: 'HttpRequester', url_base: 'https://b', requester_extra: { c: 3 } });
});

test('§1.1: a $ref to a non-mapping discards the local keys', () => {
  const r = resolve({ definitions: { list: [1, 2] }, x: { $ref: '#/definitions/list', other: 1 } });
  assert.deepEqual((r.value as any).x, [1, 2]);
});

test('§1.1: a path first tries the whole rest as one key, digits index lists', () => {
  const r = resolve({
    definitions: { 'a/b': 'whole', a: { b: 'split' } },
    streams: [{ name: 'zero' }, { name: 'one' }],
    p: '#/definitions/a/b',
    q: '#/streams/1/name',
  });
  assert.equal((r.value as any).p, 'whole');
  assert.equal((r.value as any).q, 'one');
});

test('§1.1: references inside targets are resolved on the way', () => {
  const r = resolve({ definitions: { a: { $ref: '#/definitions/b', k: 1 }, b: { v: '#/definitions/c' }, c: 7 }, x: '#/definitions/a' });
  assert.deepEqual((r.value as any).x, { v: 7, k: 1 });
});

test('§1.1: config_overrides content is copied verbatim', () => {
  const r = resolve({ config_overrides: { path: '#/not/a/ref' } });
  assert.deepEqual((r.value as any).config_overrides, { path: '#/not/a/ref' });
  assert.deepEqual(r.problems, []);
});

test('§1.1: a missing target is an error at the referencing node naming the missing segment', () => {
  const r = resolve({ definitions: {}, x: { $ref: '#/definitions/nope' } });
  assert.equal(r.problems.length, 1);
  assert.equal(r.problems[0].code, 'unknown-reference');
  assert.match(r.problems[0].message, /`#\/definitions\/nope`.*no `nope` under `#\/definitions`/);
  assert.deepEqual(r.origins.unresolved, [['x']]);
});

test('§1.1: a cycle is an error, not a hang', () => {
  const r = resolve({ definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } }, x: '#/definitions/a' });
  assert.ok(r.problems.length >= 1);
  assert.ok(r.problems.every((p) => p.code === 'circular-reference'));
  assert.match(r.problems[0].message, /circular reference: #\/definitions\/(a|b) → #\/definitions\/(a|b) → #\/definitions\/(a|b)/);
});

test('§1.2: default component types are inserted by parent type and field, also in lists', () => {
  const r = resolve({
    streams: [{ name: 's', retriever: { requester: { url_base: 'u' }, record_selector: { extractor: { field_path: [] } } } }],
  });
  const s = (r.value as any).streams[0];
  assert.equal(s.type, 'DeclarativeStream');
  assert.equal(s.retriever.type, 'SimpleRetriever');
  assert.equal(s.retriever.requester.type, 'HttpRequester');
  assert.equal(s.retriever.record_selector.type, 'RecordSelector');
  assert.equal(s.retriever.record_selector.extractor.type, 'DpathExtractor');
});

test('§1.2: a class_name mapping gets the custom type of its slot', () => {
  const r = resolve({ type: 'DeclarativeSource', streams: [{ type: 'DeclarativeStream', retriever: { class_name: 'source.X' } }] });
  assert.equal((r.value as any).streams[0].retriever.type, 'CustomRetriever');
});

test('§1.2: slots without a default (authenticator) stay untyped', () => {
  const r = resolve({ streams: [{ retriever: { requester: { authenticator: { api_token: 'x' } } } }] });
  assert.equal((r.value as any).streams[0].retriever.requester.authenticator.type, undefined);
});

test('§1.3: parameters flow down, fill missing fields and are kept as $parameters', () => {
  const r = resolve({
    streams: [{ $parameters: { name: 'users', path: '/users' }, retriever: { requester: { url_base: 'u' } } }],
  });
  const s = (r.value as any).streams[0];
  assert.equal(s.name, 'users');
  assert.equal(s.retriever.requester.path, '/users');
  assert.deepEqual(s.retriever.requester.$parameters, { name: 'users', path: '/users' });
});

test('§1.3: own parameters win over inherited ones; explicit non-falsy fields win over parameters', () => {
  const r = resolve({
    streams: [{ name: 'kept', $parameters: { name: 'p', path: '/a' }, retriever: { $parameters: { path: '/b' }, requester: {} } }],
  });
  const s = (r.value as any).streams[0];
  assert.equal(s.name, 'kept');
  assert.equal(s.retriever.requester.path, '/b');
});

test('§1.3 reference quirk: a falsy field is overwritten by a same-named parameter', () => {
  const r = resolve({ streams: [{ name: '', primary_key: [], $parameters: { name: 'n', primary_key: 'id' } }] });
  const s = (r.value as any).streams[0];
  assert.equal(s.name, 'n');
  assert.equal(s.primary_key, 'id');
});

test('§1.3: JSON-schema objects are untouched and non-components only pass parameters to typed children', () => {
  const r = resolve({
    streams: [
      {
        $parameters: { name: 'n' },
        schema_loader: { type: 'InlineSchemaLoader', schema: { type: 'object', properties: {} } },
        retriever: { requester: { request_parameters: { fields: { type: 'QueryProperties', x: 1 }, plain: { a: 1 } } } },
      },
    ],
  });
  const s = (r.value as any).streams[0];
  assert.deepEqual(s.schema_loader.schema, { type: 'object', properties: {} });
  const rp = s.retriever.requester.request_parameters;
  assert.equal(rp.fields.name, 'n');
  assert.deepEqual(rp.plain, { a: 1 });
  assert.equal(rp.name, undefined);
});

test('§1.3 step 5: a parameter named like a field does not enter that field', () => {
  const r = resolve({ streams: [{ $parameters: { retriever: 'x', name: 'n' }, retriever: { requester: {} } }] });
  const s = (r.value as any).streams[0];
  assert.deepEqual(s.retriever.$parameters, { name: 'n' });
  assert.equal(s.retriever.requester.retriever, undefined);
});

test('the input value is never modified', () => {
  const input = { definitions: { r: { url_base: 'a' } }, streams: [{ retriever: { requester: '#/definitions/r' } }] };
  const copy = JSON.parse(JSON.stringify(input));
  resolve(input);
  assert.deepEqual(input, copy);
});

test('never throws on odd input', () => {
  for (const v of [null, 3, 'x', [], [{ $ref: 5 }], { $ref: '#/' }, { a: { $ref: 'no-hash' } }]) {
    assert.doesNotThrow(() => resolve(v));
  }
  const invalid = resolve({ a: { $ref: 'no-hash' } });
  assert.equal(invalid.problems[0].code, 'invalid-reference');
});

test('origins: a value from a definition is located where written, with the reference as related info', () => {
  const text = [
    'definitions:',
    '  req:',
    '    url_base: https://api',
    'streams:',
    '  - retriever:',
    '      requester:',
    '        $ref: "#/definitions/req"',
    '        path: /x',
    '',
  ].join('\n');
  const parsed = parseManifest(text);
  const r = resolveManifest(parsed.value, { parsed });
  const loc = r.origins.locate(['streams', 0, 'retriever', 'requester', 'url_base'])!;
  assert.equal(text.slice(loc.span.start, loc.span.end), 'https://api');
  assert.equal(text.slice(loc.keySpan!.start, loc.keySpan!.end), 'url_base');
  assert.equal(loc.via.length, 1);
  assert.equal(text.slice(loc.via[0].start, loc.via[0].end), '"#/definitions/req"');
  const local = r.origins.locate(['streams', 0, 'retriever', 'requester', 'path'])!;
  assert.equal(text.slice(local.span.start, local.span.end), '/x');
  assert.deepEqual(local.via, []);
});

test('origins: a propagated parameter points at its $parameters entry; inserted values at the nearest ancestor', () => {
  const text = 'streams:\n  - $parameters:\n      name: users\n    retriever: {}\n';
  const parsed = parseManifest(text);
  const r = resolveManifest(parsed.value, { parsed });
  const name = r.origins.locate(['streams', 0, 'name'])!;
  assert.equal(text.slice(name.span.start, name.span.end), 'users');
  const t = r.origins.locate(['streams', 0, 'retriever', 'type'])!;
  assert.equal(t.approximate, true);
  assert.equal(text.slice(t.span.start, t.span.end), '{}');
});

test('a broken reference inside a shared definition is reported once, at the reference', () => {
  const text =
    'definitions:\n  req:\n    $ref: "#/definitions/missing"\nstreams:\n  - retriever:\n      requester: "#/definitions/req"\n  - retriever:\n      requester: "#/definitions/req"\n';
  const parsed = parseManifest(text);
  const r = resolveManifest(parsed.value, { parsed });
  assert.equal(r.problems.length, 1);
  assert.equal(text.slice(r.problems[0].span.start, r.problems[0].span.end), '"#/definitions/missing"');
});

test('a scalar reached through a "#/" string is located at its target', () => {
  const text = 'definitions:\n  base: https://api\nurl: "#/definitions/base"\n';
  const parsed = parseManifest(text);
  const r = resolveManifest(parsed.value, { parsed });
  const loc = r.origins.locate(['url'])!;
  assert.equal(text.slice(loc.span.start, loc.span.end), 'https://api');
  assert.equal(text.slice(loc.via[0].start, loc.via[0].end), '"#/definitions/base"');
});

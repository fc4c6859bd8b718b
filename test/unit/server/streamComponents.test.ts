import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManifestDocuments } from '../../../server/src/documents';
import { locateStreamComponent } from '../../../server/src/features/streamComponents';
import { fractionalPaths, provideSchemaDifferences, schemaDifferences } from '../../../server/src/features/schemaDifferences';

const TEXT = [
  'version: 6.0.0',
  'type: DeclarativeSource',
  'definitions:',
  '  auth:',
  '    type: BearerAuthenticator',
  '    api_token: "{{ config.token }}"',
  'streams:',
  '  - type: DeclarativeStream',
  '    name: items',
  '    schema_loader:',
  '      type: InlineSchemaLoader',
  '      schema:',
  '        type: object',
  '        properties:',
  '          id: {type: integer}',
  '          name: {type: [string, "null"]}',
  '          meta: {type: object, properties: {count: {type: string}}}',
  '    retriever:',
  '      type: SimpleRetriever',
  '      requester:',
  '        type: HttpRequester',
  '        url: https://api.example.test/items',
  '        authenticator: "#/definitions/auth"',
  '      paginator:',
  '        type: DefaultPaginator',
  '        pagination_strategy: {type: PageIncrement, page_size: 10}',
  '      record_selector:',
  '        type: RecordSelector',
  '        extractor: {type: DpathExtractor, field_path: []}',
  '  - type: DeclarativeStream',
  '    name: bare',
  '    retriever:',
  '      type: SimpleRetriever',
  '      requester: {type: HttpRequester, url: https://api.example.test/bare}',
  '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}',
].join('\n');

const doc = () => new ManifestDocuments().get({ uri: 'file:///m.yaml', version: 1, getText: () => TEXT });

test('the authenticator of a stream is located where it is defined, through its reference', () => {
  const loc = locateStreamComponent(doc(), 'items', 'authenticator');
  assert.ok(loc);
  assert.equal(loc.type, 'BearerAuthenticator');
  assert.equal(loc.range.start.line, 3, 'starts at the `auth:` key under definitions');
  assert.equal(loc.range.end.line, 5);
});

test('the paginator is located in the stream; a missing component gives null', () => {
  const loc = locateStreamComponent(doc(), 'items', 'paginator');
  assert.ok(loc);
  assert.equal(loc.type, 'DefaultPaginator');
  assert.equal(loc.range.start.line, 23);
  assert.equal(locateStreamComponent(doc(), 'bare', 'paginator'), null);
  assert.equal(locateStreamComponent(doc(), 'nope', 'requester'), null);
});

const inferred = {
  $schema: 'http://json-schema.org/schema#',
  type: 'object',
  properties: {
    id: { type: ['number', 'null'] },
    name: { type: ['string', 'null'] },
    meta: { type: ['object', 'null'], properties: { count: { type: ['number', 'null'] }, extra: { type: ['boolean', 'null'] } } },
    tags: { type: ['array', 'null'], items: { type: ['string', 'null'] } },
  },
};

test('differences: integer declared but number inferred, nested mismatches and fields missing from the declared schema', () => {
  const result = provideSchemaDifferences(doc(), 'items', inferred, [{ id: 1.5 }]);
  assert.equal(result.declared, 'inline');
  assert.deepEqual(
    result.differences.map((d) => [d.kind, d.path, d.declared, d.inferred]),
    [
      ['type', 'id', 'integer', 'number'],
      ['type', 'meta.count', 'string', 'number'],
      ['missing', 'meta.extra', null, 'boolean'],
      ['missing', 'tags', null, 'array'],
    ],
  );
  assert.match(result.differences[0].message, /“id” is declared as integer but the records hold number/);
});

test('a stream without a schema loader: every field is missing; nullability alone is no difference', () => {
  const result = provideSchemaDifferences(doc(), 'bare', inferred);
  assert.equal(result.declared, 'none');
  assert.equal(result.differences.length, 4);
  assert.deepEqual(
    schemaDifferences({ properties: { a: { type: ['null', 'string'] } } }, { properties: { a: { type: ['string', 'null'] } } }),
    [],
  );
  assert.equal(provideSchemaDifferences(doc(), 'nope', inferred).declared, 'unknown-stream');
});

test('integer declared, number inferred (the CDK never infers integer): a difference only where a record holds a fraction', () => {
  const declared = {
    type: 'object',
    properties: { id: { type: 'integer' }, price: { type: ['null', 'integer'] }, rows: { type: 'array', items: { type: 'integer' } } },
  };
  const inf = {
    type: 'object',
    properties: {
      id: { type: ['number', 'null'] },
      price: { type: ['number', 'null'] },
      rows: { type: ['array', 'null'], items: { type: ['number', 'null'] } },
    },
  };
  // Whole numbers everywhere: nothing contradicts `integer` (the demo's first read used to warn on `id`).
  assert.deepEqual(
    schemaDifferences(
      declared,
      inf,
      fractionalPaths([
        { id: 1, price: 10, rows: [1, 2] },
        { id: 2, price: null, rows: [] },
      ]),
    ),
    [],
  );
  // A fraction at `price` and in `rows` items: those two, and only those, differ.
  const diffs = schemaDifferences(declared, inf, fractionalPaths([{ id: 3, price: 2.5, rows: [1, 0.5] }]));
  assert.deepEqual(
    diffs.map((d) => [d.path, d.declared, d.inferred]),
    [
      ['price', 'integer', 'number'],
      ['rows[]', 'integer', 'number'],
    ],
  );
  // A declared string is still contradicted by numbers, whole or not.
  assert.equal(
    schemaDifferences({ properties: { s: { type: 'string' } } }, { properties: { s: { type: 'number' } } }, fractionalPaths([{ s: 1 }]))
      .length,
    1,
  );
});

test('arrays of objects are compared item by item', () => {
  const declared = {
    type: 'object',
    properties: { rows: { type: 'array', items: { type: 'object', properties: { v: { type: 'integer' } } } } },
  };
  const inf = {
    type: 'object',
    properties: { rows: { type: ['array', 'null'], items: { type: ['object', 'null'], properties: { v: { type: ['number', 'null'] } } } } },
  };
  assert.deepEqual(
    schemaDifferences(declared, inf, fractionalPaths([{ rows: [{ v: 1.5 }] }])).map((d) => d.path),
    ['rows[].v'],
  );
});

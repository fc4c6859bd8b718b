import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { inferredSchemaEdit, SchemaEditError } from '../../../server/src/inferredSchemaEdit';

const schema = { $schema: 'http://json-schema.org/schema#', type: 'object', properties: { id: { type: ['number', 'null'] } } };

function apply(text: string, stream: string): string {
  const e = inferredSchemaEdit(text, stream, schema);
  return text.slice(0, e.start) + e.newText + text.slice(e.end);
}

test('replaces a block InlineSchemaLoader schema in place and keeps the rest of the file', () => {
  const text = [
    '# my connector',
    'version: 6.0.0',
    'type: DeclarativeSource',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: items',
    '    schema_loader:',
    '      type: InlineSchemaLoader',
    '      schema:',
    '        type: object',
    '        properties: {}',
    '    retriever: {}  # kept',
    '',
  ].join('\n');
  const out = apply(text, 'items');
  assert.deepEqual(parse(out).streams[0].schema_loader.schema, schema);
  assert.match(out, /^# my connector\n/);
  assert.match(out, /retriever: \{\} {2}# kept/);
});

test('a flow-style schema under a block key becomes a block on the following lines', () => {
  const text =
    'streams:\n  - name: a\n    schema_loader:\n      type: InlineSchemaLoader\n      schema: {type: object}\n    primary_key: id\n';
  const out = apply(text, 'a');
  assert.deepEqual(parse(out).streams[0].schema_loader.schema, schema);
  assert.equal(parse(out).streams[0].primary_key, 'id');
  assert.match(out, /\n {6}schema:\n {8}\$schema:/);
});

test('inside a flow mapping the schema is written as JSON, which is valid flow YAML', () => {
  const text = 'streams:\n  - name: a\n    schema_loader: {type: InlineSchemaLoader, schema: {type: object}}\n';
  assert.deepEqual(parse(apply(text, 'a')).streams[0].schema_loader.schema, schema);
});

test('follows "#/schemas/..." and $ref references to the entry they name, and $ref streams', () => {
  const text = [
    'definitions:',
    '  items_stream:',
    '    name: items',
    '    schema_loader:',
    '      type: InlineSchemaLoader',
    '      schema:',
    '        $ref: "#/schemas/items"',
    'streams:',
    '  - $ref: "#/definitions/items_stream"',
    'schemas:',
    '  items:',
    '    type: object',
    '  other:',
    '    type: object',
    '',
  ].join('\n');
  const out = parse(apply(text, 'items'));
  assert.deepEqual(out.schemas.items, schema);
  assert.deepEqual(out.schemas.other, { type: 'object' });
  assert.deepEqual(out.definitions.items_stream.schema_loader.schema, { $ref: '#/schemas/items' });
});

test('adds an InlineSchemaLoader to a stream that has none', () => {
  const text = 'streams:\n  - type: DeclarativeStream\n    name: a\n    retriever: {}\n  - name: b\n';
  const out = parse(apply(text, 'a'));
  assert.deepEqual(out.streams[0].schema_loader, { type: 'InlineSchemaLoader', schema });
  assert.deepEqual(out.streams[1], { name: 'b' });
});

test('refuses clearly when there is no safe place to write', () => {
  assert.throws(
    () => inferredSchemaEdit('streams:\n  - name: a\n', 'zzz', schema),
    (e: Error) => e instanceof SchemaEditError && /No stream named 'zzz'/.test(e.message),
  );
  assert.throws(
    () => inferredSchemaEdit('streams:\n  - name: a\n    schema_loader:\n      type: DynamicSchemaLoader\n', 'a', schema),
    /DynamicSchemaLoader/,
  );
  assert.throws(() => inferredSchemaEdit('streams: [\n', 'a', schema), /YAML errors/);
});

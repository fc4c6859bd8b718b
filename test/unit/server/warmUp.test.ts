// The warm-up runs before the server answers `initialize`; its samples must read cleanly, or the
// code they are meant to warm stays cold (a throw only ends the warm-up early: it is guarded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CORE_SCHEMA, load } from 'js-yaml';
import { parse } from 'yaml';
import { warmUpServer } from '../../../server/src/warmUp';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments } from '../../../server/src/documents';
import { provideDiagnostics } from '../../../server/src/features/diagnostics';
import { sampleManifest, sampleWithUnknownFields, yamlVarietySample } from '../../../server/src/warmUpSamples';

test('the YAML variety sample reads the same with js-yaml and with yaml, in every layout it is there for', () => {
  const text = yamlVarietySample(1);
  const fast = load(text, { schema: CORE_SCHEMA }) as Record<string, any>;
  assert.deepEqual(fast, parse(text, { schema: 'core' }));
  const props = fast.definitions.item_1.properties;
  // A sequence at its key's indentation, one indented, flow collections over one and several lines.
  assert.deepEqual(props.Id.type, ['null', 'string']);
  assert.deepEqual(props.Amount.type, ['null', 'number']);
  assert.deepEqual(props.Tags, { type: ['null', 'array'], items: { type: 'string', maxLength: 64 } });
  assert.deepEqual(props.flow_multi, ['one', 'two', 'three']);
  assert.deepEqual(props.flow_map_multi, { a: 1, b: 'x' });
  assert.deepEqual(props.nested_seq, [['a', 'b'], ['c', 'd'], { e: 'f' }, { key: 'value', other: 1 }, { late: 'item' }]);
  // Every scalar style: plain over several lines, quoted with escapes, literal, folded, kept, indented.
  assert.equal(props.long_plain, 'this plain scalar goes on over a second line and a third one');
  assert.equal(props.quoted_single, "it's {{ config['name'] }}");
  assert.equal(props.quoted_double, 'line\nbreak "quoted" é \t tab');
  assert.equal(props.literal, "SELECT * FROM Items\nWHERE updated > '{{ stream_slice.start_time }}'\n\nORDER BY id\n");
  assert.equal(props.folded_strip, "{{ 'https://sandbox.example.test' if config.sandbox else 'https://live.example.test' }}");
  assert.equal(props.keep, 'kept\n\n');
  assert.equal(props.indented, '  two more spaces\n');
  // Core-schema scalars.
  assert.deepEqual([props.nothing, props.tilde, props.flag, props.other_flag, props.count, props.hex], [null, null, true, false, 1, 31]);
  assert.equal(props['quoted key'], 'value');
});

test('the warm-up runs to the end without throwing', () => {
  assert.doesNotThrow(() => warmUpServer());
  assert.ok(sampleManifest().length > 0);
});

test('the findings sample has an unknown field in each component and nothing else wrong, so the warm-up locates many findings', () => {
  const doc = new ManifestDocuments().get(TextDocument.create('warmup:test.yaml', 'yaml', 1, sampleWithUnknownFields()));
  const diagnostics = provideDiagnostics(doc);
  const unknown = diagnostics.filter((d) => d.code === 'unknown-field');
  // One per component beside its `type`, and the base requester's `name` every sample has.
  assert.equal(unknown.filter((d) => /Unknown field `unknown_\d+`/.test(String(d.message))).length, 41);
  assert.equal(unknown.length, 42);
  assert.deepEqual(
    diagnostics.filter((d) => d.severity === 1),
    [],
  );
});

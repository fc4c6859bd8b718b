import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { ManifestModel } from '../../../server/src/model/manifestModel';

/** A manifest with blocks large enough to be split into sub-blocks (LEAF_MAX_LINES). */
function bigManifest(streams = 6, propsPerSchema = 80): string {
  const out = ['version: 6.4.0', 'type: DeclarativeSource', 'definitions:', '  streams:'];
  for (let s = 0; s < streams; s++) {
    out.push(`    s${s}:`, '      type: DeclarativeStream', `      name: s${s}`, '      retriever:', '        type: SimpleRetriever');
  }
  out.push('streams:');
  for (let s = 0; s < streams; s++) out.push(`  - $ref: "#/definitions/streams/s${s}"`);
  out.push('schemas:');
  for (let s = 0; s < streams; s++) {
    out.push(`  s${s}:`, '    type: object', '    properties:');
    for (let p = 0; p < propsPerSchema; p++) out.push(`      p${p}:`, '        type:', '          - "null"', '          - string');
  }
  return out.join('\n') + '\n';
}

test('the split model loads to exactly the value of a whole-document parse', () => {
  const text = bigManifest();
  const model = ManifestModel.build(text);
  assert.equal(model.isIncremental, true);
  assert.deepEqual(model.value, parseManifest(text).value);
  assert.deepEqual(model.problems, []);
});

test('locate gives the same spans as the yaml Document for keys deep inside split blocks', () => {
  const text = bigManifest();
  const model = ManifestModel.build(text);
  const doc = parseManifest(text).doc;
  const path = ['schemas', 's3', 'properties', 'p41', 'type', 1];
  const loc = model.locate(path)!;
  const node = doc.getIn(path, true) as { range: number[] };
  assert.deepEqual(loc.valueSpan, { start: node.range[0], end: node.range[1] });
  const key = model.locate(['schemas', 's3', 'properties', 'p41'])!;
  assert.equal(text.slice(key.keySpan!.start, key.keySpan!.end), 'p41');
  assert.equal(model.locate(['schemas', 'nope']), null);
});

test('an edit re-parses only the block it touched: other blocks keep their values', () => {
  const text = bigManifest();
  const first = ManifestModel.build(text);
  const at = text.indexOf('p10:', text.indexOf('  s4:\n    type: object'));
  const edited = text.slice(0, at) + 'renamed' + text.slice(at + 3);
  const second = ManifestModel.build(edited, first);
  const v1 = first.value as { schemas: Record<string, { properties: Record<string, unknown> }> };
  const v2 = second.value as typeof v1;
  assert.ok('renamed' in v2.schemas.s4.properties && !('p10' in v2.schemas.s4.properties));
  // Untouched blocks are shared with the previous version, not re-parsed.
  assert.equal(v2.schemas.s1.properties.p10, v1.schemas.s1.properties.p10);
  assert.equal(v2.schemas.s4.properties.p70, v1.schemas.s4.properties.p70);
  assert.deepEqual(second.value, parseManifest(edited).value);
});

test('a syntax error in one block is located and does not hide the rest of the file', () => {
  const text = bigManifest().replace('      name: s2', '      name: [s2');
  const model = ManifestModel.build(text);
  const errors = model.problems.filter((p) => p.severity === 'error');
  assert.ok(errors.length >= 1);
  assert.ok(
    errors.every((e) => e.span.start >= text.indexOf('[s2') - 200 && e.span.start <= text.indexOf('[s2') + 200),
    JSON.stringify(errors),
  );
  const value = model.value as { schemas: Record<string, unknown>; streams: unknown[] };
  assert.equal(Object.keys(value.schemas).length, 6);
  assert.equal(value.streams.length, 6);
});

test('a duplicate top-level key is a warning and the later value wins', () => {
  const model = ManifestModel.build('version: 1.0.0\nstreams: []\nversion: 2.0.0\n');
  assert.deepEqual(model.value, { version: '2.0.0', streams: [] });
  assert.equal(model.problems.length, 1);
  assert.equal(model.problems[0].severity, 'warning');
  assert.equal(model.problems[0].code, 'duplicate-key');
  assert.deepEqual(model.problems[0].span, { start: 27, end: 34 });
});

test('texts the splitter cannot handle are parsed whole with the runtime parser', () => {
  for (const text of ['a: &x 1\nb: *x\n', '---\na: 1\n', '- 1\n- 2\n', '{a: 1}\n', '\ufeffa: 1\n', '']) {
    const model = ManifestModel.build(text);
    assert.equal(model.isIncremental, false, text);
    assert.deepEqual(model.value, parseManifest(text).value, text);
  }
});

test('nodeAt reports the path, and whether the offset is on a key', () => {
  const text = bigManifest();
  const model = ManifestModel.build(text);
  const keyAt = text.indexOf('p7:', text.indexOf('  s5:\n    type: object'));
  const onKey = model.nodeAt(keyAt + 1)!;
  assert.deepEqual(onKey.path, ['schemas', 's5', 'properties', 'p7']);
  assert.equal(onKey.onKey, true);
  const valueAt = text.indexOf('"null"', keyAt);
  const onValue = model.nodeAt(valueAt + 2)!;
  assert.deepEqual(onValue.path, ['schemas', 's5', 'properties', 'p7', 'type', 0]);
  assert.equal(onValue.onKey, false);
  assert.deepEqual(onValue.span, { start: valueAt, end: valueAt + 6 });
});

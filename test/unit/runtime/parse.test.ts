import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';

test('a valid manifest parses to its plain value with no problems', () => {
  const parsed = parseManifest('version: 6.44.0\ntype: DeclarativeSource\nstreams: []\n');
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.value, { version: '6.44.0', type: 'DeclarativeSource', streams: [] });
});

test('a YAML syntax error is a located error and the rest of the file still parses', () => {
  const text = 'version: 1.0.0\nstreams:\n  - name: a\n    bad: [1, 2\nspec:\n  type: Spec\n';
  const parsed = parseManifest(text);
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  assert.ok(errors.length >= 1);
  assert.equal(errors[0].code, 'yaml-syntax');
  assert.ok(errors[0].span.start >= text.indexOf('bad'));
});

test('a duplicate key is a warning: the later value wins', () => {
  const parsed = parseManifest('a: 1\na: 2\n');
  assert.equal(parsed.problems.length, 1);
  assert.equal(parsed.problems[0].severity, 'warning');
  assert.equal(parsed.problems[0].code, 'duplicate-key');
  assert.match(parsed.problems[0].message, /later value wins/);
  assert.equal(parsed.problems[0].span.start, 5);
});

test('an alias bomb is refused with a problem instead of exhausting memory', () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 0; i < 8; i++)
    lines.push(
      `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
    );
  const parsed = parseManifest(lines.join('\n'));
  assert.ok(parsed.problems.some((p) => p.severity === 'error'));
});

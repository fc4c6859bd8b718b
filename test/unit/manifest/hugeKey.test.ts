// A 1 MB top-level key used to make validation throw "Invalid regular expression" (the key was
// pasted into a RegExp to locate it), so the editor published nothing for the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { validateManifest } from '../../../server/src/runtime/validation/validateManifest';

test('a 1 MB top-level key is validated and located like any other', () => {
  const key = 'k'.repeat(1_000_000);
  const text = `version: 6.0.0\ntype: DeclarativeSource\n${key}: 1\nstreams: []\n`;
  const problems = validateManifest(parseManifest(text));
  const unknown = problems.find((p) => p.code === 'unknown-field');
  assert.ok(unknown, JSON.stringify(problems.map((p) => p.code)));
  assert.equal(unknown.span.start, text.indexOf(key));
});

test('a top-level key full of regular-expression syntax is located literally', () => {
  const text = 'version: 6.0.0\ntype: DeclarativeSource\n"(a+)+$[": 1\nstreams: []\n';
  const problems = validateManifest(parseManifest(text));
  assert.ok(
    problems.some((p) => p.code === 'unknown-field'),
    JSON.stringify(problems),
  );
});

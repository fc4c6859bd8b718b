import { test } from 'node:test';
import assert from 'node:assert/strict';
import { looksLikeManifest } from '../../../client/src/manifestText';

test('a top-level type: DeclarativeSource marks a manifest, quoted or with a comment', () => {
  assert.equal(looksLikeManifest('version: 6.0.0\ntype: DeclarativeSource\n'), true);
  assert.equal(looksLikeManifest('type: "DeclarativeSource" # the connector\n'), true);
});

test('version plus streams at the top level marks a manifest', () => {
  assert.equal(looksLikeManifest('version: 6.1.0\nstreams:\n  - name: a\n'), true);
});

test('ordinary YAML is not a manifest, even with nested keys of the same names', () => {
  assert.equal(looksLikeManifest('name: ci\non: push\njobs:\n  build:\n    runs-on: ubuntu\n'), false);
  assert.equal(looksLikeManifest('root:\n  type: DeclarativeSource\n  version: 1\n  streams: []\n'), false);
  assert.equal(looksLikeManifest('version: 3\nservices:\n  web: {}\n'), false);
});

test('a blank YAML file (or one word typed) is a start where completion offers the skeleton; anything else is not', async () => {
  const { isBlankStart } = await import('../../../client/src/manifestText');
  assert.equal(isBlankStart(''), true);
  assert.equal(isBlankStart('\n# a new connector\n\n'), true);
  assert.equal(isBlankStart('ver'), true);
  assert.equal(isBlankStart('name: x\n'), false);
  assert.equal(isBlankStart('on:\n  push:\n'), false);
});

// Diagnostics after a series of incremental edits must equal a fresh open of the same text: the
// model reuses blocks, and their cached locators, parses and scalars, across versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments } from '../../../server/src/documents';
import { provideDiagnostics } from '../../../server/src/features/diagnostics';
import { sampleManifest } from '../../../server/src/warmUpSamples';

type Edit = { name: string; apply: (text: string) => string };

/** Replaces the first occurrence of `from` (which must be there). */
const replace =
  (from: string, to: string): ((text: string) => string) =>
  (text) => {
    const at = text.indexOf(from);
    assert.ok(at >= 0, `the text holds ${JSON.stringify(from)}`);
    return text.slice(0, at) + to + text.slice(at + from.length);
  };

/** Edits like an author's, in order; each applies to the text the previous one left. */
const EDITS: Edit[] = [
  { name: 'a character typed in a value', apply: replace('field_name: cursor', 'field_name: cursorx') },
  { name: 'a misspelt component type', apply: replace('type: DpathExtractor', 'type: DpathExtracter') },
  { name: 'an unknown field added', apply: replace('    http_method: GET\n', '    http_method: GET\n    htp_method: GET\n') },
  { name: 'broken YAML', apply: replace('    http_method: GET\n', '    http_method: GET\n    bad: [unclosed\n') },
  { name: 'the broken line removed', apply: replace('    bad: [unclosed\n', '') },
  { name: 'a reference to a missing definition', apply: replace('#/definitions/streams/stream_1"', '#/definitions/streams/stream_9"') },
  {
    name: 'a misspelt variable in a folded template',
    apply: replace('{{ stream_interval.start_time }}', '{{ stream_intervl.start_time }}'),
  },
  { name: 'a line deleted', apply: replace('      name: stream_2\n', '') },
  { name: 'the misspelt type fixed', apply: replace('type: DpathExtracter', 'type: DpathExtractor') },
  {
    name: 'a stream appended',
    apply: (text) => text.replace('\nspec:\n', '\n  - $ref: "#/definitions/streams/stream_0"\n    name: copy\nspec:\n'),
  },
];

function checkEdits(label: string, start: string, edits: readonly Edit[]): void {
  const docs = new ManifestDocuments();
  let text = start;
  let version = 1;
  provideDiagnostics(docs.get(TextDocument.create('file:///m.yaml', 'yaml', version, text)));
  for (const edit of edits) {
    text = edit.apply(text);
    version++;
    const incremental = provideDiagnostics(docs.get(TextDocument.create('file:///m.yaml', 'yaml', version, text)));
    const fresh = provideDiagnostics(new ManifestDocuments().get(TextDocument.create('file:///m.yaml', 'yaml', 1, text)));
    assert.deepEqual(incremental, fresh, `${label}, after ${edit.name}`);
  }
}

test('diagnostics after each incremental edit equal a fresh open of the same text', () => {
  const text = sampleManifest();
  // The sample has something to report, so the comparison is not between two empty lists.
  assert.ok(provideDiagnostics(new ManifestDocuments().get(TextDocument.create('file:///s.yaml', 'yaml', 1, text))).length > 0);
  checkEdits('sample', text, EDITS);
});

test('the same holds on a large corpus manifest when ../shared is beside the checkout', (t) => {
  const file = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'manifests', 'source-quickbooks.yaml');
  if (!existsSync(file)) return t.skip('../shared/corpus is not present');
  const text = readFileSync(file, 'utf8');
  checkEdits('source-quickbooks', text, [
    {
      name: 'a character typed in a path',
      apply: replace('path: /v3/company/{{ config.realm_id }}/query', 'path: /v3/company/{{ config.realm_idx }}/query'),
    },
    { name: 'a folded query edited', apply: replace('SELECT * FROM Account WHERE', 'SELECT * FROM Accounts WHERE') },
    {
      name: 'an unknown field added',
      apply: replace('          http_method: GET\n', '          http_method: GET\n          http_methd: GET\n'),
    },
    { name: 'a line deleted', apply: replace('          http_methd: GET\n', '') },
  ]);
});

test('while a version has YAML errors, features read the last good version, which keeps no older one', () => {
  const docs = new ManifestDocuments();
  const good = 'version: 6.4.0\ntype: DeclarativeSource\nstreams: []\n';
  const v1 = docs.get(TextDocument.create('file:///g.yaml', 'yaml', 1, good));
  assert.deepEqual(v1.featureValue, { version: '6.4.0', type: 'DeclarativeSource', streams: [] });
  const v2 = docs.get(TextDocument.create('file:///g.yaml', 'yaml', 2, `${good}check: [\n`));
  assert.deepEqual(v2.featureValue, v1.model.value);
  const v3 = docs.get(TextDocument.create('file:///g.yaml', 'yaml', 3, `${good}check: [x\n`));
  assert.deepEqual(v3.featureValue, v1.model.value);
  const fixed = `${good}check:\n  type: CheckStream\n`;
  const v4 = docs.get(TextDocument.create('file:///g.yaml', 'yaml', 4, fixed));
  assert.equal((v4.featureValue as { check: { type: string } }).check.type, 'CheckStream');
  // A good version is its own source for the next one; it no longer holds the versions before it.
  assert.equal(v4.goodSource(), v4);
  assert.equal((v4 as unknown as { lastGood: unknown }).lastGood, undefined);
});

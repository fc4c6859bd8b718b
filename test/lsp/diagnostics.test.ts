import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => { client = await LspTestClient.start(); });
after(async () => { await client.stop(); });

test('a YAML syntax error is published as a located error with source airbyte', async () => {
  const text = 'version: 6.0.0\ntype: DeclarativeSource\nstreams:\n  - name: users\n    bad: [1, 2\n';
  const published = await client.open('file:///w/manifest.yaml', text);
  // The manifest is also incomplete (no check, no retriever): pick the YAML error among the errors.
  const errors = published.diagnostics.filter((d) => d.severity === 1 && d.code === 'yaml-syntax');
  assert.ok(errors.length >= 1, JSON.stringify(published.diagnostics));
  assert.equal(errors[0].source, 'airbyte');
  assert.equal(errors[0].code, 'yaml-syntax');
  assert.ok(errors[0].range.start.line >= 4);
});

test('fixing the error clears the diagnostics on the next version', async () => {
  const fixed = 'version: 6.0.0\ntype: DeclarativeSource\ncheck:\n  stream_names: []\nstreams: []\n';
  const published = await client.change('file:///w/manifest.yaml', fixed, 2);
  assert.equal(published.version, 2);
  assert.deepEqual(published.diagnostics.filter((d) => d.severity === 1), []);
});

test('a burst of incremental edits is validated for the latest version, which is always published', async () => {
  const uri = 'file:///w/burst.yaml';
  await client.open(uri, 'version: 6.0.0\ntype: DeclarativeSource\nstreams: []\n');
  const at = { line: 2, character: 'streams: []'.length };
  // Three keystrokes in a row: " #", "a", "b" appended to the last line.
  const last = client.waitForDiagnostics(uri, 4);
  for (const [v, t] of [[2, ' #'], [3, 'a'], [4, 'b']] as const) {
    const ch = at.character + (v === 2 ? 0 : v === 3 ? 2 : 3);
    void client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ range: { start: { line: 2, character: ch }, end: { line: 2, character: ch } }, text: t }] });
  }
  const published = await last;
  assert.equal(published.version, 4);
  // The same diagnostics as the final text opened afresh: every edit was applied, in order.
  const fresh = await client.open('file:///w/burst-fresh.yaml', 'version: 6.0.0\ntype: DeclarativeSource\nstreams: [] #ab\n');
  assert.deepEqual(published.diagnostics, fresh.diagnostics);
  assert.ok(published.diagnostics.every((d) => d.code !== 'yaml-syntax'));
});

test('deprecated fields and components are hints tagged Deprecated, only where the text is written', async () => {
  const text = [
    'version: 6.4.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [a]', 'definitions:', '  base:',
    '    type: HttpRequester', '    url_base: https://x.test', 'streams:', '  - type: DeclarativeStream', '    name: a',
    '    $parameters:', '      path: /from-params', '    schema_loader:', '      type: JsonFileSchemaLoader', '    retriever:',
    '      type: SimpleRetriever', '      requester:', '        $ref: "#/definitions/base"', '      record_selector:',
    '        type: RecordSelector', '        extractor:', '          type: DpathExtractor', '          field_path: []', '',
  ].join('\n');
  const published = await client.open('file:///w/deprecated.yaml', text);
  const hints = published.diagnostics.filter((d) => d.code === 'deprecated');
  assert.deepEqual(hints.map((d) => [d.range.start.line, d.range.start.character, d.severity, d.tags]), [
    [8, 4, 4, [2]], // url_base key in the definition, struck through
    [15, 12, 4, [2]], // the JsonFileSchemaLoader type value
  ]);
  assert.match(String(hints[0].message), /`HttpRequester.url_base` is deprecated: use `url`/);
  // `path` comes from $parameters only: no hint for it.
  assert.ok(!published.diagnostics.some((d) => /HttpRequester\.path/.test(String(d.message))));
});

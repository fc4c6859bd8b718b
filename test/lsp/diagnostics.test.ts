import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

test('fixing the error clears the diagnostics on the next version', async () => {
  await client.open('file:///w/manifest.yaml', 'version: 6.0.0\ntype: DeclarativeSource\nstreams:\n  - name: users\n    bad: [1, 2\n');
  const fixed = 'version: 6.0.0\ntype: DeclarativeSource\ncheck:\n  stream_names: []\nstreams: []\n';
  const published = await client.change('file:///w/manifest.yaml', fixed, 2);
  assert.equal(published.version, 2);
  assert.deepEqual(
    published.diagnostics.filter((d) => d.severity === 1),
    [],
  );
});

test('a burst of incremental edits is validated for the latest version, which is always published', async () => {
  const uri = 'file:///w/burst.yaml';
  await client.open(uri, 'version: 6.0.0\ntype: DeclarativeSource\nstreams: []\n');
  const at = { line: 2, character: 'streams: []'.length };
  // Three keystrokes in a row: " #", "a", "b" appended to the last line.
  const last = client.waitForDiagnostics(uri, 4);
  for (const [v, t] of [
    [2, ' #'],
    [3, 'a'],
    [4, 'b'],
  ] as const) {
    const ch = at.character + (v === 2 ? 0 : v === 3 ? 2 : 3);
    void client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: 2, character: ch }, end: { line: 2, character: ch } }, text: t }],
    });
  }
  const published = await last;
  assert.equal(published.version, 4);
  // The same diagnostics as the final text opened afresh: every edit was applied, in order.
  const fresh = await client.open('file:///w/burst-fresh.yaml', 'version: 6.0.0\ntype: DeclarativeSource\nstreams: [] #ab\n');
  assert.deepEqual(published.diagnostics, fresh.diagnostics);
  assert.ok(published.diagnostics.every((d) => d.code !== 'yaml-syntax'));
});

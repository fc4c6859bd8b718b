// Writing a connector by hand, over stdio against the real server: the demo manifests use no
// deprecated field, and the hint after a read with 0 records (with a real read of the demo API)
// whose quick fix sets the field_path that selects them. The skeleton, `version:` values, complete
// items, deprecated fields and the did-you-mean are cases in test/fixtures/features/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import { TestReadRequest, type StreamRead, type TestReadParams } from '../../server/src/protocol';
import { validateManifest } from '../../server/src/runtime/validation/validateManifest';
import { parseManifest } from '../../server/src/runtime/manifest/parse';

const validateManifestText = (text: string) => ({ problems: validateManifest(parseManifest(text)) });

let client: LspTestClient;
let demo: DemoApi;
let n = 0;
before(async () => {
  demo = await startDemoApi({ port: 0 });
  client = await LspTestClient.start(
    { validationDelayMs: 0 },
    {},
    { snippetSupport: true, tagSupport: { valueSet: [1] }, insertTextModeSupport: { valueSet: [1, 2] } },
  );
});
after(async () => {
  await client.stop();
  await demo.close();
});

test('no demo manifest uses a deprecated field', () => {
  const dir = join(__dirname, '..', '..', 'demo', 'workspace');
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const deprecated = validateManifestText(readFileSync(join(dir, name), 'utf8')).problems.filter((p) => p.code === 'deprecated');
    assert.deepEqual(
      deprecated.map((p) => p.message),
      [],
      name,
    );
  }
});

test('a read with 0 records: a hint on field_path names the response keys and the field_path that selects records; the quick fix sets it and the next read has records', async () => {
  const uri = `file:///w/authoring/empty-read.yaml`;
  const text = [
    'version: 6.44.0',
    'type: DeclarativeSource',
    'check: {type: CheckStream, stream_names: [items]}',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: items',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester: {type: HttpRequester, url: "{{ config[\'url_base\'] }}/cursor/items"}',
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor:',
    '          type: DpathExtractor',
    '          field_path: [data]',
    '',
  ].join('\n');
  const opened = await client.open(uri, text);
  assert.ok(!opened.diagnostics.some((d) => d.code === 'empty-read'));
  const readOnce = () =>
    client.request<StreamRead>(TestReadRequest, {
      uri,
      streamName: 'items',
      config: { url_base: demo.url },
      limits: { maxRecords: 10, maxPagesPerSlice: 1 },
      runId: `r${++n}`,
    } satisfies TestReadParams);
  const hinted = client.waitForDiagnostics(uri, 1);
  const read = await readOnce();
  assert.equal(read.slices[0].pages[0].records.length, 0);
  const diagnostics = (await hinted).diagnostics;
  const hint = diagnostics.find((d: Diagnostic) => d.code === 'empty-read');
  assert.ok(hint, JSON.stringify(diagnostics));
  assert.equal(hint.severity, 3);
  assert.match(
    String(hint.message),
    /returned 0 records\. The response's top-level keys: `records`, `meta`\. `field_path: \[records\]` selects \d+ records/,
  );
  // The hint sits on the field_path's value.
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  assert.equal(doc.getText(hint.range), '[data]');
  const actions =
    (await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: hint.range,
      context: { diagnostics: [hint] },
    })) ?? [];
  const fix = actions.find((a) => a.title === 'Change to `[records]`');
  assert.ok(fix, actions.map((a) => a.title).join(', '));
  const fixed = TextDocument.applyEdits(doc, fix.edit!.changes![uri] as TextEdit[]);
  await client.change(uri, fixed, 2);
  const cleared = client.waitForDiagnostics(uri, 2);
  const again = await readOnce();
  assert.ok(again.slices[0].pages[0].records.length > 0);
  assert.ok(!(await cleared).diagnostics.some((d: Diagnostic) => d.code === 'empty-read'));
});

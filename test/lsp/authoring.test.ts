// Writing a connector by hand, over stdio against the real server: the guided start (skeleton in an
// empty file, `version:` values), complete items with the fields almost always needed, deprecated
// fields marked, a did-you-mean for a type name typed short, and the hint after a read with 0
// records (with a real read of the demo API) whose quick fix sets the field_path that selects them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { CodeAction, CompletionItem, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';
import { applyAsVsCode } from './vscodeInsertion';
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
  client = await LspTestClient.start({ validationDelayMs: 0 }, {}, { snippetSupport: true, tagSupport: { valueSet: [1] }, insertTextModeSupport: { valueSet: [1, 2] } });
});
after(async () => {
  await client.stop();
  await demo.close();
});

async function completeAt(text: string, needle: string, delta = needle.length): Promise<{ uri: string; items: CompletionItem[] }> {
  const uri = `file:///w/authoring/m${++n}.yaml`;
  await client.open(uri, text);
  return { uri, items: await client.completion(uri, positionOf(text, needle, delta)) };
}

const sorted = (items: CompletionItem[]) => [...items].sort((a, b) => (a.sortText ?? String(a.label)).localeCompare(b.sortText ?? String(b.label)));

test('an empty file offers the manifest skeleton first; accepted, it is a manifest with check, spec, one stream, requester and selector', async () => {
  const text = '\n';
  const { items } = await completeAt(text, '', 0);
  const first = sorted(items)[0];
  assert.equal(first.label, 'New connector manifest (skeleton)');
  const after = applyAsVsCode(text, first).text;
  const doc = parseDocument(after);
  assert.deepEqual(doc.errors, []);
  const m = doc.toJS();
  assert.equal(m.type, 'DeclarativeSource');
  assert.equal(m.version, '7.0.0');
  assert.deepEqual(m.check, { type: 'CheckStream', stream_names: ['items'] });
  assert.deepEqual(Object.keys(m.spec.connection_specification.properties), ['api_key']);
  assert.deepEqual(m.spec.connection_specification.required, ['api_key']);
  assert.equal(m.streams.length, 1);
  assert.equal(m.streams[0].name, 'items');
  assert.equal(m.streams[0].retriever.requester.type, 'HttpRequester');
  assert.ok('url' in m.streams[0].retriever.requester);
  assert.equal(m.streams[0].retriever.record_selector.extractor.type, 'DpathExtractor');
  // Once the author fills the URL, the skeleton validates with no error.
  const filled = after.replace(/url: *$/m, 'url: https://api.example.com/items');
  const errors = validateManifestText(filled).problems.filter((p) => p.severity === 'error');
  assert.deepEqual(errors.map((e) => e.message), []);
});

test('version: offers the CDK versions the catalog knows, latest first', async () => {
  const text = 'version: \ntype: DeclarativeSource\n';
  const { items } = await completeAt(text, 'version: ');
  const versions = sorted(items).map((i) => String(i.label));
  assert.ok(versions.length >= 2, versions.join(','));
  assert.equal(versions[0], '7.0.0');
  const parts = versions.map((v) => v.split('.').map(Number));
  for (let i = 1; i < parts.length; i++) assert.ok(parts[i - 1][0] * 1e6 + parts[i - 1][1] * 1e3 + parts[i - 1][2] > parts[i][0] * 1e6 + parts[i][1] * 1e3 + parts[i][2], versions.join(','));
});

const streamWith = (retrieverLines: string[]) => [
  'version: 6.44.0', 'type: DeclarativeSource', 'check: {type: CheckStream, stream_names: [items]}', 'streams:',
  '  - type: DeclarativeStream', '    name: items', '    retriever:', '      type: SimpleRetriever', ...retrieverLines, '',
].join('\n');

test('the complete cursor paginator has cursor_value, stop_condition and page_token_option; the complete stream its requester and selector', async () => {
  const text = streamWith(['      requester: {type: HttpRequester, url: https://x}', '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}', '      paginator:', '        ']);
  const { items } = await completeAt(text, 'paginator:\n        ');
  const cursor = items.find((i) => i.label === 'DefaultPaginator with CursorPagination (complete)');
  assert.ok(cursor, items.map((i) => i.label).join(', '));
  const m = parseDocument(applyAsVsCode(text, cursor).text).toJS();
  const paginator = m.streams[0].retriever.paginator;
  assert.equal(paginator.pagination_strategy.type, 'CursorPagination');
  assert.ok('cursor_value' in paginator.pagination_strategy && 'stop_condition' in paginator.pagination_strategy);
  assert.equal(paginator.page_token_option.type, 'RequestOption');

  const streamText = 'version: 6.44.0\ntype: DeclarativeSource\nstreams:\n  - \n';
  const stream = (await completeAt(streamText, '  - ')).items.find((i) => i.label === 'DeclarativeStream (complete)')!;
  const s = parseDocument(applyAsVsCode(streamText, stream).text).toJS().streams[0];
  assert.deepEqual(Object.keys(s), ['type', 'name', 'primary_key', 'retriever']);
  assert.equal(s.retriever.requester.type, 'HttpRequester');
  assert.ok('url' in s.retriever.requester);
  assert.equal(s.retriever.record_selector.extractor.type, 'DpathExtractor');
});

test('deprecated url_base and path carry the deprecated tag, say so, and come after url', async () => {
  const text = streamWith(['      requester:', '        type: HttpRequester', '        ']);
  const { items } = await completeAt(text, 'type: HttpRequester\n        ');
  const order = sorted(items).map((i) => String(i.label));
  for (const name of ['url_base', 'path']) {
    const item = items.find((i) => i.label === name)!;
    assert.deepEqual(item.tags, [1], name);
    assert.match(item.detail ?? '', /^deprecated: use `url`/);
    assert.ok(order.indexOf(name) > order.indexOf('url') && order.indexOf(name) > order.indexOf('authenticator'), order.join(','));
  }
});

test('BearerAuth gets "Did you mean BearerAuthenticator", and the quick fix writes it', async () => {
  const text = streamWith(['      requester:', '        type: HttpRequester', '        url: https://x', '        authenticator:', '          type: BearerAuth', "          api_token: \"{{ config['api_key'] }}\"", '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}']);
  const uri = `file:///w/authoring/m${++n}.yaml`;
  const published = await client.open(uri, text);
  const d = published.diagnostics.find((x) => x.code === 'unknown-type');
  assert.ok(d, JSON.stringify(published.diagnostics));
  assert.match(String(d.message), /Did you mean `BearerAuthenticator`\?/);
  const actions = (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) ?? [];
  const fix = actions.find((a) => a.title === 'Change to `BearerAuthenticator`');
  assert.ok(fix, actions.map((a) => a.title).join(', '));
  const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), fix.edit!.changes![uri] as TextEdit[]);
  assert.match(fixed, /type: BearerAuthenticator\n/);
});

test('no demo manifest uses a deprecated field', () => {
  const dir = join(__dirname, '..', '..', 'demo', 'workspace');
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const deprecated = validateManifestText(readFileSync(join(dir, name), 'utf8')).problems.filter((p) => p.code === 'deprecated');
    assert.deepEqual(deprecated.map((p) => p.message), [], name);
  }
});

test('a read with 0 records: a hint on field_path names the response keys and the field_path that selects records; the quick fix sets it and the next read has records', async () => {
  const uri = `file:///w/authoring/empty-read.yaml`;
  const text = [
    'version: 6.44.0', 'type: DeclarativeSource', 'check: {type: CheckStream, stream_names: [items]}', 'streams:',
    '  - type: DeclarativeStream', '    name: items', '    retriever:', '      type: SimpleRetriever',
    "      requester: {type: HttpRequester, url: \"{{ config['url_base'] }}/cursor/items\"}",
    '      record_selector:', '        type: RecordSelector', '        extractor:', '          type: DpathExtractor', '          field_path: [data]', '',
  ].join('\n');
  const opened = await client.open(uri, text);
  assert.ok(!opened.diagnostics.some((d) => d.code === 'empty-read'));
  const readOnce = () => client.request<StreamRead>(TestReadRequest, { uri, streamName: 'items', config: { url_base: demo.url }, limits: { maxRecords: 10, maxPagesPerSlice: 1 }, runId: `r${++n}` } satisfies TestReadParams);
  const hinted = client.waitForDiagnostics(uri, 1);
  const read = await readOnce();
  assert.equal(read.slices[0].pages[0].records.length, 0);
  const diagnostics = (await hinted).diagnostics;
  const hint = diagnostics.find((d: Diagnostic) => d.code === 'empty-read');
  assert.ok(hint, JSON.stringify(diagnostics));
  assert.equal(hint.severity, 3);
  assert.match(String(hint.message), /returned 0 records\. The response's top-level keys: `records`, `meta`\. `field_path: \[records\]` selects \d+ records/);
  // The hint sits on the field_path's value.
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  assert.equal(doc.getText(hint.range), '[data]');
  const actions = (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: hint.range, context: { diagnostics: [hint] } })) ?? [];
  const fix = actions.find((a) => a.title === 'Change to `[records]`');
  assert.ok(fix, actions.map((a) => a.title).join(', '));
  const fixed = TextDocument.applyEdits(doc, fix.edit!.changes![uri] as TextEdit[]);
  await client.change(uri, fixed, 2);
  const cleared = client.waitForDiagnostics(uri, 2);
  const again = await readOnce();
  assert.ok(again.slices[0].pages[0].records.length > 0);
  assert.ok(!(await cleared).diagnostics.some((d: Diagnostic) => d.code === 'empty-read'));
});

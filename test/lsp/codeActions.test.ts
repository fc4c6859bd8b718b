// Quick fixes over the real server: each diagnostic's fix, applied to the text, removes that diagnostic.
// The diagnostics' messages are reworded before asking: fixes read the typed `Diagnostic.data` only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => { client = await LspTestClient.start({ validationDelayMs: 0 }); });
after(async () => { await client.stop(); });

const base = (requester: string[], extra: string[] = []) => [
  'version: 6.44.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [items]', 'streams:',
  '  - type: DeclarativeStream', '    name: items', '    retriever:', '      type: SimpleRetriever', '      requester:',
  ...requester,
  '      record_selector:', '        type: RecordSelector', '        extractor:', '          type: DpathExtractor', '          field_path: [data]',
  ...extra, '',
].join('\n');

let n = 0;
/** Opens `text`, asks for the fixes of the diagnostics with `code`, applies the first and returns the new text and diagnostics. */
async function applyFix(text: string, code: string, title?: RegExp) {
  const uri = `file:///w/actions/m${++n}.yaml`;
  const published = await client.open(uri, text);
  const diagnostics = published.diagnostics.filter((d: Diagnostic) => d.code === code);
  assert.ok(diagnostics.length >= 1, `no ${code} diagnostic in ${JSON.stringify(published.diagnostics)}`);
  // Every message is reworded before the fixes are asked for: a fix must come from the typed `data`.
  const reworded = diagnostics.map((d) => ({ ...d, message: `reworded ${String(d.message).length}` }));
  const actions = (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0].range, context: { diagnostics: reworded } })) ?? [];
  const action = actions.find((a) => !title || title.test(a.title));
  assert.ok(action?.edit?.changes?.[uri], `no fix among ${JSON.stringify(actions.map((a) => a.title))}`);
  const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), action.edit.changes[uri] as TextEdit[]);
  const after = await client.change(uri, fixed, 2);
  return { action, fixed, diagnostics: after.diagnostics as Diagnostic[] };
}

const requester = ['        type: HttpRequester', '        url: https://api.example.test/items', '        authenticator:', '          type: BearerAuthenticator', "          api_token: \"{{ config['token'] }}\""];

test('a misspelt type is changed to the suggestion', async () => {
  const r = await applyFix(base(requester).replace('type: BearerAuthenticator', 'type: BearerAuthenticater'), 'unknown-type');
  assert.equal(r.action.title, 'Change to `BearerAuthenticator`');
  assert.equal(r.action.isPreferred, true);
  assert.ok(r.fixed.includes('type: BearerAuthenticator\n'));
  assert.deepEqual(r.diagnostics.filter((d) => d.severity === 1), []);
});

test('a misspelt field and a wrong enum value are changed to the suggestion', async () => {
  const field = await applyFix(base([...requester, '        use_cahce: true']), 'unknown-field');
  assert.ok(field.fixed.includes('        use_cache: true'));
  assert.deepEqual(field.diagnostics.filter((d) => d.code === 'unknown-field'), []);
  const value = await applyFix(base([...requester, '        http_method: PSOT']), 'schema');
  assert.ok(value.fixed.includes('http_method: POST'));
  assert.deepEqual(value.diagnostics.filter((d) => d.severity === 1), []);
});

test('a missing required field is added under the component, indented like its fields', async () => {
  const r = await applyFix(base(requester.slice(0, 4)), 'schema', /Add required field/);
  assert.equal(r.action.title, 'Add required field `api_token` to BearerAuthenticator');
  assert.ok(r.fixed.includes('        authenticator:\n          api_token: \n          type: BearerAuthenticator'), r.fixed);
  // The field is there now; only its value is left to type.
  assert.ok(!r.diagnostics.some((d) => /missing required field `api_token`/.test(String(d.message))));
});

test('url_base and path in one requester become a single url', async () => {
  const r = await applyFix(base(['        type: HttpRequester', "        url_base: \"{{ config['base'] }}/v2/\"", '        path: /items']), 'deprecated', /url/);
  assert.ok(r.fixed.includes(`        url: "{{ config['base'] }}/v2/items"\n      record_selector:`), r.fixed);
  assert.deepEqual(r.diagnostics.filter((d) => d.code === 'deprecated'), []);
});

test('a misspelt template variable or filter is changed to the suggestion, inside the template', async () => {
  const variable = await applyFix(base(['        type: HttpRequester', "        url: \"{{ confg['base'] }}/items\""]), 'template-variable-not-available');
  assert.equal(variable.action.title, 'Change to `config`');
  assert.ok(variable.fixed.includes(`url: "{{ config['base'] }}/items"`));
  const filter = await applyFix(base(['        type: HttpRequester', "        url: \"{{ config['base'] | lowr }}/items\""]), 'template-syntax');
  assert.ok(filter.fixed.includes("{{ config['base'] | lower }}"));
  assert.deepEqual(filter.diagnostics.filter((d) => d.code === 'template-syntax'), []);
});

test('fixes come from Diagnostic.data: typed data without the message fixes, a message without data does not', async () => {
  const uri = `file:///w/actions/m${++n}.yaml`;
  const text = base([...requester, '        use_cahce: true']);
  const published = await client.open(uri, text);
  const unknown = published.diagnostics.find((d: Diagnostic) => d.code === 'unknown-field');
  assert.deepEqual(unknown?.data, { kind: 'replace', text: 'use_cache' });
  const ask = async (diagnostics: Diagnostic[]) => (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: unknown!.range, context: { diagnostics, only: ['quickfix'] } })) ?? [];
  const withoutData = { ...unknown!, data: undefined };
  assert.deepEqual(await ask([withoutData]), [], 'the message alone offers nothing');
  const malformed = { ...unknown!, data: { kind: 'add-field', component: 'X', field: 'a: b\nc' } };
  assert.deepEqual(await ask([malformed]), [], 'data from the client is checked');
  const [fix] = await ask([{ ...unknown!, message: '' }]);
  assert.equal(fix.title, 'Change to `use_cache`');
});

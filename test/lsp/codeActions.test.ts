// Quick fixes read the typed `Diagnostic.data`, never the message, and check data sent back by the
// client. What each fix writes is tested by the cases in test/fixtures/features/quickfix/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
});
after(async () => {
  await client.stop();
});

const base = (requester: string[], extra: string[] = []) =>
  [
    'version: 6.44.0',
    'type: DeclarativeSource',
    'check:',
    '  type: CheckStream',
    '  stream_names: [items]',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: items',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    ...requester,
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor:',
    '          type: DpathExtractor',
    '          field_path: [data]',
    ...extra,
    '',
  ].join('\n');

const requester = [
  '        type: HttpRequester',
  '        url: https://api.example.test/items',
  '        authenticator:',
  '          type: BearerAuthenticator',
  '          api_token: "{{ config[\'token\'] }}"',
];

let n = 0;
test('fixes come from Diagnostic.data: typed data without the message fixes, a message without data does not', async () => {
  const uri = `file:///w/actions/m${++n}.yaml`;
  const text = base([...requester, '        use_cahce: true']);
  const published = await client.open(uri, text);
  const unknown = published.diagnostics.find((d: Diagnostic) => d.code === 'unknown-field');
  assert.deepEqual(unknown?.data, { kind: 'replace', text: 'use_cache' });
  const ask = async (diagnostics: Diagnostic[]) =>
    (await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: unknown!.range,
      context: { diagnostics, only: ['quickfix'] },
    })) ?? [];
  const withoutData = { ...unknown!, data: undefined };
  assert.deepEqual(await ask([withoutData]), [], 'the message alone offers nothing');
  const malformed = { ...unknown!, data: { kind: 'add-field', component: 'X', field: 'a: b\nc' } };
  assert.deepEqual(await ask([malformed]), [], 'data from the client is checked');
  const [fix] = await ask([{ ...unknown!, message: '' }]);
  assert.equal(fix.title, 'Change to `use_cache`');
});

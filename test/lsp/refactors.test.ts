// Refactors over the real server: "Extract to definitions" (and sharing one entry among identical
// components), "Inline reference" and rename of a definitions key. Each applied edit must leave
// what the CDK reads unchanged: the resolved streams before and after are compared.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { CodeAction, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';
import type { ResolvedManifestResult } from '../../server/src/protocol';

let client: LspTestClient;
before(async () => { client = await LspTestClient.start({ validationDelayMs: 0 }); });
after(async () => { await client.stop(); });

const auth = ['          type: ApiKeyAuthenticator', '          api_token: "{{ config[\'api_key\'] }}"', '          inject_into:', '            type: RequestOption', '            inject_into: header', '            field_name: X-Api-Key'];
const stream = (name: string, authenticator = auth) => [
  '  - type: DeclarativeStream', `    name: ${name}`, '    retriever:', '      type: SimpleRetriever', '      requester:', '        type: HttpRequester',
  '        url_base: https://api.example.test', `        path: /${name}`, '        authenticator:', ...authenticator,
  '      record_selector:', '        type: RecordSelector', '        extractor:', '          type: DpathExtractor', '          field_path: [data]',
];
const manifest = (streams: string[][], before: string[] = []) => [
  'version: 6.44.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [users]', ...before, 'streams:', ...streams.flat(),
  'spec:', '  type: Spec', '  connection_specification:', '    type: object', '    required: [api_key]', '    properties:', '      api_key:', '        type: string', '        airbyte_secret: true', '',
].join('\n');

let n = 0;
async function open(text: string) {
  const uri = `file:///w/refactors/m${++n}.yaml`;
  const published = await client.open(uri, text);
  assert.deepEqual(published.diagnostics.filter((d) => d.severity === 1), [], 'the starting manifest is valid');
  return uri;
}

async function actionsAt(uri: string, range: Range, only?: string[]): Promise<CodeAction[]> {
  return (await client.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [], ...(only ? { only } : {}) } })) ?? [];
}

async function resolvedStreams(uri: string): Promise<unknown> {
  const result = await client.request<ResolvedManifestResult>('airbyte/resolvedManifest', { uri });
  assert.equal(result.problems, 0, result.text);
  const value = parse(result.text) as { streams: unknown; check: unknown };
  return { streams: value.streams, check: value.check };
}

/** Applies `edit` to the open document; asserts no error diagnostics and the same resolved streams. */
async function applyAndCheck(uri: string, text: string, edit: WorkspaceEdit | undefined, version: number): Promise<string> {
  assert.ok(edit?.changes?.[uri], 'the action carries an edit of the document');
  const before = await resolvedStreams(uri);
  const changed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', version - 1, text), edit.changes[uri] as TextEdit[]);
  const published = await client.change(uri, changed, version);
  assert.deepEqual(published.diagnostics.filter((d) => d.severity === 1), [], changed);
  assert.deepEqual(await resolvedStreams(uri), before, 'the CDK reads the same streams');
  return changed;
}

const at = (text: string, needle: string, nth = 0): Range => {
  const p = positionOf(text, needle, 0, nth);
  return { start: p, end: p };
};

test('an authenticator is extracted to a new definitions section and referenced with $ref', async () => {
  const text = manifest([stream('users')]);
  const uri = await open(text);
  const actions = await actionsAt(uri, at(text, 'inject_into: header'));
  assert.deepEqual(actions.map((a) => a.title), ['Extract authenticator to definitions', 'Extract requester to definitions']);
  assert.equal(actions[0].kind, 'refactor.extract');
  const changed = await applyAndCheck(uri, text, actions[0].edit, 2);
  assert.ok(changed.includes('        authenticator:\n          $ref: "#/definitions/authenticator"\n      record_selector:'), changed);
  assert.ok(changed.includes(['definitions:', '  authenticator:', '    type: ApiKeyAuthenticator', '    api_token: "{{ config[\'api_key\'] }}"', '    inject_into:', '      type: RequestOption', '      inject_into: header', '      field_name: X-Api-Key', 'streams:'].join('\n')), changed);
});

test('an identical authenticator in three streams is shared: one entry, three references', async () => {
  const text = manifest([stream('users'), stream('orders'), stream('items'), stream('other', ['          type: BearerAuthenticator', '          api_token: "{{ config[\'api_key\'] }}"'])]);
  const uri = await open(text);
  const actions = await actionsAt(uri, at(text, 'authenticator:', 1));
  const share = actions.find((a) => a.title === 'Share authenticator with 3 streams');
  assert.ok(share, JSON.stringify(actions.map((a) => a.title)));
  const changed = await applyAndCheck(uri, text, share.edit, 2);
  assert.equal(changed.split('$ref: "#/definitions/authenticator"').length - 1, 3, changed);
  assert.equal(changed.split('type: ApiKeyAuthenticator').length - 1, 1, 'one definition left');
  assert.ok(changed.includes('type: BearerAuthenticator'), 'the different authenticator stays');
});

test('extracting into an existing definitions block appends an entry with a free name', async () => {
  const defs = ['definitions:', '  authenticator:', '    type: NoAuth', '  base:', '    type: HttpRequester', '    url_base: https://api.example.test'];
  const text = manifest([stream('users')], defs);
  const uri = await open(text);
  const [extract] = await actionsAt(uri, at(text, 'authenticator:', 1), ['refactor.extract']);
  assert.equal(extract.title, 'Extract authenticator to definitions');
  const changed = await applyAndCheck(uri, text, extract.edit, 2);
  assert.ok(changed.includes('    url_base: https://api.example.test\n  authenticator_2:\n    type: ApiKeyAuthenticator\n'), changed);
  assert.ok(changed.includes('$ref: "#/definitions/authenticator_2"'));
  // Only refactors were asked for: no quick fixes, and nothing offered off a component.
  assert.deepEqual(await actionsAt(uri, at(changed, 'version:'), ['refactor.extract']), []);
});

test('a paginator and a record selector written as one-line flow mappings are extracted too', async () => {
  const s = stream('users');
  s.splice(s.indexOf('      record_selector:'), 0, '      paginator: {type: DefaultPaginator, pagination_strategy: {type: PageIncrement, page_size: 10}}');
  const text = manifest([s]);
  const uri = await open(text);
  const actions = await actionsAt(uri, at(text, 'DefaultPaginator'));
  const extract = actions.find((a) => a.title === 'Extract paginator to definitions');
  assert.ok(extract, JSON.stringify(actions.map((a) => a.title)));
  const changed = await applyAndCheck(uri, text, extract.edit, 2);
  assert.ok(changed.includes('      paginator: { $ref: "#/definitions/paginator" }'), changed);
  assert.ok(changed.includes('  paginator: {type: DefaultPaginator, pagination_strategy: {type: PageIncrement, page_size: 10}}\nstreams:'), changed);
  const selector = (await actionsAt(uri, at(changed, 'field_path: [data]'))).find((a) => a.title === 'Extract record selector to definitions');
  assert.ok(selector);
  const again = await applyAndCheck(uri, changed, selector.edit, 3);
  assert.ok(again.includes('  record_selector:\n    type: RecordSelector\n    extractor:\n      type: DpathExtractor\n      field_path: [data]\nstreams:'), again);
});

test('inline: a $ref-only mapping, a reference string and a $ref beside local keys', async () => {
  const defs = ['definitions:', '  auth:', '    type: ApiKeyAuthenticator', '    api_token: "{{ config[\'api_key\'] }}"', '    inject_into:', '      type: RequestOption', '      inject_into: header', '      field_name: X-Api-Key',
    '  base:', '    type: HttpRequester', '    url_base: https://api.example.test', '    http_method: GET', '    authenticator: "#/definitions/auth"'];
  const users = stream('users', ['          $ref: "#/definitions/auth"']);
  const orders = ['  - type: DeclarativeStream', '    name: orders', '    retriever:', '      type: SimpleRetriever', '      requester:', '        $ref: "#/definitions/base"', '        path: /orders', '        http_method: POST',
    '      record_selector:', '        type: RecordSelector', '        extractor:', '          type: DpathExtractor', '          field_path: []'];
  const text = manifest([users, orders], defs);
  const uri = await open(text);

  const [inlineRef] = await actionsAt(uri, at(text, '$ref: "#/definitions/auth"'), ['refactor.inline']);
  assert.equal(inlineRef.title, 'Inline reference `#/definitions/auth`');
  assert.equal(inlineRef.kind, 'refactor.inline');
  let changed = await applyAndCheck(uri, text, inlineRef.edit, 2);
  assert.ok(changed.includes(['        authenticator:', ...auth, '      record_selector:'].join('\n')), changed);

  const [inlineString] = await actionsAt(uri, at(changed, '"#/definitions/auth"'), ['refactor.inline']);
  changed = await applyAndCheck(uri, changed, inlineString.edit, 3);
  assert.ok(changed.includes('    http_method: GET\n    authenticator:\n      type: ApiKeyAuthenticator\n      api_token: "{{ config[\'api_key\'] }}"\n      inject_into:\n        type: RequestOption\n'), changed);

  const [inlineMerge] = await actionsAt(uri, at(changed, '$ref: "#/definitions/base"'), ['refactor.inline']);
  changed = await applyAndCheck(uri, changed, inlineMerge.edit, 4);
  // The CDK's shallow merge written out: the target's keys, except the overridden `http_method`.
  assert.ok(changed.includes('      requester:\n        type: HttpRequester\n        url_base: https://api.example.test\n        authenticator:\n          type: ApiKeyAuthenticator\n'), changed);
  assert.ok(changed.includes('        path: /orders\n        http_method: POST\n'), changed);
  assert.equal(changed.split('http_method: GET').length - 1, 1, 'only the definition keeps GET');
});

test('extract then inline gives back the text it started from', async () => {
  const text = manifest([stream('users')]);
  const uri = await open(text);
  const [extract] = await actionsAt(uri, at(text, 'inject_into: header'));
  const extracted = await applyAndCheck(uri, text, extract.edit, 2);
  const [inline] = await actionsAt(uri, at(extracted, '$ref'), ['refactor.inline']);
  const inlined = await applyAndCheck(uri, extracted, inline.edit, 3);
  assert.equal(inlined.replace(/definitions:\n {2}authenticator:\n( {4}.*\n)+/, ''), text);
});

test('rename of a definitions key rewrites every $ref and "#/" path through it', async () => {
  const defs = ['definitions:', '  streams:', '    users:', '      type: DeclarativeStream', '      name: users', '      retriever:', '        type: SimpleRetriever', '        requester:', '          $ref: "#/definitions/base_requester"',
    '        record_selector:', '          type: RecordSelector', '          extractor:', '            type: DpathExtractor', '            field_path: []',
    '  base_requester:', '    type: HttpRequester', '    url_base: https://api.example.test', '    path: /users', '  base_requester_v2:', '    type: HttpRequester', '    url_base: https://api.example.test/v2'];
  const text = ['version: 6.44.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [users]', ...defs,
    'streams:', '  - "#/definitions/streams/users"', '  - $ref: "#/definitions/streams/users"', '    name: again', "    retriever: '#/definitions/streams/users/retriever'",
    'other:', '  requester: "#/definitions/base_requester_v2"', ''].join('\n');
  const uri = await open(text);
  // From the key.
  const prepared = await client.request<{ range: Range; placeholder: string } | null>('textDocument/prepareRename', { textDocument: { uri }, position: positionOf(text, '  streams:', 4) });
  assert.equal(prepared?.placeholder, 'streams');
  assert.deepEqual(prepared?.range, { start: positionOf(text, '  streams:', 2), end: positionOf(text, '  streams:', 9) });
  const byKey = await client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position: positionOf(text, '  streams:', 4), newName: 'stream_definitions' });
  const renamed = await applyAndCheck(uri, text, byKey, 2);
  assert.equal(renamed.split('#/definitions/stream_definitions/users').length - 1, 3, renamed);
  assert.ok(renamed.includes('  stream_definitions:\n    users:'));
  assert.ok(!renamed.includes('#/definitions/streams'));
  // From a segment of a reference: only `base_requester`, not the longer `base_requester_v2`.
  const segment = positionOf(renamed, '#/definitions/base_requester"', 16);
  const prep2 = await client.request<{ range: Range; placeholder: string } | null>('textDocument/prepareRename', { textDocument: { uri }, position: segment });
  assert.equal(prep2?.placeholder, 'base_requester');
  const bySegment = await client.request<WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position: segment, newName: 'requester' });
  const again = await applyAndCheck(uri, renamed, bySegment, 3);
  assert.ok(again.includes('$ref: "#/definitions/requester"\n') && again.includes('\n  requester:\n    type: HttpRequester\n    url_base: https://api.example.test\n'), again);
  assert.ok(again.includes('requester: "#/definitions/base_requester_v2"'), again);
});

test('rename refuses a name that exists or cannot be a reference segment, and off a definitions key', async () => {
  const text = manifest([stream('users', ['          $ref: "#/definitions/auth"'])], ['definitions:', '  auth:', '    type: NoAuth', '  other:', '    type: NoAuth']);
  const uri = await open(text);
  const position = positionOf(text, 'auth:', 1);
  await assert.rejects(client.request('textDocument/rename', { textDocument: { uri }, position, newName: 'other' }), /already exists/);
  await assert.rejects(client.request('textDocument/rename', { textDocument: { uri }, position, newName: 'a/b' }), /cannot be a reference segment/);
  assert.equal(await client.request('textDocument/prepareRename', { textDocument: { uri }, position: positionOf(text, 'name: users', 2) }), null);
});

test('streams written twice (under definitions.streams and in streams, as the Builder does) are counted once by name', async () => {
  const users = stream('users');
  const orders = stream('orders');
  // The same streams as `definitions.streams.<name>` entries, two columns deeper.
  const asDefinition = (name: string, lines: string[]) => [`    ${name}:`, ...lines.map((l, i) => (i === 0 ? `      ${l.slice(4)}` : `  ${l}`))];
  const defs = ['definitions:', '  streams:', ...asDefinition('users', users), ...asDefinition('orders', orders)];
  const text = manifest([users, orders], defs);
  const uri = await open(text);
  const actions = await actionsAt(uri, at(text, 'authenticator:'), ['refactor.extract']);
  const share = actions.find((a) => a.title.startsWith('Share authenticator'));
  assert.equal(share?.title, 'Share authenticator with 2 streams');
  const changed = await applyAndCheck(uri, text, share?.edit, 2);
  assert.equal(changed.split('$ref: "#/definitions/authenticator"').length - 1, 4, changed);
});

test('a block scalar keeps its content when moved: lines of spaces beyond its indentation are content', async () => {
  const s = stream('users');
  s.splice(s.indexOf("        path: /users") + 1, 0, '        http_method: POST', '        request_body_data: |', '          [{"a": 1, ', '              ', '           "b": 2}]');
  const text = manifest([s]);
  const uri = await open(text);
  const [extractRequester] = await actionsAt(uri, at(text, 'request_body_data'), ['refactor.extract']);
  assert.equal(extractRequester.title, 'Extract requester to definitions');
  // applyAndCheck compares the resolved streams: the body must be the same string, spaces included.
  const changed = await applyAndCheck(uri, text, extractRequester.edit, 2);
  assert.ok(changed.includes('    request_body_data: |\n      [{"a": 1, \n          \n       "b": 2}]\n'), JSON.stringify(changed));
});

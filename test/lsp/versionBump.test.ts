// "Bump CDK version" over the real server (issue 20): the source action sets `version:` to the latest CDK
// version the catalog knows and lists, above it, the behaviour changes in between that touch this manifest.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parse } from 'yaml';
import { LspTestClient } from './lspClient';

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
});
after(async () => {
  await client.stop();
});

const KIND = 'source.airbyte.versionBump';
let n = 0;

const manifest = (version: string, stream: string[]) =>
  [
    `version: ${version}`,
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
    '        type: HttpRequester',
    '        url: https://api.example.test/items',
    ...stream,
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor:',
    '          type: DpathExtractor',
    '          field_path: [data]',
    '',
  ].join('\n');

/** Asks for the action as Source Action… does, and applies it. */
async function bump(text: string): Promise<{ title: string; bumped: string } | null> {
  const uri = `file:///w/versionBump/m${++n}.yaml`;
  await client.open(uri, text);
  const actions =
    (await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source'] },
    })) ?? [];
  const action = actions.find((a) => a.kind === KIND);
  if (!action) return null;
  return {
    title: action.title,
    bumped: TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), action.edit!.changes![uri] as TextEdit[]),
  };
}

test('an old manifest: the version becomes the latest the catalog knows, with the behaviour changes that touch it listed above', async () => {
  const text = manifest('5.10.2', [
    '        request_parameters:',
    "          since: \"{{ stream_state.get('updated_at', '') }}\"",
    '      paginator:',
    '        type: DefaultPaginator',
    '        page_size_option: { type: RequestOption, inject_into: request_parameter, field_name: page }',
    '        page_token_option: { type: RequestOption, inject_into: request_parameter, field_name: page }',
    '        pagination_strategy: { type: PageIncrement, page_size: 50 }',
  ]).replace(
    '  - type: DeclarativeStream\n    name: items\n',
    [
      '  - type: DeclarativeStream',
      '    name: items',
      '    incremental_sync:',
      '      type: DatetimeBasedCursor',
      '      cursor_field: updated_at',
      '      datetime_format: "%Y-%m-%d"',
      '      start_datetime: "2024-01-01"',
      '',
    ].join('\n'),
  );
  const r = await bump(text);
  assert.ok(r, 'no version bump offered');
  assert.equal(r.title, 'Bump CDK version 5.10.2 → 7.0.0 (3 behaviour changes touch this manifest, listed above `version`)');
  const lines = r.bumped.split('\n');
  const at = lines.indexOf('version: 7.0.0');
  assert.ok(at > 0, r.bumped);
  const comment = lines.slice(0, at);
  assert.equal(comment[0], '# CDK version bumped from 5.10.2 to 7.0.0. Behaviour changes in between that touch this manifest:');
  assert.deepEqual(
    comment.filter((l) => l.startsWith('# - ')).map((l) => l.slice(4, l.indexOf(':'))),
    ['6.0.0', '6.33.7', '6.34.0'],
  );
  assert.ok(comment.includes('#   here: stream `items`: DatetimeBasedCursor'), comment.join('\n'));
  assert.ok(
    comment.includes('#   here: stream `items`: DefaultPaginator: page_size_option and page_token_option both write `page`'),
    comment.join('\n'),
  );
  assert.ok(comment.includes('#   here: stream `items`: HttpRequester.request_parameters'), comment.join('\n'));
  // Still the same manifest: only comments and the version changed.
  const before = parse(text);
  const after = parse(r.bumped);
  assert.deepEqual({ ...after, version: before.version }, before);
});

test('nothing touched: only the version changes, and the title says so; quotes are kept', async () => {
  const r = await bump(manifest('"6.44.0"', []));
  assert.ok(r);
  assert.equal(r.title, 'Bump CDK version 6.44.0 → 7.0.0 (no behaviour change touches this manifest)');
  assert.ok(r.bumped.startsWith('version: "7.0.0"\ntype: DeclarativeSource\n'), r.bumped);
});

test('a change of a version at or below the declared one is not listed; no action when already at the latest', async () => {
  // field_path is honoured since 6.18.0: listed from 6.4.0, not from 6.18.0.
  const body = [
    '        http_method: POST',
    '        request_body_json: { a: 1 }',
    '      paginator:',
    '        type: DefaultPaginator',
    '        page_token_option: { type: RequestOption, inject_into: body_json, field_path: [page, cursor] }',
    '        pagination_strategy: { type: CursorPagination, cursor_value: "{{ response.next }}" }',
  ];
  const older = await bump(manifest('6.4.0', body));
  assert.match(older!.bumped, /# - 6\.18\.0: `RequestOption\.field_path` is honoured/);
  assert.match(older!.bumped, /# {3}here: stream `items`: RequestOption\.field_path \(page_token_option\)/);
  const newer = await bump(manifest('6.18.0', body));
  assert.equal(newer!.title, 'Bump CDK version 6.18.0 → 7.0.0 (no behaviour change touches this manifest)');
  assert.equal(await bump(manifest('7.0.0', body)), null);
  assert.equal(await bump(manifest('not-a-version', body)), null);
});

// The language server made in this process (languageServer.ts on in-memory streams): the same
// features as over stdio, and each connection has its own state (documents, debounce, options).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Hover, MarkupContent } from 'vscode-languageserver';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';

let first: LspTestClient;
let second: LspTestClient;
before(async () => {
  first = await LspTestClient.inProcess({ validationDelayMs: 0 });
  second = await LspTestClient.inProcess({ validationDelayMs: 0 });
});
after(async () => {
  await first.stop();
  await second.stop();
});

const manifest = (authType: string) =>
  [
    'version: 6.44.0',
    'type: DeclarativeSource',
    'check:',
    '  type: CheckStream',
    '  stream_names: [users]',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: users',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    '        type: HttpRequester',
    '        url: https://api.example.test/users',
    '        authenticator:',
    `          type: ${authType}`,
    '          api_token: "{{ config[\'token\'] }}"',
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor:',
    '          type: DpathExtractor',
    '          field_path: [data]',
    '',
  ].join('\n');

test('two servers in one process keep their own documents', async () => {
  const uri = 'file:///w/in-process/manifest.yaml';
  const good = manifest('BearerAuthenticator');
  const bad = manifest('BearerAuthenticater');
  const [a, b] = await Promise.all([first.open(uri, good), second.open(uri, bad)]);
  assert.deepEqual(
    a.diagnostics.filter((d) => d.severity === 1),
    [],
  );
  assert.ok(
    b.diagnostics.some((d) => d.code === 'unknown-type'),
    JSON.stringify(b.diagnostics),
  );
  // Hover reads each server's own version of the same uri.
  const hoverA = (await first.hover(uri, positionOf(good, 'BearerAuthenticator', 2))) as Hover | null;
  assert.match((hoverA!.contents as MarkupContent).value, /BearerAuthenticator/);
  const hoverB = await second.hover(uri, positionOf(bad, 'BearerAuthenticater', 2));
  assert.ok(!hoverB || !/Bearer token/i.test((hoverB.contents as MarkupContent).value));
});

test('refactors and quick fixes answer in process as over stdio', async () => {
  const uri = 'file:///w/in-process/refactor.yaml';
  const text = manifest('BearerAuthenticator');
  await first.open(uri, text);
  const p = positionOf(text, 'api_token');
  const actions = await first.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: { start: p, end: p },
    context: { diagnostics: [] },
  });
  assert.deepEqual(
    actions.map((a) => a.title),
    ['Extract authenticator to definitions', 'Extract requester to definitions'],
  );
  // The other server never saw this document.
  assert.deepEqual(
    await second.request('textDocument/codeAction', { textDocument: { uri }, range: { start: p, end: p }, context: { diagnostics: [] } }),
    [],
  );
});

test('an edit after a pause is validated at once; a burst of edits is validated once, after it', async () => {
  // No document counts as cheap here, so only the pause rule decides.
  const server = await LspTestClient.inProcess({ validationDelayMs: 3000, immediateValidationMs: 0 });
  try {
    const uri = 'file:///w/in-process/debounce.yaml';
    const text = manifest('BearerAuthenticator');
    await server.open(uri, text);
    await new Promise((r) => setTimeout(r, 3050));
    const started = performance.now();
    await server.change(uri, `${text}# one\n`, 2);
    const lone = performance.now() - started;
    // Three edits in a row: the first follows the previous one closely, so all of them wait.
    const last = server.waitForDiagnostics(uri, 5);
    for (const v of [3, 4, 5])
      void server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ text: `${text}# ${v}\n` }],
      });
    await last;
    assert.deepEqual(server.publishedVersions(uri), [1, 2, 5]);
    // Validated at once, not after the 3000 ms delay (the delay is long so that a busy machine cannot blur the two).
    assert.ok(lone < 3000, `the lone edit took ${lone} ms`);
  } finally {
    await server.stop();
  }
});

test('a document that validates cheaply is validated at once on every edit, even in a burst', async () => {
  // The long delay would show in the timing if any edit waited for it.
  const server = await LspTestClient.inProcess({ validationDelayMs: 30_000, immediateValidationMs: 10_000 });
  try {
    const uri = 'file:///w/in-process/cheap.yaml';
    const text = manifest('BearerAuthenticator');
    await server.open(uri, text);
    const started = performance.now();
    const last = server.waitForDiagnostics(uri, 4);
    for (const v of [2, 3, 4])
      void server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ text: `${text}# ${v}\n` }],
      });
    await last;
    assert.deepEqual(server.publishedVersions(uri), [1, 2, 3, 4]);
    assert.ok(performance.now() - started < 15_000, 'no edit waited for the 30 s delay');
  } finally {
    await server.stop();
  }
});

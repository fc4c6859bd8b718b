// The language server's features as the editor sees them: completion, hover and code lenses.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { activateExtension, lensActions, openWorkspaceFile, waitFor } from './helpers';

describe('language features', () => {
  before(async () => {
    await activateExtension();
  });

  it('completes the type of an authenticator', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('type: OAuthAuthenticator'));
    const col = doc.lineAt(line).text.indexOf('OAuthAuthenticator');
    const labels = await waitFor('authenticator completions', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        doc.uri,
        new vscode.Position(line, col),
      );
      const names = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return names.includes('BearerAuthenticator') ? names : undefined;
    });
    for (const expected of ['ApiKeyAuthenticator', 'BasicHttpAuthenticator', 'OAuthAuthenticator'])
      assert.ok(labels.includes(expected), `${expected} in ${labels.join(', ')}`);
  });

  it('shows the resolved manifest beside the manifest, read-only', async () => {
    const doc = await openWorkspaceFile('refs/manifest.yaml');
    await vscode.window.showTextDocument(doc);
    const shown = await vscode.commands.executeCommand<boolean>('airbyte.showResolvedManifest', doc.uri);
    assert.equal(shown, true);
    const view = await waitFor(
      'the resolved view',
      async () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'airbyte-resolved')?.document,
    );
    assert.equal(view.languageId, 'yaml');
    assert.match(view.getText(), /as the Airbyte CDK reads it/);
    assert.ok(!view.getText().includes('$ref'), 'references are resolved in the view');
  });

  it('hovers a component type with its documentation', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('type: OAuthAuthenticator'));
    const pos = new vscode.Position(line, doc.lineAt(line).text.indexOf('OAuthAuthenticator') + 2);
    const text = await waitFor('a hover', async () => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos);
      const t = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
      return t.length > 0 ? t : undefined;
    });
    assert.match(text, /OAuth/);
  });

  it('puts Run stream and Run with limits lenses above every stream, and Set testing values above spec', async () => {
    const doc = await openWorkspaceFile('demo/cursor-pagination.yaml');
    const lenses = await lensActions(doc.uri);
    const run = lenses.filter((l) => l.command === 'airbyte.runStream').map((l) => (l.arguments[0] as { streamName: string }).streamName);
    assert.deepEqual(run.sort(), ['cursor_in_body', 'link_header', 'next_url_in_body']);
    assert.equal(lenses.filter((l) => l.command === 'airbyte.runStreamWithLimits').length, 3);
    assert.equal(lenses.filter((l) => l.command === 'airbyte.setTestingValues').length, 1);
    // No lens command carries arguments: a click never depends on VS Code's per-list argument cache.
    assert.deepEqual(
      lenses.filter((l) => l.lens.command?.arguments !== undefined).map((l) => l.title),
      [],
    );
  });

  it('puts a Run stream lens on streams given as $ref mappings and "#/" strings', async () => {
    const doc = await openWorkspaceFile('refs/manifest.yaml');
    const names = await waitFor('lenses on referenced streams', async () => {
      const l = await lensActions(doc.uri);
      const run = l.filter((x) => x.command === 'airbyte.runStream').map((x) => (x.arguments[0] as { streamName: string }).streamName);
      return run.length > 0 ? run : undefined;
    });
    assert.deepEqual(names.sort(), ['orders', 'users']);
  });
});

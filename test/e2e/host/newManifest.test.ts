// The guided start in the extension host: "New Connector Manifest" opens a YAML editor holding the
// skeleton, which the language server then treats as a manifest (its diagnostics arrive, none of
// them a YAML syntax error).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { activateExtension, waitFor, waitForDiagnostics } from './helpers';

describe('guided start', () => {
  before(async () => {
    await activateExtension();
  });

  it('New Connector Manifest opens an editor with the skeleton, diagnosed without a YAML error', async () => {
    const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('airbyte.newManifest');
    assert.ok(editor, 'the command returned no editor');
    const text = await waitFor('the skeleton', async () =>
      /streams:/.test(editor.document.getText()) ? editor.document.getText() : undefined,
    );
    assert.equal(editor.document.languageId, 'yaml');
    for (const line of [
      /^version: \d+\.\d+\.\d+$/m,
      /^type: DeclarativeSource$/m,
      /^check:$/m,
      /^spec:$/m,
      /^ {2}- type: DeclarativeStream$/m,
      /^ {6}requester:$/m,
      /^ {6}record_selector:$/m,
    ]) {
      assert.match(text, line);
    }
    // The URL is left to fill in: the server says so, and nothing about YAML syntax.
    const diagnostics = await waitForDiagnostics(editor.document.uri, (d) => d.length > 0);
    assert.ok(!diagnostics.some((d) => d.code === 'yaml-syntax'), diagnostics.map((d) => d.message).join('\n'));
    assert.ok(
      diagnostics.some((d) => /url/.test(d.message)),
      diagnostics.map((d) => d.message).join('\n'),
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

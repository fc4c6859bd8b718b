// The extension activates on a connector manifest, and the language server's diagnostics reach the editor.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it } from 'mocha';
import { EXTENSION_ID, activateExtension, openWorkspaceFile, waitForDiagnostics } from './helpers';

describe('activation', () => {
  it('activates when a manifest is opened', async () => {
    await openWorkspaceFile('broken/manifest.yaml');
    const api = await activateExtension<{ outputText(): string }>();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    // Reported by the runner: activate() start to language server ready, as logged by the extension.
    const ms = /activated in (\d+) ms/.exec(api.outputText())?.[1];
    assert.ok(ms, 'the extension logs its activation time');
    console.log(`[e2e-host]     (activation took ${ms} ms, language server included)`);
  });

  it('shows diagnostics on a broken manifest', async () => {
    const doc = await openWorkspaceFile('broken/manifest.yaml');
    const list = await waitForDiagnostics(doc.uri, (d) => d.length > 0);
    assert.ok(
      list.some((d) => d.severity === vscode.DiagnosticSeverity.Error),
      JSON.stringify(list.map((d) => d.message)),
    );
  });
});

describe('coexistence with other YAML', () => {
  it('publishes no diagnostics on YAML that is not a manifest', async () => {
    const other = await openWorkspaceFile('other/workflow.yaml');
    // The manifest is opened after the other file; once its diagnostics arrive, the server has seen both.
    const manifest = await openWorkspaceFile('broken/manifest.yaml');
    await waitForDiagnostics(manifest.uri, (d) => d.length > 0);
    // No other YAML extension runs in the test window, so any diagnostic here would be ours.
    assert.deepEqual(
      vscode.languages.getDiagnostics(other.uri).map((d) => d.message),
      [],
    );
  });
});

// "Show Resolved Manifest": opens, beside the manifest, a read-only YAML view of what the CDK reads
// (references resolved, $parameters propagated, default types inserted). The view is a virtual
// document refreshed each time the command runs; it never touches the file system.
import * as vscode from 'vscode';
import { ResolvedManifestRequest, type ResolvedManifestParams } from '../../../server/src/protocol';
import type { Services } from '../services';
import { manifestUriFrom } from './pickTarget';

export const RESOLVED_SCHEME = 'airbyte-resolved';

/** Serves the resolved views' text; `show` refreshes one. */
export class ResolvedManifestProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# Run "Airbyte: Show Resolved Manifest" on a manifest to fill this view.\n';
  }

  /** Stores the text of the view of `manifest` and returns the view's URI. */
  set(manifest: vscode.Uri, text: string): vscode.Uri {
    const name = manifest.path.slice(manifest.path.lastIndexOf('/') + 1).replace(/\.ya?ml$/, '');
    // The manifest URI rides in the query so two manifests with the same name get separate views.
    const view = vscode.Uri.from({ scheme: RESOLVED_SCHEME, path: `/${name}.resolved.yaml`, query: manifest.toString() });
    this.texts.set(view.toString(), text);
    this.changed.fire(view);
    return view;
  }
}

/** Asks the server for the resolved manifest and shows it beside the editor. */
export async function showResolvedManifest(services: Services, provider: ResolvedManifestProvider, arg: unknown): Promise<boolean> {
  const uri = manifestUriFrom(arg);
  if (!uri) {
    void vscode.window.showWarningMessage('Open a connector manifest (manifest.yaml) first.');
    return false;
  }
  try {
    await vscode.workspace.openTextDocument(uri);
    const params: ResolvedManifestParams = { uri: uri.toString() };
    const result = await services.client.sendRequest(ResolvedManifestRequest, params);
    const view = provider.set(uri, result.text);
    const doc = await vscode.workspace.openTextDocument(view);
    await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
    return true;
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not show the resolved manifest: ${(e as Error).message}`);
    return false;
  }
}

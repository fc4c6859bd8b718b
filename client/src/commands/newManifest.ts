// "New Connector Manifest": opens a new YAML editor with the skeleton of a manifest (the server's,
// the same text completion offers in an empty file) inserted as a snippet, so Tab walks through the
// parts to fill in: version, stream name, input, URL, field_path.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ManifestSkeletonRequest } from '../../../server/src/protocol';

/** Opens the new manifest; returns its editor, or undefined when the server gave no skeleton. */
export async function newManifest(services: Services): Promise<vscode.TextEditor | undefined> {
  const { snippet } = await services.client.sendRequest(ManifestSkeletonRequest, {});
  if (!snippet) return undefined;
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: '' });
  const editor = await vscode.window.showTextDocument(doc);
  await editor.insertSnippet(new vscode.SnippetString(snippet), new vscode.Position(0, 0));
  return editor;
}

// "Write inferred schema": asks the server for the edit that puts a test read's inferred schema into
// the stream's schema, applies it to the manifest (left unsaved for review) and reveals the change.
import * as vscode from 'vscode';
import { InferredSchemaEditRequest, type InferredSchemaEditParams } from '../../../server/src/protocol';
import type { Services } from '../services';

/** Arguments: `{ uri, streamName, schema }` as posted by the results view. */
export async function writeInferredSchema(services: Services, arg: unknown): Promise<boolean> {
  const a = arg as Partial<InferredSchemaEditParams> | undefined;
  if (!a?.uri || !a.streamName || !a.schema || typeof a.schema !== 'object') {
    void vscode.window.showWarningMessage('Run a stream first: the inferred schema comes from its test read.');
    return false;
  }
  const uri = vscode.Uri.parse(a.uri);
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const params: InferredSchemaEditParams = { uri: a.uri, streamName: a.streamName, schema: a.schema };
    const { edit } = await services.client.sendRequest(InferredSchemaEditRequest, params);
    const range = new vscode.Range(edit.range.start.line, edit.range.start.character, edit.range.end.line, edit.range.end.character);
    const we = new vscode.WorkspaceEdit();
    we.replace(uri, range, edit.newText);
    if (!(await vscode.workspace.applyEdit(we))) throw new Error('VS Code refused the edit.');
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
    editor.revealRange(new vscode.Range(range.start, range.start), vscode.TextEditorRevealType.InCenter);
    void vscode.window.showInformationMessage(`Wrote the inferred schema of '${a.streamName}' into the manifest (not saved yet).`);
    return true;
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not write the inferred schema: ${(e as Error).message}`);
    return false;
  }
}

// Resolves the manifest and stream a command applies to: from the lens arguments, or from the active
// editor plus a quick pick over the server's list of streams when run from the palette.
import * as vscode from 'vscode';
import { ListStreamsRequest, type ListStreamsParams } from '../../../server/src/protocol';
import type { Services, StreamTarget } from '../services';

/** The manifest URI given as an argument (string or Uri) or the active editor's YAML document. */
export function manifestUriFrom(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string') return vscode.Uri.parse(arg);
  const fromObject = (arg as { uri?: unknown } | undefined)?.uri;
  if (typeof fromObject === 'string') return vscode.Uri.parse(fromObject);
  if (fromObject instanceof vscode.Uri) return fromObject;
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.languageId === 'yaml' ? doc.uri : undefined;
}

/** The stream to run; asks with a quick pick when the arguments do not name one. */
export async function resolveStreamTarget(services: Services, arg: unknown): Promise<StreamTarget | undefined> {
  const given = arg as Partial<StreamTarget> | undefined;
  const uri = manifestUriFrom(arg);
  if (!uri) {
    void vscode.window.showWarningMessage('Open a connector manifest (manifest.yaml) first.');
    return undefined;
  }
  if (typeof given?.streamName === 'string' && given.streamName) return { uri: uri.toString(), streamName: given.streamName };
  await vscode.workspace.openTextDocument(uri);
  const params: ListStreamsParams = { uri: uri.toString() };
  const { streams } = await services.client.sendRequest(ListStreamsRequest, params);
  if (streams.length === 0) {
    void vscode.window.showWarningMessage('This manifest declares no streams.');
    return undefined;
  }
  const picked =
    streams.length === 1
      ? streams[0]
      : await vscode.window
          .showQuickPick(
            streams.map((s) => ({ label: s.name, stream: s })),
            { placeHolder: 'Stream to read' },
          )
          .then((p) => p?.stream);
  return picked ? { uri: uri.toString(), streamName: picked.name } : undefined;
}

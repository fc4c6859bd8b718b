// The guard in front of Run stream, Replay cassette and Compare: asks the server whether the stream can
// be read at all. A document whose YAML does not parse, or whose stream cannot be built, is refused with
// the server's located message and a button that selects the place to fix in the manifest.
import * as vscode from 'vscode';
import { ReadReadinessRequest, type ReadReadinessParams, type ReadReadinessResult } from '../../../server/src/protocol';
import type { Services } from '../services';

/** The button of the refusal. */
export const GO_TO_PROBLEM = 'Go to Problem';

/** True when the stream may be read; otherwise shows why (not awaited: the command ends at once) and returns false. */
export async function ensureReadable(services: Services, uri: string, streamName: string | undefined, action: string): Promise<boolean> {
  let readiness: ReadReadinessResult;
  try {
    const params: ReadReadinessParams = { uri, ...(streamName ? { streamName } : {}) };
    readiness = await services.client.sendRequest(ReadReadinessRequest, params);
  } catch {
    return true; // The server could not tell: the read itself will report what is wrong.
  }
  if (readiness.ready) return true;
  const { message, range } = readiness;
  services.log.warn(`${action} refused: ${message}`);
  void vscode.window.showErrorMessage(`${action}: ${message}`, GO_TO_PROBLEM).then(async (choice) => {
    if (choice !== GO_TO_PROBLEM) return;
    // The cursor at the start of the problem (the line:column the message names), the problem selected.
    const selection = new vscode.Selection(range.end.line, range.end.character, range.start.line, range.start.character);
    const editor = await vscode.window.showTextDocument(vscode.Uri.parse(uri), { viewColumn: vscode.ViewColumn.One });
    editor.selection = selection;
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  });
  return false;
}

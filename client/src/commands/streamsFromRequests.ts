// "New Stream from cURL…" and "New Stream from HAR…": the pasted command or the picked HAR entries go
// sealed to the server, which derives the streams (runtime/scaffold/curl); they are added to the
// manifest in the active editor, or open as a new manifest. The command text is never logged.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { isManifestDocument } from '../manifestDetection';
import { readSettings } from '../settings';
import { readUserFile } from '../../../server/src/runtime/files/userFiles';
import { HarEntriesRequest, StreamsFromRequestsRequest, sealConfig } from '../../../server/src/protocol';

/** HAR files of a browsing session are larger than manifests: a bigger cap than the 8 MiB of other files. */
const MAX_HAR_BYTES = 64 * 1024 * 1024;

/** The manifest in the active editor, if it is one (the streams are added to it). */
function activeManifest(): vscode.TextEditor | undefined {
  const editor = vscode.window.activeTextEditor;
  return editor && isManifestDocument(editor.document, readSettings().manifestGlobs) ? editor : undefined;
}

/** Asks for a command (the clipboard's when it holds one); `arg.command` skips the prompt (tests, other commands). */
export async function newStreamFromCurl(services: Services, arg?: unknown): Promise<vscode.Uri | undefined> {
  const given = typeof (arg as { command?: unknown } | undefined)?.command === 'string' ? (arg as { command: string }).command : undefined;
  let command = given;
  if (command === undefined) {
    const clipboard = (await vscode.env.clipboard.readText()).trim();
    command = await vscode.window.showInputBox({
      title: 'New Stream from cURL',
      prompt:
        'Paste a cURL command ("Copy as cURL" in a browser, the results view or API docs). Credentials become secret inputs, never text in the manifest.',
      placeHolder: "curl 'https://api.example.com/v1/items?limit=10' -H 'Authorization: Bearer …'",
      // A command copied over several lines (`\` at line ends) is offered on one line.
      value: /^curl\b/.test(clipboard) ? clipboard.replace(/\s*\\\r?\n\s*/g, ' ') : '',
      ignoreFocusOut: true,
      validateInput: (v) => (/^\s*curl\b/.test(v) ? null : 'A cURL command starts with `curl`.'),
    });
  }
  if (!command) return undefined;
  return addStreams(services, { curl: command });
}

/** Picks a .har file, then its entries (multi-select), then adds one stream per distinct endpoint. */
export async function newStreamFromHar(services: Services, arg?: unknown): Promise<vscode.Uri | undefined> {
  const given = arg as { file?: string; picks?: number[] } | undefined;
  const file = given?.file
    ? vscode.Uri.parse(given.file)
    : (
        await vscode.window.showOpenDialog({
          title: 'New Stream from HAR',
          canSelectMany: false,
          filters: { 'HTTP Archive': ['har'], JSON: ['json'] },
          openLabel: 'Read entries',
        })
      )?.[0];
  if (!file) return undefined;
  const read = readUserFile(file.fsPath, { root: null, what: 'the HAR file', maxBytes: MAX_HAR_BYTES });
  if ('error' in read) {
    void vscode.window.showErrorMessage(`Airbyte: ${read.error}`);
    return undefined;
  }
  const source = sealConfig({ har: read.text }, services.sealKey);
  const listed = await services.client.sendRequest(HarEntriesRequest, { source });
  if ('error' in listed) {
    void vscode.window.showErrorMessage(`Airbyte: ${vscode.workspace.asRelativePath(file)}: ${listed.error}`);
    return undefined;
  }
  if (listed.entries.length === 0) {
    void vscode.window.showWarningMessage(`Airbyte: ${vscode.workspace.asRelativePath(file)} has no http(s) request.`);
    return undefined;
  }
  let picks = given?.picks;
  if (!picks) {
    const items = listed.entries.map((e) => ({
      label: `${e.method} ${e.url}`,
      description: `${e.status}${e.mimeType ? ` · ${e.mimeType}` : ''}`,
      index: e.index,
    }));
    const chosen = await vscode.window.showQuickPick(items, {
      title: 'New Stream from HAR: pick the requests',
      placeHolder: 'One stream per distinct method and URL; JSON responses give the record path and primary key',
      canPickMany: true,
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    if (!chosen || chosen.length === 0) return undefined;
    picks = chosen.map((c) => c.index);
  }
  return addStreams(services, { har: read.text, picks });
}

async function addStreams(services: Services, source: Record<string, unknown>): Promise<vscode.Uri | undefined> {
  const target = activeManifest();
  const result = await services.client.sendRequest(StreamsFromRequestsRequest, {
    source: sealConfig(source, services.sealKey),
    targetUri: target?.document.uri.toString(),
  });
  if ('error' in result) {
    void vscode.window.showErrorMessage(`Airbyte: ${result.error}`);
    return undefined;
  }
  let uri: vscode.Uri;
  if (result.edits && target) {
    const edit = new vscode.WorkspaceEdit();
    for (const e of result.edits)
      edit.replace(
        target.document.uri,
        new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character),
        e.newText,
      );
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showErrorMessage('Airbyte: the manifest changed while the streams were made; run the command again.');
      return undefined;
    }
    uri = target.document.uri;
    const first = result.edits.find((e) => e.newText.includes(`name: ${result.streams[0]}`));
    if (first) {
      const line =
        first.range.start.line + first.newText.slice(0, first.newText.indexOf(`name: ${result.streams[0]}`)).split('\n').length - 1;
      target.selection = new vscode.Selection(line, 0, line, 0);
      target.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
    }
  } else {
    const doc = await openNewManifest(result.text ?? '');
    await vscode.window.showTextDocument(doc);
    uri = doc.uri;
  }
  const names = result.streams.join(', ');
  const where = target ? `added to ${vscode.workspace.asRelativePath(uri)}` : 'in a new manifest';
  const notes = [...result.warnings, ...(result.errors ? [`${result.errors} validation error(s) to fix`] : [])];
  void vscode.window.showInformationMessage(
    `Airbyte: stream ${names} ${where}. Each value's comment says what it was inferred from; set the testing values before running it.${notes.length ? ` ${notes.join(' ')}` : ''}`,
  );
  return uri;
}

/**
 * An unsaved editor holding the new manifest, named `manifest.yaml` (then `manifest-2.yaml`…) in the
 * first workspace folder, so its tab says what it is and Save proposes that file.
 */
async function openNewManifest(text: string): Promise<vscode.TextDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) return vscode.workspace.openTextDocument({ language: 'yaml', content: text });
  const taken = async (uri: vscode.Uri) =>
    vscode.workspace.textDocuments.some((d) => d.uri.path === uri.path) ||
    (await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    ));
  let file = vscode.Uri.joinPath(folder, 'manifest.yaml');
  for (let n = 2; await taken(file); n++) file = vscode.Uri.joinPath(folder, `manifest-${n}.yaml`);
  const doc = await vscode.workspace.openTextDocument(file.with({ scheme: 'untitled' }));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), text);
  await vscode.workspace.applyEdit(edit);
  return doc;
}

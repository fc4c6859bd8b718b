// Shared helpers of the extension-host suites: the workspace, activation of our extension, and waits on
// VS Code events with a deadline (never a bare sleep).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'manifest-studio.airbyte-manifest-studio';

/** Options the runner writes beside the workspace (grep, screenshot folder). */
export function readRunOptions(): { grep: string | null; screenshots: string | null } {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const file = folder ? path.join(folder, '..', 'e2e-options.json') : '';
  if (!file || !fs.existsSync(file)) return { grep: null, screenshots: null };
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** A file: URI inside the test workspace. */
export function workspaceUri(relative: string): vscode.Uri {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('the e2e run opened no workspace folder');
  return vscode.Uri.joinPath(root, ...relative.split('/'));
}

/** Opens a workspace file in an editor and returns its document. */
export async function openWorkspaceFile(relative: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(workspaceUri(relative));
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** Activates our extension (idempotent) and returns its exported API. */
export async function activateExtension<T = unknown>(): Promise<T> {
  const ext = vscode.extensions.getExtension<T>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded in this window`);
  return ext.isActive ? ext.exports : ext.activate();
}

/** Resolves once `probe` returns a value other than undefined; polls on an interval with a deadline. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Diagnostics for a URI once `accept` is satisfied, woken by onDidChangeDiagnostics. */
export function waitForDiagnostics(
  uri: vscode.Uri,
  accept: (d: readonly vscode.Diagnostic[]) => boolean,
  timeoutMs = 20_000,
): Promise<readonly vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const list = vscode.languages.getDiagnostics(uri);
      if (accept(list)) {
        cleanup();
        resolve(list);
        return true;
      }
      return false;
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(
          `timed out waiting for diagnostics on ${uri.path}: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => d.message))}`,
        ),
      );
    }, timeoutMs);
    const cleanup = () => {
      sub.dispose();
      clearTimeout(timer);
    };
    check();
  });
}

/** A lens as a click sees it: the lens ids carry no arguments (client/src/lensCommands.ts); this is what they run. */
export type LensAction = { title: string; command: string; arguments: unknown[]; lens: vscode.CodeLens };

/** The code lenses of `uri` with what each runs, once at least one is there. */
export async function lensActions(
  uri: vscode.Uri,
  accept: (a: LensAction[]) => boolean = (a) => a.length > 0,
  timeoutMs = 20_000,
): Promise<LensAction[]> {
  const api = await activateExtension<{ lensCommand(id: string): { command: string; arguments: unknown[] } | undefined }>();
  return waitFor(
    'code lenses',
    async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
      const actions = lenses
        .filter((l) => l.command?.command)
        .map((l) => {
          const bound = api.lensCommand(l.command!.command);
          return {
            title: l.command!.title,
            command: bound?.command ?? l.command!.command,
            arguments: bound?.arguments ?? l.command!.arguments ?? [],
            lens: l,
          };
        });
      return accept(actions) ? actions : undefined;
    },
    timeoutMs,
  );
}

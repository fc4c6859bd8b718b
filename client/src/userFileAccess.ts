// The editor's side of the files policy (server/src/runtime/files/userFiles.ts, docs/security.md
// "Files"): before a file the user did not pick by hand is read through a symbolic link that leaves
// the manifest's folder, the user is asked; nothing is written through a link. A repository can
// commit `config.json -> ../other-project/secrets/config.json`; one click must not import it.
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { checkUserPath, readUserFile, writeUserFile, type ReadResult } from '../../server/src/runtime/files/userFiles';

/** The manifest's folder (the tree files must stay in), or null for a manifest that is not a file. */
export function manifestFolder(manifest: vscode.Uri): string | null {
  return manifest.scheme === 'file' ? dirname(manifest.fsPath) : null;
}

/**
 * Whether `file` may be used: true when it is not a link leaving the manifest's folder, or when the
 * user confirms it in a modal dialog. `answer` (automation, tests) stands for the dialog's answer.
 */
export async function confirmLinkOutside(file: vscode.Uri, manifest: vscode.Uri, what: string, answer?: boolean): Promise<boolean> {
  if (file.scheme !== 'file') return true;
  const check = checkUserPath(file.fsPath, manifestFolder(manifest));
  if (!check.linkLeavesTree) return true;
  if (answer !== undefined) {
    if (!answer)
      void vscode.window.showWarningMessage(
        `Not used: ${what} ${vscode.workspace.asRelativePath(file)} is a symbolic link to ${check.real ?? 'a missing file'}, outside the manifest's folder.`,
      );
    return answer;
  }
  const use = 'Use It Anyway';
  const choice = await vscode.window.showWarningMessage(
    `${what} ${vscode.workspace.asRelativePath(file)} is a symbolic link to ${check.real ?? 'a missing file'}, outside this manifest's folder.`,
    {
      modal: true,
      detail:
        "A repository can link to another project's files (its secrets, for example). Use the file only if you made this link yourself.",
    },
    use,
  );
  return choice === use;
}

/** Reads a text file under the policy (8 MiB cap); a link out of the folder only when `allowLinkOutside`. */
export async function readTextFile(file: vscode.Uri, manifest: vscode.Uri, what: string, allowLinkOutside: boolean): Promise<ReadResult> {
  if (file.scheme === 'file') return readUserFile(file.fsPath, { root: manifestFolder(manifest), what, allowLinkOutside });
  try {
    return { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(file)) };
  } catch (e) {
    return { error: `cannot read ${what} ${vscode.workspace.asRelativePath(file)} (${(e as Error).message})` };
  }
}

/** Writes a text file, never through a link (the error says why when refused). */
export async function writeTextFile(
  file: vscode.Uri,
  text: string,
  manifest: vscode.Uri | null,
  what: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  if (file.scheme !== 'file') {
    await vscode.workspace.fs.writeFile(file, Buffer.from(text, 'utf8'));
    return { ok: true };
  }
  return writeUserFile(file.fsPath, text, { root: manifest ? manifestFolder(manifest) : null, what });
}

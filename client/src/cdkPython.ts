// Which Python the "Airbyte CDK" engine runs (docs/engines.md): the `airbyte.cdk.python` setting, else
// the interpreter selected in the Python extension when it is installed, else python3 on the PATH
// (decided by the server). The choice is sent to the language server, which probes it.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { CdkPythonParams } from '../../server/src/protocol';

type PythonExtensionApi = {
  environments?: {
    getActiveEnvironmentPath?(resource?: vscode.Uri): { path?: string } | undefined;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
};

/** The Python extension's API, activated; undefined when it is not installed or fails. */
async function pythonExtension(): Promise<PythonExtensionApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (!ext) return undefined;
  try {
    return ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return undefined;
  }
}

/** The interpreter by the documented order of choice; `python: null` leaves it to the server (python3). */
export async function resolveCdkPython(): Promise<CdkPythonParams> {
  const setting = vscode.workspace.getConfiguration('airbyte').get<string>('cdk.python', '').trim();
  if (setting) return { python: setting.startsWith('~/') ? `${os.homedir()}${setting.slice(1)}` : setting, source: 'setting' };
  const api = await pythonExtension();
  const path = api?.environments?.getActiveEnvironmentPath?.(vscode.workspace.workspaceFolders?.[0]?.uri)?.path;
  if (path) return { python: path, source: 'python-extension' };
  return { python: null, source: 'path' };
}

/** Calls `onChange` when the choice may have changed (the setting, or the Python extension's selection). */
export async function watchCdkPython(onChange: () => void): Promise<vscode.Disposable[]> {
  const subs = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('airbyte.cdk.python')) onChange();
    }),
  ];
  const api = await pythonExtension();
  const event = api?.environments?.onDidChangeActiveEnvironmentPath;
  if (event) subs.push(event(() => onChange()));
  return subs;
}

// Commands over a manifest's testing values: open the form (or set values directly, for automation),
// import from a config.json, export without secret values, and clear.
import * as vscode from 'vscode';
import { importNotice, looksLikeManifest } from './importNotice';
import { GetSpecRequest, type GetSpecParams, type GetSpecResult } from '../../../server/src/protocol';
import type { Services } from '../services';
import type { ConnectorConfig } from '../secrets';
import { withoutSecrets } from '../../../server/src/runtime/shared/secretFields';
import { validateTestingValues } from '../testingValuesValidation';
import { TestingValuesPanel } from '../views/testingValuesPanel';
import { manifestUriFrom } from './pickTarget';
import { confirmLinkOutside, readTextFile, writeTextFile } from '../userFileAccess';

/** The manifest's spec from the language server. */
export async function fetchSpec(services: Services, uri: vscode.Uri): Promise<GetSpecResult> {
  await vscode.workspace.openTextDocument(uri);
  const params: GetSpecParams = { uri: uri.toString() };
  return services.client.sendRequest(GetSpecRequest, params);
}

function reportProblems(problems: { title: string; message: string }[]): void {
  void vscode.window.showErrorMessage(`The testing values were not saved: ${problems.map((p) => `${p.title} ${p.message}`).join(' ')}`);
}

/** `airbyte.setTestingValues`: with `{ uri, values }` validates and stores directly; otherwise opens the form. */
export async function setTestingValues(services: Services, arg: unknown): Promise<boolean> {
  const uri = manifestUriFrom(arg);
  if (!uri) {
    void vscode.window.showWarningMessage('Open a connector manifest first.');
    return false;
  }
  const { connectionSpecification, advancedAuth } = await fetchSpec(services, uri);
  const values = (arg as { values?: unknown } | undefined)?.values;
  if (values !== undefined) {
    const problems = validateTestingValues(connectionSpecification, values);
    if (problems.length > 0) {
      reportProblems(problems);
      return false;
    }
    await services.store.set(uri, values as ConnectorConfig);
    return true;
  }
  TestingValuesPanel.show(services.context.extensionUri, uri, connectionSpecification, services.store, advancedAuth !== null);
  return true;
}

/**
 * `airbyte.importTestingValues`: reads a config.json (chosen, or `{ uri, file }`), validates, stores.
 * A config.json that links outside the manifest's folder is used only when the user confirms it
 * (`allowLinkOutside` answers for the dialog in automation); the file is read with the 8 MiB cap.
 */
export async function importTestingValues(services: Services, arg: unknown): Promise<boolean> {
  const uri = manifestUriFrom(arg);
  if (!uri) return false;
  const given = (arg as { file?: string } | undefined)?.file;
  const file = given
    ? vscode.Uri.file(given)
    : (
        await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { 'Connector config': ['json'] },
          title: 'Import testing values from config.json',
          defaultUri: vscode.Uri.joinPath(uri, '..'),
        })
      )?.[0];
  if (!file) return false;
  const allowed = await confirmLinkOutside(file, uri, 'The file', (arg as { allowLinkOutside?: boolean } | undefined)?.allowLinkOutside);
  if (!allowed) return false;
  const input = await readTextFile(file, uri, 'the config', true);
  if ('error' in input) {
    void vscode.window.showErrorMessage(`Not imported: ${input.error}.`);
    return false;
  }
  let values: unknown;
  try {
    values = JSON.parse(input.text);
  } catch (e) {
    void vscode.window.showErrorMessage(
      `${vscode.workspace.asRelativePath(file)} is not readable JSON: ${(e as Error).message.replace(/".*"/, '…')}`,
    );
    return false;
  }
  const { connectionSpecification } = await fetchSpec(services, uri);
  const problems = validateTestingValues(connectionSpecification, values);
  if (problems.length > 0) {
    reportProblems(problems);
    return false;
  }
  await services.store.set(uri, values as ConnectorConfig);
  void vscode.window.showInformationMessage(
    importNotice(vscode.workspace.asRelativePath(uri), vscode.workspace.asRelativePath(file), await otherManifestsBeside(file, uri)),
  );
  return true;
}

/** `airbyte.exportTestingValues`: writes the values without secret fields (to a chosen file, or `{ uri, file }`). */
export async function exportTestingValues(services: Services, arg: unknown): Promise<boolean> {
  const uri = manifestUriFrom(arg);
  if (!uri) return false;
  const values = await services.store.get(uri);
  if (!values) {
    void vscode.window.showInformationMessage('No testing values are stored for this manifest.');
    return false;
  }
  const { connectionSpecification } = await fetchSpec(services, uri);
  const given = (arg as { file?: string } | undefined)?.file;
  const file = given
    ? vscode.Uri.file(given)
    : await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(uri, '..', 'config.example.json'),
        filters: { JSON: ['json'] },
        title: 'Export testing values without secrets',
      });
  if (!file) return false;
  const safe = withoutSecrets(connectionSpecification, values);
  const written = await writeTextFile(file, `${JSON.stringify(safe, null, 2)}\n`, null, 'the export');
  if (!written.ok) {
    void vscode.window.showErrorMessage(`Not exported: ${written.error}`);
    return false;
  }
  void vscode.window.showInformationMessage(`Exported testing values without secret fields to ${vscode.workspace.asRelativePath(file)}.`);
  return true;
}

/** `airbyte.clearTestingValues`: deletes the stored values after confirmation (skipped with `{ uri, confirm: false }`). */
export async function clearTestingValues(services: Services, arg: unknown): Promise<boolean> {
  const uri = manifestUriFrom(arg);
  if (!uri) return false;
  if ((arg as { confirm?: boolean } | undefined)?.confirm !== false) {
    const ok = await vscode.window.showWarningMessage(
      `Delete the stored testing values of ${vscode.workspace.asRelativePath(uri)}?`,
      { modal: true },
      'Delete',
    );
    if (ok !== 'Delete') return false;
  }
  await services.store.clear(uri);
  return true;
}

/** How many connector manifests other than `manifest` sit in the folder of `file` (they may import it too). */
async function otherManifestsBeside(file: vscode.Uri, manifest: vscode.Uri): Promise<number> {
  const folder = vscode.Uri.joinPath(file, '..');
  const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(folder)).catch(() => [] as [string, vscode.FileType][]);
  let count = 0;
  for (const [name, type] of entries) {
    if (type !== vscode.FileType.File || !/\.ya?ml$/i.test(name)) continue;
    const candidate = vscode.Uri.joinPath(folder, name);
    if (candidate.toString() === manifest.toString()) continue;
    const text = await Promise.resolve(vscode.workspace.fs.readFile(candidate)).then(
      (b) => new TextDecoder().decode(b),
      () => '',
    );
    if (looksLikeManifest(text)) count++;
  }
  return count;
}

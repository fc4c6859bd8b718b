// The testing values a command sends: the manifest's own, or (when it has none) what the user chooses —
// import a config.json beside the manifest, copy another manifest's values, set them, or go on without.
// Its own module, shared by the commands that read (run, resolve, compare engines, the incremental lab).
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { ValuesSource } from '../secrets';
import { noValuesPrompt } from './noValuesPrompt';

/** How a source of testing values is named in prompts. */
function sourceLabel(source: ValuesSource): string {
  return source.kind === 'manifest'
    ? vscode.workspace.asRelativePath(vscode.Uri.parse(source.uri), true)
    : `'${source.relativePath}' (saved by an earlier version; it may belong to another project with that path)`;
}

/** Copies testing values the user picks from another manifest; false when nothing was copied. */
async function copyTestingValues(services: Services, uri: vscode.Uri, others: ValuesSource[]): Promise<boolean> {
  let source: ValuesSource | undefined = others[0];
  if (others.length > 1) {
    const picked = await vscode.window.showQuickPick(
      others.map((o) => ({ label: sourceLabel(o), source: o })),
      {
        title: `Copy testing values to ${vscode.workspace.asRelativePath(uri)}`,
        placeHolder: 'The values will be sent to the API this manifest names',
      },
    );
    source = picked?.source;
  }
  if (!source) return false;
  const copied = await services.store.copyFrom(source, uri);
  if (copied) services.log.info(`testing values copied from ${sourceLabel(source)} to ${vscode.workspace.asRelativePath(uri)}`);
  return copied;
}

/**
 * The manifest's testing values; without any, offers to import a config.json beside the manifest, to
 * set them, or to go on with `{}` (`goOn` names that choice). Undefined when the user backs out.
 */
export async function testingValuesOrAsk(services: Services, uri: vscode.Uri, goOn: string): Promise<Record<string, unknown> | undefined> {
  const config = await services.store.get(uri);
  if (config) return config;
  // A config.json beside the manifest (as in the demo workspace) can be imported in one click.
  const beside = vscode.Uri.joinPath(uri, '..', 'config.json');
  const hasConfigJson = await vscode.workspace.fs.stat(beside).then(
    () => true,
    () => false,
  );
  // Values saved for another manifest are never sent to this one's API unless the user copies them.
  const others = await services.store.candidates(uri);
  const { message, choices, copy, set } = noValuesPrompt(
    vscode.workspace.asRelativePath(uri),
    hasConfigJson,
    others.map(sourceLabel),
    goOn,
  );
  const choice = await vscode.window.showWarningMessage(message, ...choices);
  if (choice === set) {
    await vscode.commands.executeCommand('airbyte.setTestingValues', { uri: uri.toString() });
    return undefined;
  }
  if (choice === 'Import config.json') {
    if (!(await vscode.commands.executeCommand<boolean>('airbyte.importTestingValues', { uri: uri.toString(), file: beside.fsPath })))
      return undefined;
    return (await services.store.get(uri)) ?? undefined;
  }
  if (choice === copy) {
    if (!(await copyTestingValues(services, uri, others))) return undefined;
    return (await services.store.get(uri)) ?? undefined;
  }
  return choice === goOn ? {} : undefined;
}

// "New Connector from OpenAPI…": pick a document (an OpenAPI/Swagger file of the workspace, or any
// file), pick operations in a list grouped by tag (the GETs that return lists are preselected), and
// the scaffolded manifest is written into the workspace and opened. The language server scaffolds
// (the CLI's code, server/src/runtime/scaffold/); nothing is sent over the network.
import * as vscode from 'vscode';
import { basename, dirname, join } from 'node:path';
import type { Services } from '../services';
import { OpenApiOperationsRequest, ScaffoldOpenApiRequest, type OpenApiOperationChoice } from '../../../server/src/protocol';

type DocumentItem = vscode.QuickPickItem & { uri?: vscode.Uri };
type OperationItem = vscode.QuickPickItem & { key?: string };

/** Runs the command; resolves with the written manifest's URI, or undefined when cancelled or refused. */
export async function newConnectorFromOpenApi(services: Services, arg?: unknown): Promise<vscode.Uri | undefined> {
  const source = arg instanceof vscode.Uri ? arg : await pickDocument();
  if (!source) return undefined;
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(source));
  const listed = await services.client.sendRequest(OpenApiOperationsRequest, { text, fileName: source.fsPath });
  if (!listed.ok) {
    void vscode.window.showErrorMessage(`Cannot scaffold from ${basename(source.fsPath)}: ${listed.where}: ${listed.message}`);
    return undefined;
  }
  const picked = await pickOperations(listed.operations);
  if (!picked || picked.length === 0) return undefined;
  const result = await services.client.sendRequest(ScaffoldOpenApiRequest, { text, fileName: source.fsPath, operations: picked });
  if (!result.ok) {
    void vscode.window.showErrorMessage(`Cannot scaffold from ${basename(source.fsPath)}: ${result.where}: ${result.message}`);
    return undefined;
  }
  const target = await pickTarget(source, listed.title);
  if (!target) return undefined;
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(dirname(target.fsPath)));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(result.manifest));
  services.log.info(
    `Scaffolded ${target.fsPath} from ${source.fsPath}: ${result.streams.length} streams, inputs ${result.inputs.join(', ') || '(none)'}.`,
  );
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
  void vscode.window.showInformationMessage(
    `Scaffolded ${result.streams.length} stream${result.streams.length === 1 ? '' : 's'} from ${basename(source.fsPath)}. Each guess has a comment saying what it was inferred from: check them, then set testing values and run a stream.`,
  );
  return target;
}

/** The workspace's OpenAPI / Swagger files (those that say so in their first lines), then "Browse…". */
async function pickDocument(): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles('**/*.{yaml,yml,json}', '**/{node_modules,.git}/**', 2000);
  const found: DocumentItem[] = [];
  for (const uri of files) {
    const head = new TextDecoder().decode((await vscode.workspace.fs.readFile(uri)).subarray(0, 4096));
    if (!/^\s*["']?(openapi|swagger)["']?\s*:/m.test(head)) continue;
    found.push({ label: vscode.workspace.asRelativePath(uri), description: /swagger/.test(head) ? 'Swagger 2.0' : 'OpenAPI', uri });
  }
  found.sort((a, b) => a.label.localeCompare(b.label));
  const browse: DocumentItem = { label: '$(folder-opened) Browse…', description: 'an OpenAPI 3.0/3.1 or Swagger 2.0 file (YAML or JSON)' };
  const choice = await vscode.window.showQuickPick<DocumentItem>([...found, browse], {
    title: 'New Connector from OpenAPI: the API description',
    placeHolder: found.length
      ? 'Pick the OpenAPI document to scaffold the connector from'
      : 'No OpenAPI document in the workspace: browse for one',
  });
  if (!choice) return undefined;
  if (choice.uri) return choice.uri;
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { 'OpenAPI / Swagger': ['yaml', 'yml', 'json'] },
    openLabel: 'Scaffold from this document',
  });
  return uris?.[0];
}

/** A multi-select list of operations under one separator per tag; the GETs that return lists come preselected. */
async function pickOperations(choices: OpenApiOperationChoice[]): Promise<string[] | undefined> {
  const readable = choices.filter((c) => c.method === 'GET' || c.method === 'POST');
  const byTag = new Map<string, OpenApiOperationChoice[]>();
  for (const c of readable) {
    const tag = c.tags[0] ?? 'Other operations';
    byTag.set(tag, [...(byTag.get(tag) ?? []), c]);
  }
  const items: OperationItem[] = [];
  for (const [tag, ops] of byTag) {
    items.push({ label: tag, kind: vscode.QuickPickItemKind.Separator });
    for (const op of ops) {
      items.push({
        label: `${op.method} ${op.path}`,
        description: op.summary,
        detail: op.returnsList ? 'returns a list' : op.method === 'GET' ? 'returns one object' : 'a POST (a search, say)',
        picked: op.returnsList,
        key: op.key,
      });
    }
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'New Connector from OpenAPI: one stream per operation',
    placeHolder: 'Pick the operations to read (the GETs that return lists are selected)',
    canPickMany: true,
    matchOnDescription: true,
  });
  return picked?.map((i) => i.key!).filter(Boolean);
}

/** Where to write: `<api name>/manifest.yaml` in the document's workspace folder, editable. */
async function pickTarget(source: vscode.Uri, title: string): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.getWorkspaceFolder(source) ?? vscode.workspace.workspaceFolders?.[0];
  const base = folder?.uri.fsPath ?? dirname(source.fsPath);
  const words = (title || basename(source.fsPath).replace(/\.[^.]+$/, '')).toLowerCase().match(/[a-z0-9]+/g) ?? ['connector'];
  const slug = words.slice(0, 3).join('-');
  let suggestion = join(slug, 'manifest.yaml');
  for (let i = 2; await exists(vscode.Uri.file(join(base, suggestion))); i++) suggestion = join(`${slug}-${i}`, 'manifest.yaml');
  const relative = await vscode.window.showInputBox({
    title: 'New Connector from OpenAPI: where to write the manifest',
    prompt: `A path relative to ${basename(base)}`,
    value: suggestion,
    valueSelection: [0, slug.length],
    validateInput: (v) => (!v.trim() ? 'Name the file' : /(^|[\\/])\.\.([\\/]|$)/.test(v) ? 'Stay inside the workspace folder' : undefined),
  });
  if (!relative) return undefined;
  const target = vscode.Uri.file(join(base, relative.trim()));
  if (await exists(target)) {
    const replace = await vscode.window.showWarningMessage(`${relative} exists. Replace it?`, { modal: true }, 'Replace');
    if (replace !== 'Replace') return undefined;
  }
  return target;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

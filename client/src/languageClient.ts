// Starts the bundled language server (out/server.js) and connects it to YAML documents. Documents that
// are not connector manifests get nothing from us: their diagnostics and provider results are dropped
// here, so we never duplicate or contradict another YAML extension.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type Middleware, type ServerOptions } from 'vscode-languageclient/node';
import { isManifestDocument } from './manifestDetection';
import { isBlankStart } from './manifestText';
import type { OutputLog } from './output';
import { lensCommands } from './lensCommands';
import { SEAL_KEY_ENV } from '../../server/src/protocol';

/**
 * Creates and starts the language client; `globs` is read on every check so setting changes apply at
 * once. `sealKey` (protocol.ts) goes to the server in its environment, never in a message, so that the
 * protocol trace cannot show the testing values sealed with it.
 */
export async function startLanguageClient(context: vscode.ExtensionContext, log: OutputLog, globs: () => string[], sealKey: string): Promise<LanguageClient> {
  const serverModule = context.asAbsolutePath('out/server.js');
  const env = { ...process.env, [SEAL_KEY_ENV]: sealKey };
  const serverOptions: ServerOptions = {
    // Stack traces of failed test reads are shown to the user: Node maps them to the TypeScript sources
    // through out/server.js.map (must be on before the bundle loads, hence a flag and not a call).
    run: { module: serverModule, transport: TransportKind.stdio, options: { env, execArgv: ['--enable-source-maps'] } },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { env, execArgv: ['--nolazy', '--inspect=6019', '--enable-source-maps'] } },
  };
  const isManifest = (doc: vscode.TextDocument) => isManifestDocument(doc, globs());
  const findDoc = (uri: vscode.Uri) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const middleware: Middleware = {
    handleDiagnostics(uri, diagnostics, next) {
      const doc = findDoc(uri);
      next(uri, doc && isManifest(doc) ? diagnostics : []);
    },
    // A blank YAML file gets completion too: the manifest skeleton (the guided start).
    provideCompletionItem: (doc, pos, ctx, token, next) => (isManifest(doc) || isBlankStart(doc.getText()) ? next(doc, pos, ctx, token) : undefined),
    provideHover: (doc, pos, token, next) => (isManifest(doc) ? next(doc, pos, token) : undefined),
    // Lens commands carry no arguments (lensCommands.ts): a click then never depends on VS Code's per-list cache.
    provideCodeLenses: async (doc, token, next) => (isManifest(doc) ? lensCommands.bindAll(await next(doc, token)) : []),
    provideDefinition: (doc, pos, token, next) => (isManifest(doc) ? next(doc, pos, token) : undefined),
    provideReferences: (doc, pos, ctx, token, next) => (isManifest(doc) ? next(doc, pos, ctx, token) : undefined),
    provideDocumentSymbols: (doc, token, next) => (isManifest(doc) ? next(doc, token) : undefined),
    provideCodeActions: (doc, range, ctx, token, next) => (isManifest(doc) ? next(doc, range, ctx, token) : undefined),
    provideRenameEdits: (doc, pos, name, token, next) => (isManifest(doc) ? next(doc, pos, name, token) : undefined),
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'yaml', scheme: 'file' }, { language: 'yaml', scheme: 'untitled' }],
    outputChannel: log.recordingChannel(),
    middleware,
  };
  context.subscriptions.push(lensCommands);
  const client = new LanguageClient('airbyteManifest', 'Airbyte Manifest', serverOptions, clientOptions);
  await client.start();
  log.info('language server started');
  return client;
}

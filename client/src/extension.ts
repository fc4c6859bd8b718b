// Extension entry point: activation and deactivation only. Wires the output channel, the language
// client, the testing-values store and the commands; each lives in its own module.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { writeActivationReport } from './activationReport';
import { extensionApi, registerCommands, type ExtensionApi } from './commands/registerCommands';
import { startLanguageClient } from './languageClient';
import { OutputLog } from './output';
import { TestingValuesStore } from './secrets';
import { readSettings } from './settings';
import { newSealKey } from '../../server/src/protocol';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const started = Date.now();
  try {
    const api = await activateServices(context, started);
    writeActivationReport(context, started);
    return api;
  } catch (e) {
    writeActivationReport(context, started, e);
    throw e;
  }
}

async function activateServices(context: vscode.ExtensionContext, started: number): Promise<ExtensionApi> {
  const log = new OutputLog(readSettings().logLevel);
  const store = new TestingValuesStore(context.secrets);
  context.subscriptions.push(
    log,
    store,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('airbyte.logLevel')) log.setLevel(readSettings().logLevel);
    }),
  );
  // A new key per activation: sealed testing values are readable only by this client and its server.
  const sealKey = newSealKey();
  client = await startLanguageClient(context, log, () => readSettings().manifestGlobs, sealKey);
  const services = { context, client, store, log, sealKey };
  context.subscriptions.push(...registerCommands(services));
  log.info(`activated in ${Date.now() - started} ms`);
  return extensionApi(services);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

// "Check connection" (the lens above `check:`): runs the manifest's check with its testing values on
// the server and shows the connection status, message and logs in the results view.
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import { CheckConnectionRequest, sealConfig, type CheckConnectionParams, type CheckConnectionResult } from '../../../server/src/protocol';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { ResultsPanel } from '../views/resultsPanel';
import { manifestUriFrom } from './pickTarget';
import { testingValuesOrAsk } from './askTestingValues';

/** Runs the check; resolves with its result (undefined when nothing ran: no manifest, no testing values, cancelled). */
export async function checkConnection(services: Services, arg: unknown): Promise<CheckConnectionResult | undefined> {
  const uri = manifestUriFrom(arg);
  if (!uri) {
    void vscode.window.showWarningMessage('Open a connector manifest (manifest.yaml) first.');
    return undefined;
  }
  const config = await testingValuesOrAsk(services, uri, 'Check Anyway');
  if (!config) return undefined;
  const settings = readSettings();
  // Sealed: the language client's protocol trace must not show testing values (protocol.ts).
  const params: CheckConnectionParams = {
    uri: uri.toString(),
    config: sealConfig(config, services.sealKey),
    http: { timeoutMs: settings.requestTimeoutSeconds * 1000, maxResponseBytes: settings.maxResponseBytes },
  };
  const panel = ResultsPanel.show(services.context.extensionUri, uri, 'check:', {
    rerun: () => void vscode.commands.executeCommand('airbyte.checkConnection', { uri: uri.toString() }),
    runWithLimits: () => void vscode.commands.executeCommand('airbyte.checkConnection', { uri: uri.toString() }),
    writeSchema: () => {},
  });
  panel.checkStart();
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Checking the connection', cancellable: true },
      (_progress, token) => services.client.sendRequest(CheckConnectionRequest, params, token),
    );
    panel.check(result);
    services.log.info(
      `${vscode.workspace.asRelativePath(uri)}: check ${result.status ?? 'ended in an error'}${result.message ? `: ${result.message}` : ''}`,
    );
    return result;
  } catch (e) {
    const cancelled = e instanceof ResponseError && (e.code === -32800 || /cancel/i.test(e.message));
    panel.failed({ message: cancelled ? 'The check was cancelled.' : (e as Error).message });
    return undefined;
  }
}

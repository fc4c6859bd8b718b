// The client side of the "Airbyte CDK" engine (docs/engines.md): tells the language server which
// Python to use, explains what to install when the engine cannot run (the lens of a stream with custom
// components, a failed read), and "Compare with the CDK": one stream read on both engines, every
// difference shown in the compare view.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  CdkEngineStatusRequest,
  CdkPythonNotification,
  CompareEnginesRequest,
  TestReadProgressNotification,
  sealConfig,
  type CdkEngineStatusParams,
  type CompareEnginesParams,
  type CompareEnginesResult,
  type TestReadProgressParams,
} from '../../../server/src/protocol';
import type { Services, StreamTarget } from '../services';
import { resolveCdkPython, watchCdkPython } from '../cdkPython';
import { readSettings } from '../settings';
import { ComparePanel } from '../views/comparePanel';
import { resolveStreamTarget } from './pickTarget';
import { testingValuesOrAsk } from './askTestingValues';

/** Sends the interpreter choice to the server now and whenever it changes. */
async function sendPython(services: Services): Promise<void> {
  const choice = await resolveCdkPython();
  services.log.debug(`Airbyte CDK engine: Python ${choice.python ?? 'python3 on the PATH'} (${choice.source})`);
  await services.client.sendNotification(CdkPythonNotification, choice);
}

/**
 * Shows what the CDK engine needs with the actions that fix it: copy the pip command, run it in a
 * terminal, choose another interpreter, or check again after installing.
 */
export async function offerCdkInstall(services: Services, message: string, installCommand: string | null): Promise<void> {
  const actions = [...(installCommand ? ['Run in Terminal', 'Copy Command'] : []), 'Choose Python…', 'Check Again'];
  const choice = await vscode.window.showWarningMessage(message, ...actions);
  if (choice === 'Copy Command' && installCommand) {
    await vscode.env.clipboard.writeText(installCommand);
  } else if (choice === 'Run in Terminal' && installCommand) {
    const terminal = vscode.window.createTerminal('airbyte-cdk install');
    terminal.show();
    terminal.sendText(installCommand);
  } else if (choice === 'Choose Python…') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'airbyte.cdk.python');
  } else if (choice === 'Check Again') {
    const status = await services.client.sendRequest(CdkEngineStatusRequest, { fresh: true } satisfies CdkEngineStatusParams);
    if (status.ok)
      void vscode.window.showInformationMessage(
        `The Airbyte CDK engine is ready: airbyte-cdk ${status.cdkVersion} on Python ${status.pythonVersion} (${status.python}).`,
      );
    else void offerCdkInstall(services, status.message, status.installCommand);
  }
}

/** "Compare with the CDK": reads the stream on both engines (from `cassette` when given) and opens the compare view. */
export async function compareWithCdk(services: Services, arg: unknown): Promise<CompareEnginesResult | undefined> {
  const target = await resolveStreamTarget(services, arg);
  if (!target) return undefined;
  const cassette = (arg as { cassette?: string } | undefined)?.cassette;
  const uri = vscode.Uri.parse(target.uri);
  const config = cassette ? {} : await testingValuesOrAsk(services, uri, 'Compare Anyway');
  if (!config) return undefined;
  const settings = readSettings();
  const runId = randomUUID();
  const params: CompareEnginesParams = {
    uri: target.uri,
    streamName: target.streamName,
    config: sealConfig(config, services.sealKey),
    runId,
    limits: settings.limits,
    http: { timeoutMs: settings.requestTimeoutSeconds * 1000, maxResponseBytes: settings.maxResponseBytes },
    ...(cassette ? { replay: { cassetteUri: cassette } } : {}),
  };
  services.log.info(
    `comparing stream '${target.streamName}' on the built-in runtime and the Airbyte CDK${cassette ? ' (offline, from a cassette)' : ''}`,
  );
  let result: CompareEnginesResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Comparing '${target.streamName}' on both engines`, cancellable: true },
      async (progress, token) => {
        const sub = services.client.onNotification(TestReadProgressNotification, (p: TestReadProgressParams) => {
          if (p.runId === runId && p.event.type === 'log') progress.report({ message: p.event.message });
        });
        try {
          return await services.client.sendRequest(CompareEnginesRequest, params, token);
        } finally {
          sub.dispose();
        }
      },
    );
  } catch (e) {
    const message = (e as Error).message;
    services.log.warn(`comparison of '${target.streamName}' failed: ${message}`);
    void vscode.window.showErrorMessage(`Compare with the CDK failed: ${message}`);
    return undefined;
  }
  if ('unavailable' in result) {
    void offerCdkInstall(services, result.unavailable, result.installCommand ?? null);
    return result;
  }
  services.log.info(`comparison of '${target.streamName}': ${result.identical ? 'identical' : `${result.differences.length} differences`}`);
  ComparePanel.showEngines(
    services.context.extensionUri,
    target,
    result,
    () => void compareWithCdk(services, { ...target, ...(cassette ? { cassette } : {}) }),
  );
  return result;
}

/** The commands and the interpreter watch of the CDK engine. */
export function registerCdkEngine(services: Services): vscode.Disposable[] {
  const subs: vscode.Disposable[] = [
    vscode.commands.registerCommand('airbyte.compareWithCdk', (arg: unknown) => compareWithCdk(services, arg)),
    vscode.commands.registerCommand('airbyte.showCdkSetup', (arg: unknown) => {
      const a = (arg ?? {}) as Partial<StreamTarget> & { message?: string; installCommand?: string | null };
      return offerCdkInstall(services, a.message ?? 'The Airbyte CDK engine is not available.', a.installCommand ?? null);
    }),
  ];
  void sendPython(services).catch((e) => services.log.warn(`Airbyte CDK engine: ${(e as Error).message}`));
  void watchCdkPython(() => void sendPython(services)).then(
    (w) => subs.push(...w),
    () => undefined,
  );
  return subs;
}

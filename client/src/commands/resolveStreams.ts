// "Resolve streams…" (the lens above `dynamic_streams`): asks the server for the streams the manifest
// resolves to with its testing values — dynamic stream names need the config, and an API call for an
// HttpComponentsResolver — then offers "Run stream" for the one picked.
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import { ResolveStreamsRequest, sealConfig, type ResolveStreamsParams, type ResolveStreamsResult } from '../../../server/src/protocol';
import type { Services } from '../services';
import { readSettings } from '../settings';
import { manifestUriFrom } from './pickTarget';
import type { RunStreamOutcome } from './runStream';
import { testingValuesOrAsk } from './askTestingValues';
import { plural } from '../plural';

/** What the command returns: the resolved streams, and the outcome of the run when one was started. */
export type ResolveStreamsOutcome = ResolveStreamsResult & { run?: RunStreamOutcome };

/**
 * Resolves the streams and runs the picked one (`arg.streamName`, when given, is run without asking:
 * scripts and tests use it). Returns undefined when nothing was resolved.
 */
export async function resolveStreams(services: Services, arg: unknown): Promise<ResolveStreamsOutcome | undefined> {
  const uri = manifestUriFrom(arg);
  if (!uri) {
    void vscode.window.showWarningMessage('Open a connector manifest (manifest.yaml) first.');
    return undefined;
  }
  const config = await testingValuesOrAsk(services, uri, 'Resolve Anyway');
  if (!config) return undefined;
  const settings = readSettings();
  // Sealed: the language client's protocol trace must not show testing values (protocol.ts).
  const params: ResolveStreamsParams = {
    uri: uri.toString(),
    config: sealConfig(config, services.sealKey),
    http: { timeoutMs: settings.requestTimeoutSeconds * 1000, maxResponseBytes: settings.maxResponseBytes },
  };
  let result: ResolveStreamsResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Resolving dynamic streams', cancellable: true },
      (_progress, token) => services.client.sendRequest(ResolveStreamsRequest, params, token),
    );
  } catch (e) {
    const cancelled = e instanceof ResponseError && (e.code === -32800 || /cancel/i.test(e.message));
    if (!cancelled) {
      services.log.warn(`resolving the streams of ${vscode.workspace.asRelativePath(uri)} failed: ${(e as Error).message}`);
      void vscode.window
        .showErrorMessage(`Resolving the dynamic streams failed: ${(e as Error).message}`, 'Show Output')
        .then((c) => c && services.log.channel.show());
    }
    return undefined;
  }
  const dynamic = result.streams.filter((s) => s.dynamic);
  services.log.info(
    `${vscode.workspace.asRelativePath(uri)}: ${plural(dynamic.length, 'dynamic stream')} resolved: ${dynamic.map((s) => s.name).join(', ') || 'none'}`,
  );
  if (dynamic.length === 0) {
    void vscode.window.showInformationMessage('The dynamic stream definitions resolve to no stream with these testing values.');
    return result;
  }
  const given = (arg as { streamName?: unknown } | undefined)?.streamName;
  const picked =
    typeof given === 'string'
      ? dynamic.find((s) => s.name === given)
      : await vscode.window.showQuickPick(
          dynamic.map((s) => ({
            label: `$(play) Run stream ${s.name}`,
            description: `${s.definition ?? ''} · ${s.resolver ?? ''}`,
            name: s.name,
          })),
          { placeHolder: `${plural(dynamic.length, 'dynamic stream')} resolved — pick one to run` },
        );
  if (typeof given === 'string' && !picked) {
    void vscode.window.showWarningMessage(
      `No dynamic stream named '${given}' was resolved; resolved: ${dynamic.map((s) => s.name).join(', ')}.`,
    );
    return result;
  }
  if (!picked) return result;
  const run = await vscode.commands.executeCommand<RunStreamOutcome>('airbyte.runStream', { uri: uri.toString(), streamName: picked.name });
  return { ...result, run };
}

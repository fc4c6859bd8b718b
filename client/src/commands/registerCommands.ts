// Registers every `airbyte.*` command of the palette and the code lenses.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ResultsPanel } from '../views/resultsPanel';
import { ComparePanel } from '../views/comparePanel';
import { CassetteLensProvider } from '../cassetteLens';
import { lensCommands, type BoundCommand } from '../lensCommands';
import { readSettings } from '../settings';
import { compareWithPreviousRead, replayCassette, saveReadAsCassette } from './cassettes';
import { authorizeOAuth } from './authorizeOAuth';
import { registerCdkEngine } from './cdkEngine';
import { applyCdkMigrations } from './applyCdkMigrations';
import { registerRunNotifications, runStream } from './runStream';
import { writeInferredSchema } from './writeInferredSchema';
import { resolveStreams } from './resolveStreams';
import { checkConnection } from './checkConnection';
import { RESOLVED_SCHEME, ResolvedManifestProvider, showResolvedManifest } from './showResolvedManifest';
import { clearTestingValues, exportTestingValues, importTestingValues, setTestingValues } from './testingValues';
import { newManifest } from './newManifest';
import { newConnectorFromOpenApi } from './newConnectorFromOpenApi';
import { registerIncrementalCommands } from '../incremental/incrementalCommands';
import { ReadinessPanel } from '../incremental/readinessPanel';
import { newStreamFromCurl, newStreamFromHar } from './streamsFromRequests';
import { copyRequestAsCurl } from './copyAsCurl';

/** Registers the commands; returns their disposables. */
export function registerCommands(services: Services): vscode.Disposable[] {
  const reg = (id: string, fn: (arg: unknown) => unknown) => vscode.commands.registerCommand(id, fn);
  const resolved = new ResolvedManifestProvider();
  const cassetteLenses = new CassetteLensProvider(services, () => readSettings().manifestGlobs);
  return [
    vscode.workspace.registerTextDocumentContentProvider(RESOLVED_SCHEME, resolved),
    reg('airbyte.showResolvedManifest', (arg) => showResolvedManifest(services, resolved, arg)),
    ...registerRunNotifications(services),
    reg('airbyte.runStream', (arg) => runStream(services, arg, false)),
    reg('airbyte.runStreamWithLimits', (arg) => runStream(services, arg, true)),
    reg('airbyte.resolveStreams', (arg) => resolveStreams(services, arg)),
    reg('airbyte.checkConnection', (arg) => checkConnection(services, arg)),
    reg('airbyte.setTestingValues', (arg) => setTestingValues(services, arg)),
    reg('airbyte.importTestingValues', (arg) => importTestingValues(services, arg)),
    reg('airbyte.exportTestingValues', (arg) => exportTestingValues(services, arg)),
    reg('airbyte.clearTestingValues', (arg) => clearTestingValues(services, arg)),
    reg('airbyte.authorizeOAuth', (arg) => authorizeOAuth(services, arg)),
    reg('airbyte.writeInferredSchema', (arg) => writeInferredSchema(services, arg)),
    reg('airbyte.showOutput', () => services.log.channel.show(true)),
    reg('airbyte.saveReadAsCassette', async (arg) => {
      const file = await saveReadAsCassette(services, arg);
      if (file) cassetteLenses.refresh();
      return file;
    }),
    reg('airbyte.replayCassette', (arg) => replayCassette(services, arg)),
    reg('airbyte.compareWithPreviousRead', (arg) => compareWithPreviousRead(services, arg)),
    ...cassetteLenses.register(),
    reg('airbyte.newManifest', () => newManifest(services)),
    reg('airbyte.newConnectorFromOpenApi', (arg) => newConnectorFromOpenApi(services, arg)),
    ...registerCdkEngine(services),
    reg('airbyte.applyCdkMigrations', () => applyCdkMigrations()),
    ...registerIncrementalCommands(services),
    reg('airbyte.newStreamFromCurl', (arg) => newStreamFromCurl(services, arg)),
    reg('airbyte.newStreamFromHar', (arg) => newStreamFromHar(services, arg)),
    registerCopyAsCurl(services),
  ];
}

/** What activate() exports: a small API used by the end-to-end tests to observe what users would see. */
export type ExtensionApi = {
  /** The output channel's text so far. */
  outputText(): string;
  /** Everything sent to results and comparison views (what they can display). */
  resultsTranscript(): string;
  /** What a code lens's argument-free command id runs (lensCommands.ts), or undefined. */
  lensCommand(id: string): BoundCommand | undefined;
};

/** Builds the exported API. */
export function extensionApi(services: Services): ExtensionApi {
  return {
    outputText: () => services.log.text(),
    resultsTranscript: () => `${ResultsPanel.transcripts()}\n${ComparePanel.transcripts()}\n${ReadinessPanel.transcripts()}`,
    lensCommand: (id) => lensCommands.resolve(id),
  };
}

/** "Copy as cURL" in the results view; the disposable unhooks it. */
function registerCopyAsCurl(services: Services): vscode.Disposable {
  ResultsPanel.copyAsCurl = (manifest, stream, request, withSecrets) => {
    copyRequestAsCurl(services, manifest, stream, request, withSecrets).catch(
      (e: Error) => void vscode.window.showErrorMessage(`Airbyte: the request could not be copied: ${e.message}`),
    );
  };
  return new vscode.Disposable(() => {
    ResultsPanel.copyAsCurl = undefined;
  });
}

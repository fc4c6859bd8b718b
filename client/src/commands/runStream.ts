// "Run stream" and "Run with limits…": sends `airbyte/testRead` with the manifest's testing values,
// streams progress into the results view under a cancellable notification, and stores config
// write-backs (single-use refresh tokens) in SecretStorage the moment they arrive.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import {
  TestReadRequest,
  TestReadProgressNotification,
  ConfigUpdateNotification,
  ListStreamsRequest,
  ComponentLocationRequest,
  SchemaDifferencesRequest,
  openConfig,
  sealConfig,
  type TestReadParams,
  type TestReadResult,
  type TestReadProgressParams,
  type ConfigUpdateParams,
  type ListStreamsParams,
  type ComponentLocationParams,
  type ComponentLocationResult,
  type SchemaDifferencesParams,
  type SchemaDifferencesResult,
  type ShownLogMessage,
  type ShownStreamRead,
  type TestReadProgress,
  type CassetteReplayOption,
  type CdkFailureData,
  SelectPageNotification,
} from '../../../server/src/protocol';
import type { Services, StreamTarget } from '../services';
import { secretValues } from '../../../server/src/runtime/shared/secretFields';
import { compileSecrets, maskDeep, type CompiledSecrets } from '../../../server/src/runtime/shared/secretPatterns';
import { fetchSpec } from './testingValues';
import { readSettings } from '../settings';
import { COMPONENT_LABEL, failedComponent, readProgressText, readableStack } from '../streamReadView';
import { ResultsPanel } from '../views/resultsPanel';
import { askLimits } from '../views/limitsPanel';
import { resolveStreamTarget } from './pickTarget';
import { ensureReadable } from './readGuard';
import { testingValuesOrAsk } from './askTestingValues';
import { offerCdkInstall } from './cdkEngine';
import { announceStreamRead, type ReadOrigin } from '../incremental/readEvents';

/** The 0-based line where the stream is declared, so errors of the read can link to it; undefined when unknown. */
async function streamLine(services: Services, target: StreamTarget): Promise<number | undefined> {
  try {
    const params: ListStreamsParams = { uri: target.uri };
    const { streams } = await services.client.sendRequest(ListStreamsRequest, params);
    return streams.find((s) => s.name === target.streamName)?.range.start.line;
  } catch {
    return undefined;
  }
}

/** The StreamRead as the results view gets it: the written-back config holds secrets, so only its keys are shown. */
function forDisplay(streamRead: ShownStreamRead): ShownStreamRead {
  const update = streamRead.latest_config_update;
  if (!update || typeof update !== 'object') return streamRead;
  return { ...streamRead, latest_config_update: { stored_in_testing_values: Object.keys(update) } };
}

/**
 * A second line of defence for the views and the output channel: the runtime has masked everything
 * already, and the client masks the secret testing values (and rotated ones) again, in every encoding.
 */
class ViewMasker {
  private values: string[] = [];
  private compiled: CompiledSecrets = [];
  constructor(
    private readonly spec: Record<string, unknown> | null,
    private readonly credentialPaths: string[][] = [],
  ) {}
  add(config: Record<string, unknown>): void {
    if (this.spec) this.values.push(...secretValues(this.spec, config).map(String));
    // Values an authenticator or a requester uses as credentials, marked airbyte_secret or not.
    for (const path of this.credentialPaths) this.values.push(...leavesAt(config, path));
    this.compiled = compileSecrets(this.values);
  }
  mask<T>(value: T): T {
    return maskDeep(value, this.compiled);
  }
}

/** The string and number leaves of the config value at `path`. */
function leavesAt(config: unknown, path: string[]): string[] {
  let node = config;
  for (const seg of path)
    node = node && typeof node === 'object' && Object.hasOwn(node, seg) ? (node as Record<string, unknown>)[seg] : undefined;
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string' || typeof v === 'number') out.push(String(v));
    else if (v && typeof v === 'object' && depth < 32) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(node, 0);
  return out;
}

export async function viewMasker(services: Services, uri: vscode.Uri, config: Record<string, unknown>): Promise<ViewMasker> {
  const spec = await fetchSpec(services, uri).catch(() => null);
  const masker = new ViewMasker(spec?.connectionSpecification ?? null, Array.isArray(spec?.credentialPaths) ? spec.credentialPaths : []);
  masker.add(config);
  return masker;
}

/**
 * ERROR log entries as the results view shows them: linked to the component that failed (located by the
 * server, references followed) or else to the stream's declaration, with a readable source-mapped stack.
 */
async function withErrorLocations(
  services: Services,
  target: StreamTarget,
  streamRead: TestReadResult,
  line: number | undefined,
): Promise<ShownStreamRead> {
  if (!Array.isArray(streamRead.logs)) return streamRead;
  const logs: ShownLogMessage[] = await Promise.all(
    streamRead.logs.map(async (l): Promise<ShownLogMessage> => {
      if (String(l.level).toUpperCase() !== 'ERROR') return l;
      const out: ShownLogMessage = { ...l };
      if (typeof l.stacktrace === 'string' && l.stacktrace) {
        const stack = readableStack(l.stacktrace);
        out.stacktrace = stack.mapped ? stack.text : null;
        out.stack_note = stack.mapped ? null : 'No stack frames could be mapped to the sources (the server was built without source maps).';
      }
      const kind = failedComponent({ message: l.message, stacktrace: l.stacktrace });
      const located = kind ? await locateComponent(services, target, kind) : null;
      if (kind && located) out.component = { kind, label: COMPONENT_LABEL[kind], type: located.type, range: located.range };
      else if (line !== undefined) out.line = line;
      return out;
    }),
  );
  return { ...streamRead, logs };
}

async function locateComponent(
  services: Services,
  target: StreamTarget,
  component: ComponentLocationParams['component'],
): Promise<ComponentLocationResult> {
  try {
    const params: ComponentLocationParams = { uri: target.uri, streamName: target.streamName, component };
    return await services.client.sendRequest(ComponentLocationRequest, params);
  } catch {
    return null;
  }
}

async function schemaDifferences(
  services: Services,
  target: StreamTarget,
  inferred: unknown,
): Promise<SchemaDifferencesResult | undefined> {
  if (!inferred || typeof inferred !== 'object') return undefined;
  try {
    const params: SchemaDifferencesParams = {
      uri: target.uri,
      streamName: target.streamName,
      inferred: inferred as Record<string, unknown>,
    };
    return await services.client.sendRequest(SchemaDifferencesRequest, params);
  } catch {
    return undefined;
  }
}

type Limits = NonNullable<TestReadParams['limits']>;
type RunListener = { onProgress(e: TestReadProgress): void; onConfigUpdate(p: ConfigUpdateParams): Promise<void> };

/** What the command returns: the StreamRead, or undefined when nothing ran (cancelled, no target). */
export type RunStreamOutcome = { streamRead: TestReadResult; configUpdated: boolean } | undefined;

const runs = new Map<string, RunListener>();

/** Routes the server's progress and config-update notifications to the run they belong to. */
export function registerRunNotifications(services: Services): vscode.Disposable[] {
  return [
    services.client.onNotification(TestReadProgressNotification, (p: TestReadProgressParams) => runs.get(p.runId)?.onProgress(p.event)),
    services.client.onNotification(ConfigUpdateNotification, (p: ConfigUpdateParams) => {
      const run = runs.get(p.runId);
      // A write-back for a run we no longer track is still stored: losing a rotated token breaks the connection.
      return run ? run.onConfigUpdate(p) : storeConfigUpdate(services, vscode.Uri.parse(p.uri), openConfig(p.config, services.sealKey));
    }),
  ];
}

async function storeConfigUpdate(services: Services, uri: vscode.Uri, config: Record<string, unknown>): Promise<void> {
  await services.store.merge(uri, config);
  const keys = Object.keys(config).join(', ');
  services.log.info(`testing values of ${vscode.workspace.asRelativePath(uri)} updated by the connector (keys: ${keys})`);
  void vscode.window.showInformationMessage(
    `The connector returned new credentials (for example a rotated refresh token); they were saved to the testing values of ${vscode.workspace.asRelativePath(uri)}.`,
  );
}

/** Runs a test read of one stream; `askForLimits` shows the limit prompts first. */
export async function runStream(services: Services, arg: unknown, askForLimits: boolean): Promise<RunStreamOutcome> {
  const target = await resolveStreamTarget(services, arg);
  if (!target) return undefined;
  if (!(await ensureReadable(services, target.uri, target.streamName, `Run stream '${target.streamName}'`))) return undefined;
  const settings = readSettings();
  const explicit = (arg as { limits?: Limits } | undefined)?.limits;
  const limits = askForLimits
    ? await askLimits(services.context.extensionUri, `${target.uri}#${target.streamName}`, target.streamName, {
        ...settings.limits,
        ...explicit,
      } as Required<Limits>)
    : { ...settings.limits, ...explicit };
  if (!limits) return undefined;
  const values = await testingValuesOrAsk(services, vscode.Uri.parse(target.uri), 'Run Anyway');
  if (!values) return undefined;
  return execute(services, target, values, limits, settings);
}

/**
 * Runs a test read into the results view. A read from the API is recorded (the server keeps its masked
 * cassette for "Save Read as Cassette"); with `replay` it is read offline from that cassette, the
 * testing values stay here (they only mask what the view shows) and the view says it was replayed.
 */
export async function execute(
  services: Services,
  target: StreamTarget,
  config: Record<string, unknown>,
  limits: Limits,
  settings: ReturnType<typeof readSettings>,
  replay?: CassetteReplayOption & { name: string },
  run?: { state?: object[]; origin?: ReadOrigin },
): Promise<RunStreamOutcome> {
  const uri = vscode.Uri.parse(target.uri);
  const panel = ResultsPanel.show(services.context.extensionUri, uri, target.streamName, {
    rerun: () =>
      void vscode.commands.executeCommand(
        replay ? 'airbyte.replayCassette' : 'airbyte.runStream',
        replay ? { ...target, cassette: replay.cassetteUri, allowLinkOutside: replay.allowLinkOutside === true } : target,
      ),
    runWithLimits: () => void vscode.commands.executeCommand('airbyte.runStreamWithLimits', target),
    writeSchema: (schema) => void vscode.commands.executeCommand('airbyte.writeInferredSchema', { ...target, schema }),
    saveCassette: () => void vscode.commands.executeCommand('airbyte.saveReadAsCassette', target),
    compare: () => void vscode.commands.executeCommand('airbyte.compareWithPreviousRead', target),
    runFromState: () => void vscode.commands.executeCommand('airbyte.editInputState', target),
    continueFromState: () => void vscode.commands.executeCommand('airbyte.continueFromFinalState', target),
    selectPage: (slice, page) =>
      void services.client.sendNotification(SelectPageNotification, { uri: target.uri, streamName: target.streamName, slice, page }),
  });
  panel.start(target.streamName, limits, replay?.name);
  const line = await streamLine(services, target);
  const masker = await viewMasker(services, uri, config);
  const runId = randomUUID();
  let configUpdated = false;
  let writes = Promise.resolve();
  let pages = 0;
  let records = 0;
  // Sealed: the language client's protocol trace must not show testing values (protocol.ts).
  const params: TestReadParams = {
    uri: target.uri,
    streamName: target.streamName,
    config: sealConfig(replay ? {} : config, services.sealKey),
    limits,
    runId,
    http: { timeoutMs: settings.requestTimeoutSeconds * 1000, maxResponseBytes: settings.maxResponseBytes },
    ...(replay
      ? { replay: { cassetteUri: replay.cassetteUri, name: replay.name, ...(replay.allowLinkOutside ? { allowLinkOutside: true } : {}) } }
      : { record: true }),
    ...(run?.state ? { state: run.state } : {}),
  };
  const what = replay ? `replay of stream '${target.streamName}' from ${replay.name}` : `test read of stream '${target.streamName}'`;
  services.log.info(
    `${what} in ${vscode.workspace.asRelativePath(uri)} (max ${limits.maxRecords} records, ${limits.maxPagesPerSlice} pages/slice, ${limits.maxSlices} slices)`,
  );
  const started = Date.now();
  try {
    const streamRead = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: replay ? `Replaying stream '${target.streamName}' from ${replay.name}` : `Reading stream '${target.streamName}'`,
        cancellable: true,
      },
      async (progress, token) => {
        runs.set(runId, {
          onProgress: (e) => {
            panel.progress(masker.mask(e));
            // The toast and the view count the same page events with the same words.
            if (e.type === 'page') {
              pages += 1;
              records = Number(e.totalRecords ?? records);
              progress.report({ message: readProgressText(pages, records) });
            }
          },
          onConfigUpdate: (p) => {
            configUpdated = true;
            const update = openConfig(p.config, services.sealKey);
            masker.add(update);
            writes = writes.then(() => storeConfigUpdate(services, uri, update));
            return writes;
          },
        });
        return services.client.sendRequest(TestReadRequest, params, token);
      },
    );
    await writes;
    // The StreamRead's latest_config_update is masked (`****`): it is never stored. Only the
    // config-update notifications carry the real values; say so when none arrived.
    const latest = streamRead.latest_config_update;
    if (!configUpdated && latest && typeof latest === 'object') {
      services.log.warn(
        `the connector updated its config during the read of '${target.streamName}' but the new values did not reach the extension; the stored testing values were not changed`,
      );
      void vscode.window.showWarningMessage(
        `The connector returned new credentials during the read of '${target.streamName}', but they did not arrive intact, so the testing values were not changed. If the API rotates refresh tokens, authorize again.`,
      );
    }
    panel.result(masker.mask(forDisplay(await withErrorLocations(services, target, streamRead, line))));
    const differences = await schemaDifferences(services, target, streamRead.inferred_schema);
    if (differences) panel.schemaDifferences(masker.mask(differences));
    services.log.info(`${what} finished in ${Date.now() - started} ms`);
    if (replay) reportReplayErrors(services, target, replay.name, masker.mask(streamRead));
    // The incremental lab keeps the chain of reads and the last partitions (incremental/readEvents.ts).
    announceStreamRead(target, masker.mask(streamRead), run?.origin);
    return { streamRead, configUpdated };
  } catch (e) {
    await writes;
    const cancelled = e instanceof ResponseError && (e.code === -32800 || /cancel/i.test(e.message));
    const message = cancelled ? 'The test read was cancelled.' : masker.mask((e as Error).message);
    // A failure of the CDK engine carries what to install and the components.py places of its traceback.
    const cdk = !cancelled && e instanceof ResponseError ? (e.data as Partial<CdkFailureData> | undefined)?.cdk : undefined;
    panel.failed(
      cdk
        ? {
            message,
            line,
            stacktrace: cdk.stacktrace ? masker.mask(cdk.stacktrace) : null,
            files: cdk.links,
            installCommand: cdk.installCommand,
          }
        : { message, line },
    );
    services.log.warn(`test read of '${target.streamName}' ${cancelled ? 'cancelled' : `failed: ${message}`}`);
    if (cdk?.installCommand) {
      void offerCdkInstall(services, message, cdk.installCommand);
    } else if (!cancelled) {
      void vscode.window
        .showErrorMessage(`Test read of '${target.streamName}' failed: ${message}`, 'Show Output')
        .then((c) => c && services.log.channel.show());
    }
    return undefined;
  } finally {
    runs.delete(runId);
  }
}

/** A replay that failed (a request the cassette does not hold) says so at once, naming the request. */
function reportReplayErrors(services: Services, target: StreamTarget, name: string, streamRead: TestReadResult): void {
  const error = streamRead.logs.find((l) => String(l.level).toUpperCase() === 'ERROR');
  if (!error) return;
  services.log.warn(`replay of '${target.streamName}' from ${name} failed: ${error.message}`);
  void vscode.window
    .showErrorMessage(`Replay of '${target.streamName}' from ${name} failed: ${error.message}`, 'Show Output')
    .then((c) => c && services.log.channel.show());
}

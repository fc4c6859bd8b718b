// The incremental lab's and "Run all streams"' commands (docs/incremental.md): Input state… (the form),
// Run from state, Continue from final state, Incremental check, Run all streams. Reads go through Run
// stream's `execute` (results view, progress, config write-backs); every finished read is announced here
// so the chain and the form know it.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import {
  IncrementalCheckRequest,
  RunAllStreamsProgressNotification,
  RunAllStreamsRequest,
  StreamCursorRequest,
  TemplateHintsSettingNotification,
  sealConfig,
  type IncrementalCheckParams,
  type IncrementalCheckResult,
  type RunAllStreamsParams,
  type RunAllStreamsProgressParams,
  type RunAllStreamsResult,
  type ShownStreamRead,
  type StreamCursorParams,
  type StreamCursorResult,
} from '../../../server/src/protocol';
import type { Services, StreamTarget } from '../services';
import { readSettings } from '../settings';
import { execute, viewMasker } from '../commands/runStream';
import { testingValuesOrAsk } from '../commands/askTestingValues';
import { manifestUriFrom, resolveStreamTarget } from '../commands/pickTarget';
import { ResultsPanel } from '../views/resultsPanel';
import { InputStates, finalStateOf, type ChainRead } from './inputStates';
import { StatePanel } from './statePanel';
import { ReadinessPanel } from './readinessPanel';
import { setStreamReadListener, type ReadOrigin } from './readEvents';

type Obj = Record<string, unknown>;

const CHECK_SCHEME = 'airbyte-incremental-check';

/** Registers the commands; returns their disposables. */
export function registerIncrementalCommands(services: Services): vscode.Disposable[] {
  const states = new InputStates(services.context.workspaceState);
  const reports = new Map<string, string>();
  const reportChanged = new vscode.EventEmitter<vscode.Uri>();
  const allRuns = new Map<string, (p: RunAllStreamsProgressParams) => void>();
  const cursors = async (target: StreamTarget, config: Obj): Promise<StreamCursorResult> => {
    const params: StreamCursorParams = { uri: target.uri, streamName: target.streamName, config: sealConfig(config, services.sealKey) };
    return services.client
      .sendRequest(StreamCursorRequest, params)
      .catch((e: Error) => ({ cursor: null, primaryKey: [], error: e.message }));
  };

  // Every finished read of a stream: its last read (partitions for the form) and, for reads from a state,
  // the chain. The primary key comes from the server's description of the stream.
  const listener = setStreamReadListener(async (target, read, origin) => {
    const values = (await services.store.get(vscode.Uri.parse(target.uri))) ?? {};
    const described = await cursors(target, values);
    states.recordRead(target.uri, target.streamName, read, origin.from, origin.inputState, described.primaryKey);
  });

  const runFrom = async (target: StreamTarget, state: Obj | null, from: ChainRead['from']): Promise<unknown> => {
    const values = await testingValuesOrAsk(services, vscode.Uri.parse(target.uri), 'Run Anyway');
    if (!values) return undefined;
    const settings = readSettings();
    const origin: ReadOrigin = { from, inputState: state };
    const message = state
      ? [{ type: 'STREAM', stream: { stream_descriptor: { name: target.streamName }, stream_state: state } }]
      : undefined;
    return execute(services, target, values, settings.limits, settings, undefined, { ...(message ? { state: message } : {}), origin });
  };

  const openForm = async (target: StreamTarget): Promise<void> => {
    const values = (await services.store.get(vscode.Uri.parse(target.uri))) ?? {};
    const described = await cursors(target, values);
    StatePanel.show(services.context.extensionUri, target.uri, target.streamName, states, described, {
      run: (state) => void runFrom(target, state, 'input'),
      continueRead: () => void vscode.commands.executeCommand('airbyte.continueFromFinalState', target),
      check: (state) => void vscode.commands.executeCommand('airbyte.incrementalCheck', { ...target, initialState: state }),
    });
  };

  const runAll = async (arg: unknown): Promise<RunAllStreamsResult | undefined> => {
    const uri = manifestUriFrom(arg);
    if (!uri) {
      void vscode.window.showWarningMessage('Open a connector manifest first.');
      return undefined;
    }
    const values = await testingValuesOrAsk(services, uri, 'Run Anyway');
    if (!values) return undefined;
    const settings = readSettings();
    const concurrency = Math.max(
      1,
      Math.min(16, Math.floor(vscode.workspace.getConfiguration('airbyte').get<number>('runAllStreams.concurrency', 2) || 2)),
    );
    const masker = await viewMasker(services, uri, values);
    let reads: Record<string, ShownStreamRead> = {};
    const panel = ReadinessPanel.show(services.context.extensionUri, uri, {
      open: (stream) => {
        const read = reads[stream];
        if (!read) return;
        const target = { uri: uri.toString(), streamName: stream };
        const results = ResultsPanel.show(services.context.extensionUri, uri, stream, {
          rerun: () => void vscode.commands.executeCommand('airbyte.runStream', target),
          runWithLimits: () => void vscode.commands.executeCommand('airbyte.runStreamWithLimits', target),
          writeSchema: (schema) => void vscode.commands.executeCommand('airbyte.writeInferredSchema', { ...target, schema }),
        });
        results.start(stream, settings.limits);
        results.result(read);
      },
      rerun: () => void vscode.commands.executeCommand('airbyte.runAllStreams', { uri: uri.toString() }),
    });
    panel.post({ type: 'start', manifest: vscode.workspace.asRelativePath(uri), concurrency });
    const runId = randomUUID();
    const params: RunAllStreamsParams = {
      uri: uri.toString(),
      config: sealConfig(values, services.sealKey),
      limits: settings.limits,
      concurrency,
      runId,
      http: { timeoutMs: settings.requestTimeoutSeconds * 1000, maxResponseBytes: settings.maxResponseBytes },
    };
    services.log.info(`run of all streams of ${vscode.workspace.asRelativePath(uri)} (${concurrency} at a time)`);
    try {
      const out = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Reading all streams of ${vscode.workspace.asRelativePath(uri)}`,
          cancellable: true,
        },
        async (progress, token) => {
          allRuns.set(runId, (p) => {
            panel.post({ type: 'progress', event: masker.mask(p.event) });
            if (p.event.type === 'finished')
              progress.report({ message: `${p.event.done} of ${p.event.total} streams`, increment: 100 / Math.max(1, p.event.total) });
          });
          return services.client.sendRequest(RunAllStreamsRequest, params, token);
        },
      );
      reads = masker.mask(out.reads) as Record<string, ShownStreamRead>;
      panel.post({ type: 'done', result: masker.mask(out.result) });
      const failed = out.result.streams.filter((s) => s.status === 'failed').length;
      services.log.info(`all streams read: ${out.result.streams.length} streams, ${failed} failed, ${out.result.time_ms} ms`);
      return out;
    } catch (e) {
      const cancelled = e instanceof ResponseError && (e.code === -32800 || /cancel/i.test(e.message));
      panel.post({ type: 'failed', message: cancelled ? 'The run was cancelled.' : masker.mask((e as Error).message) });
      return undefined;
    } finally {
      allRuns.delete(runId);
    }
  };

  const check = async (arg: unknown): Promise<IncrementalCheckResult | undefined> => {
    const target = await resolveStreamTarget(services, arg);
    if (!target) return undefined;
    const uri = vscode.Uri.parse(target.uri);
    const values = await testingValuesOrAsk(services, uri, 'Run Anyway');
    if (!values) return undefined;
    const settings = readSettings();
    const masker = await viewMasker(services, uri, values);
    const given = (arg as { initialState?: Obj | null } | undefined)?.initialState;
    const params: IncrementalCheckParams = {
      uri: target.uri,
      streamName: target.streamName,
      config: sealConfig(values, services.sealKey),
      limits: settings.limits,
      runId: randomUUID(),
      initialState: given ?? null,
      http: { timeoutMs: settings.requestTimeoutSeconds * 1000, maxResponseBytes: settings.maxResponseBytes },
    };
    try {
      const result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Incremental check of '${target.streamName}' (three reads)`,
          cancellable: true,
        },
        (_p, token) => services.client.sendRequest(IncrementalCheckRequest, params, token),
      );
      const text = masker.mask(result.text);
      const doc = vscode.Uri.from({ scheme: CHECK_SCHEME, path: `/${target.streamName}.incremental-check.txt`, query: target.uri });
      reports.set(doc.toString(), `${text}\n`);
      reportChanged.fire(doc);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
      services.log.info(
        `incremental check of '${target.streamName}': ${result.report.holds ? 'holds' : result.report.incremental ? `${result.report.violations.length} violations` : 'not incremental'}`,
      );
      if (!result.report.incremental)
        void vscode.window.showInformationMessage(`Stream '${target.streamName}' is not incremental (no incremental_sync).`);
      else if (result.report.holds)
        void vscode.window.showInformationMessage(
          `Incremental sync of '${target.streamName}' holds: three reads, each from the last's final state.`,
        );
      else
        void vscode.window.showWarningMessage(
          `Incremental sync of '${target.streamName}' is broken: ${result.report.violations.map((v) => v.rule).join(', ')}.`,
        );
      return { ...result, text };
    } catch (e) {
      void vscode.window.showErrorMessage(`Incremental check of '${target.streamName}' failed: ${masker.mask((e as Error).message)}`);
      return undefined;
    }
  };

  // Inlay hints of template values (on by default; they appear once a stream was read).
  const hintSetting = () =>
    void services.client.sendNotification(TemplateHintsSettingNotification, {
      enabled: vscode.workspace.getConfiguration('airbyte').get<boolean>('inlayHints.templateValues', true) !== false,
    });
  hintSetting();

  return [
    listener,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('airbyte.inlayHints.templateValues')) hintSetting();
    }),
    reportChanged,
    vscode.workspace.registerTextDocumentContentProvider(CHECK_SCHEME, {
      onDidChange: reportChanged.event,
      provideTextDocumentContent: (u) => reports.get(u.toString()) ?? '',
    }),
    services.client.onNotification(RunAllStreamsProgressNotification, (p: RunAllStreamsProgressParams) => allRuns.get(p.runId)?.(p)),
    vscode.commands.registerCommand('airbyte.editInputState', async (arg: unknown) => {
      const target = await resolveStreamTarget(services, arg);
      if (target) await openForm(target);
    }),
    vscode.commands.registerCommand('airbyte.runFromState', async (arg: unknown) => {
      const target = await resolveStreamTarget(services, arg);
      if (!target) return undefined;
      const given = (arg as { state?: Obj | null } | undefined)?.state;
      const saved = given !== undefined ? given : states.get(target.uri, target.streamName);
      // No state saved yet: the form comes first, so the user says where to start.
      if (saved === undefined) return openForm(target);
      if (given !== undefined) await states.set(target.uri, target.streamName, given);
      return runFrom(target, saved, 'input');
    }),
    vscode.commands.registerCommand('airbyte.continueFromFinalState', async (arg: unknown) => {
      const target = await resolveStreamTarget(services, arg);
      if (!target) return undefined;
      const chain = states.chain(target.uri, target.streamName);
      const last = states.lastRead(target.uri, target.streamName);
      const from = chain.length ? chain[chain.length - 1].finalState : last ? finalStateOf(last) : null;
      if (!from || from.__ab_no_cursor_state_message === true) {
        void vscode.window.showInformationMessage(
          from
            ? `Stream '${target.streamName}' is not incremental: its reads end with no cursor state to continue from.`
            : `Run stream '${target.streamName}' first: Continue starts from the state its last read ended with.`,
        );
        return undefined;
      }
      return runFrom(target, from, 'previous');
    }),
    vscode.commands.registerCommand('airbyte.incrementalCheck', check),
    vscode.commands.registerCommand('airbyte.runAllStreams', runAll),
  ];
}

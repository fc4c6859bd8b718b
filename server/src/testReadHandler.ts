// Serves `airbyte/testRead`: loads the manifest (open document or file on disk), runs the runtime's
// testRead with the config the client sent, streams progress, forwards config write-backs at once and
// maps LSP cancellation to an AbortSignal. The config is used for this run only and never stored.
import { ResponseError, ErrorCodes, LSPErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import {
  isSealed,
  sealConfig,
  type TestReadParams,
  type TestReadResult,
  type TestReadProgressParams,
  type ConfigUpdateParams,
  type TestReadProgress,
} from './protocol';
import { sealKey } from './sealKey';
import { runReadWithCassettes } from './cassetteReadHandler';
import { ReadHistory } from './readHistory';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';
import type { ExternalEngineRunner } from './cassetteReadHandler';
import type { CdkEngineService } from './cdkEngine/cdkEngineService';
import { cdkFailure, cdkRunner, cdkStatusFor, engineFor, unavailableError } from './cdkReadHandler';
import { boundHttp, boundLimits, budgetedFetch, timeBudget, type BudgetStop } from './readBounds';

/** Where a running test read sends its notifications (the language server forwards them to the client). */
export type TestReadNotifier = {
  progress(p: TestReadProgressParams): void;
  configUpdate(p: ConfigUpdateParams): void;
};

/** Runs one test read for the client. */
export async function handleTestRead(
  params: TestReadParams,
  token: CancellationToken,
  lookup: OpenManifestLookup,
  notify: TestReadNotifier,
  history: ReadHistory = new ReadHistory(),
  cdk?: CdkEngineService,
): Promise<TestReadResult> {
  const manifest = await loadManifestValue(params.uri, lookup);
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping; fix the YAML errors first.');
  }
  const controller = new AbortController();
  const cancelSub = token.onCancellationRequested(() => controller.abort());
  // Hard bounds (readBounds.ts): the limits and transport bounds the settings give are lowered to
  // them, and the read stops when it passes its budget of bytes or time.
  params = { ...params, limits: boundLimits(params.limits) };
  const http = boundHttp(params.http);
  let stopped: BudgetStop | null = null;
  const stop = (why: BudgetStop) => {
    stopped ??= why;
    controller.abort();
  };
  // The runtime may update the config in place as well; it is a private copy of what the client sent.
  const config = structuredClone(openConfigParam(params.config));
  const sealed = isSealed(params.config);
  const env = {
    signal: controller.signal,
    // The results view shows each page's pagination trace.
    paginationTrace: true,
    ...(Array.isArray(params.state) ? { state: params.state } : {}),
    // The runtime's own transport, bounded by the user's settings and cancelled with the run.
    fetch: budgetedFetch(
      runtime.createHttpFetch({ timeoutMs: http.timeoutMs, maxResponseBytes: http.maxResponseBytes, signal: controller.signal }),
      stop,
    ),
    onProgress: (event: object) => {
      // The runtime's progress events are TestReadProgress values (runtime/testRead/streamRead.ts).
      notify.progress({ runId: params.runId, event: event as TestReadProgress });
    },
    onConfigUpdate: (updated: object) => {
      // Single-use refresh tokens: the client must store the new config before anything else can fail.
      // Sealed back when the client sealed its config: the trace must not show the new token either.
      const update = updated as Record<string, unknown>;
      notify.configUpdate({ runId: params.runId, uri: params.uri, config: sealed && sealKey ? sealConfig(update, sealKey) : update });
    },
  };
  const cancelTimer = timeBudget(stop);
  try {
    // A stream with custom components runs on the Airbyte CDK engine (cdkReadHandler.ts, docs/engines.md).
    let engine: ExternalEngineRunner | undefined;
    if (cdk && engineFor(manifest, params.streamName, params.engine) === 'cdk') {
      const status = await cdkStatusFor(cdk, manifest, params.python);
      if (!status.ok) throw unavailableError(status);
      engine = cdkRunner(params.uri, status, { timeoutMs: params.http?.timeoutMs, maxResponseBytes: params.http?.maxResponseBytes });
    }
    // Recorded, replayed from a cassette or plain, and kept for the cassette commands (cassetteReadHandler.ts).
    const result: TestReadResult = await runReadWithCassettes(manifest, config, params, env, history, engine);
    // A read stopped by its budget keeps what it read, with the reason as its last ERROR.
    if (stopped) return withBudgetError(result, stopped);
    // The runtime reports an aborted exchange as an error of the read; to the client it is a cancellation.
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The test read was cancelled.');
    return result;
  } catch (e) {
    if (e instanceof ResponseError) throw e;
    if (stopped) throw new ResponseError(ErrorCodes.InternalError, (stopped as BudgetStop).message, { failureType: 'system_error' });
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The test read was cancelled.');
    const cdkError = cdkFailure(e);
    if (cdkError) throw cdkError;
    const err = e as Error & { failureType?: string };
    throw new ResponseError(ErrorCodes.InternalError, err.message || String(e), { failureType: err.failureType ?? 'system_error' });
  } finally {
    cancelTimer();
    cancelSub.dispose();
  }
}

function withBudgetError(read: TestReadResult, why: BudgetStop): TestReadResult {
  return {
    ...read,
    logs: [...(read.logs ?? []), { message: why.message, level: 'ERROR', internal_message: why.message, stacktrace: null }],
  };
}

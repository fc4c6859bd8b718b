// Serves the incremental lab's requests and "Run all streams" (incrementalProtocol.ts): a stream's cursor
// description for the input-state form, the incremental check, and a run of every stream with progress.
// The config the client sent is used for the request only; LSP cancellation aborts the reads.
import { ResponseError, ErrorCodes, LSPErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import { describeIncrementalStream, findStreamDefinition } from './runtime';
import { incrementalCheck } from './runtime';
import { formatCheckReport } from './runtime';
import { runAllStreams } from './runtime';
import type { StreamRead } from './runtime';
import { isSealed, sealConfig, type ConfigUpdateParams } from './protocol';
import type {
  IncrementalCheckParams,
  IncrementalCheckResult,
  RunAllStreamsParams,
  RunAllStreamsProgressParams,
  RunAllStreamsResult,
  StreamCursorParams,
  StreamCursorResult,
} from './incrementalProtocol';
import { sealKey } from './sealKey';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';

type Obj = Record<string, unknown>;

async function manifestOf(uri: string, lookup: OpenManifestLookup): Promise<Obj> {
  const manifest = await loadManifestValue(uri, lookup);
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping; fix the YAML errors first.');
  }
  return manifest as Obj;
}

function primaryKeyPaths(pk: unknown): string[][] {
  if (typeof pk === 'string') return [[pk]];
  if (!Array.isArray(pk)) return [];
  return pk.map((k) => (Array.isArray(k) ? k.map(String) : [String(k)]));
}

/** The cursor description of a stream; failures are answered in `error`, never thrown. */
export async function handleStreamCursor(params: StreamCursorParams, lookup: OpenManifestLookup): Promise<StreamCursorResult> {
  try {
    const manifest = await manifestOf(params.uri, lookup);
    const config = structuredClone(openConfigParam(params.config));
    const found = await findStreamDefinition(manifest, config, params.streamName, {});
    if (!found) return { cursor: null, primaryKey: [], error: `Stream '${params.streamName}' is not defined in the manifest.` };
    const { parse: _p, lowerBound: _l, show: _s, ...cursor } = describeIncrementalStream(found.root, found.stream, config);
    return { cursor, primaryKey: primaryKeyPaths(found.stream.primary_key), error: null };
  } catch (e) {
    return { cursor: null, primaryKey: [], error: (e as Error).message };
  }
}

/** What the handlers send while running: config write-backs and all-streams progress. */
export type IncrementalNotifier = {
  configUpdate(p: ConfigUpdateParams): void;
  allStreamsProgress?(p: RunAllStreamsProgressParams): void;
};

/** The env of a run: the user's transport bounds, cancellation, and config write-backs sent to the client at once. */
function runEnv(
  params: { uri: string; runId: string; config: unknown; http?: { timeoutMs?: number; maxResponseBytes?: number } },
  signal: AbortSignal,
  notify: IncrementalNotifier,
) {
  const sealed = isSealed(params.config as never);
  return {
    signal,
    fetch: runtime.createHttpFetch({ timeoutMs: params.http?.timeoutMs, maxResponseBytes: params.http?.maxResponseBytes, signal }),
    onConfigUpdate: (updated: object) => {
      const update = updated as Obj;
      notify.configUpdate({ runId: params.runId, uri: params.uri, config: sealed && sealKey ? sealConfig(update, sealKey) : update });
    },
  };
}

async function cancellable<T>(token: CancellationToken, what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  try {
    const out = await run(controller.signal);
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, `${what} was cancelled.`);
    return out;
  } catch (e) {
    if (e instanceof ResponseError) throw e;
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, `${what} was cancelled.`);
    const err = e as Error & { failureType?: string };
    throw new ResponseError(ErrorCodes.InternalError, err.message || String(e), { failureType: err.failureType ?? 'system_error' });
  } finally {
    sub.dispose();
  }
}

/** Runs the incremental check for the client. */
export async function handleIncrementalCheck(
  params: IncrementalCheckParams,
  token: CancellationToken,
  lookup: OpenManifestLookup,
  notify: IncrementalNotifier,
): Promise<IncrementalCheckResult> {
  const manifest = await manifestOf(params.uri, lookup);
  const config = structuredClone(openConfigParam(params.config));
  return cancellable(token, 'The incremental check', async (signal) => {
    const report = await incrementalCheck(
      manifest,
      config,
      params.streamName,
      { limits: params.limits ?? {}, initialState: params.initialState ?? null },
      runEnv(params, signal, notify),
    );
    return { report, text: formatCheckReport(report) };
  });
}

/** Runs every stream for the client, reporting each stream as it starts and ends. */
export async function handleRunAllStreams(
  params: RunAllStreamsParams,
  token: CancellationToken,
  lookup: OpenManifestLookup,
  notify: IncrementalNotifier,
  onRead?: (stream: string, read: StreamRead) => void,
): Promise<RunAllStreamsResult> {
  const manifest = await manifestOf(params.uri, lookup);
  const config = structuredClone(openConfigParam(params.config));
  return cancellable(token, 'Running all streams', async (signal) => {
    const reads: Record<string, StreamRead> = Object.create(null);
    const result = await runAllStreams(
      manifest,
      config,
      {
        limits: params.limits ?? {},
        ...(params.concurrency ? { concurrency: params.concurrency } : {}),
        onEvent: (event) => notify.allStreamsProgress?.({ runId: params.runId, event }),
        onRead: (stream, read) => {
          reads[stream] = read;
          onRead?.(stream, read);
        },
      },
      { ...runEnv(params, signal, notify), paginationTrace: true },
    );
    return { result, reads: { ...reads } };
  });
}

// Serves `airbyte/resolveStreams`: the streams of a manifest for the testing values the client sent,
// dynamic streams resolved by the runtime (reading the API for an HttpComponentsResolver). The config
// is used for this request only; LSP cancellation aborts the resolver's requests.
import { ResponseError, ErrorCodes, LSPErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import type { ResolveStreamsParams, ResolveStreamsResult } from './protocol';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';
import { boundHttp } from './readBounds';

/** Lists the streams for the client; failures become ResponseErrors carrying the runtime's failureType. */
export async function handleResolveStreams(
  params: ResolveStreamsParams,
  token: CancellationToken,
  lookup: OpenManifestLookup,
): Promise<ResolveStreamsResult> {
  const manifest = await loadManifestValue(params.uri, lookup);
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping; fix the YAML errors first.');
  }
  const config = structuredClone(openConfigParam(params.config));
  const controller = new AbortController();
  const cancelSub = token.onCancellationRequested(() => controller.abort());
  try {
    // The same hard transport bounds as a test read's (readBounds.ts): settings cannot lift them.
    const http = boundHttp(params.http);
    const fetch = runtime.createHttpFetch({
      timeoutMs: http.timeoutMs,
      maxResponseBytes: http.maxResponseBytes,
      signal: controller.signal,
    });
    const streams = await runtime.listStreams(manifest, config, {}, { fetch, signal: controller.signal });
    return { streams };
  } catch (e) {
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'Resolving the streams was cancelled.');
    const err = e as Error & { failureType?: string };
    throw new ResponseError(ErrorCodes.InternalError, err.message || String(e), { failureType: err.failureType ?? 'system_error' });
  } finally {
    cancelSub.dispose();
  }
}

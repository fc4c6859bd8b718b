// Serves `airbyte/checkConnection`: the manifest's `check` run by the runtime with the testing values
// the client sent (used for this request only); LSP cancellation aborts its requests.
import { ResponseError, ErrorCodes, LSPErrorCodes, type CancellationToken } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import type { CheckConnectionParams, CheckConnectionResult } from './protocol';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';

/** Runs the check; a check that ends in an error (rather than a status) answers status null with its message. */
export async function handleCheckConnection(
  params: CheckConnectionParams,
  token: CancellationToken,
  lookup: OpenManifestLookup,
): Promise<CheckConnectionResult> {
  const manifest = await loadManifestValue(params.uri, lookup);
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping; fix the YAML errors first.');
  }
  const config = structuredClone(openConfigParam(params.config));
  const controller = new AbortController();
  const cancelSub = token.onCancellationRequested(() => controller.abort());
  try {
    const fetch = runtime.createHttpFetch({
      timeoutMs: params.http?.timeoutMs,
      maxResponseBytes: params.http?.maxResponseBytes,
      signal: controller.signal,
    });
    const status = await runtime.check(manifest, config, { fetch, signal: controller.signal });
    return { status: status.status, message: status.message, logs: status.logs };
  } catch (e) {
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The check was cancelled.');
    return { status: null, message: (e as Error).message || String(e), logs: [] };
  } finally {
    cancelSub.dispose();
  }
}

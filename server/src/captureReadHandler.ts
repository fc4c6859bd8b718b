// Feeds the captured reads (captured/capturedReads.ts): after each `airbyte/testRead` (a cassette
// replay runs through the same request) and on `airbyte/captureRead`. The config of the read is
// opened only to keep a copy with every secret of the manifest masked (spec secrets and credentials); the plain config is
// never kept.
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import type { CaptureReadParams, CaptureReadResult, ConfigPayload, StreamRead } from './protocol';
import type { CapturedReads } from './captured/capturedReads';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';

/** The resolved manifest (its spec and credential fields say which config values are secret), or undefined. */
async function resolvedOf(uri: string, lookup: OpenManifestLookup): Promise<unknown> {
  const manifest = await loadManifestValue(uri, lookup);
  const resolved = runtime.resolveManifest(manifest).value as Record<string, unknown> | null;
  return resolved && typeof resolved === 'object' ? resolved : undefined;
}

/** Keeps a read of `streamName` (already masked by the runtime) with its config masked. */
export async function captureRead(
  store: CapturedReads,
  uri: string,
  streamName: string,
  read: StreamRead,
  config: ConfigPayload | undefined,
  lookup: OpenManifestLookup,
): Promise<CaptureReadResult> {
  const plain = config === undefined ? null : openConfigParam(config);
  const manifest = plain ? await resolvedOf(uri, lookup) : undefined;
  const kept = store.capture(uri, streamName, read, plain ? { value: plain, manifest } : null);
  return { pages: kept.pages.length, droppedPages: kept.droppedPages };
}

/** Serves `airbyte/captureRead`: checks the shape, then keeps the read. */
export async function handleCaptureRead(
  store: CapturedReads,
  params: CaptureReadParams,
  lookup: OpenManifestLookup,
): Promise<CaptureReadResult> {
  if (typeof params?.uri !== 'string' || typeof params.streamName !== 'string' || !params.streamName) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'airbyte/captureRead needs `uri` and `streamName`.');
  }
  if (!params.read || typeof params.read !== 'object' || !Array.isArray(params.read.slices)) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'airbyte/captureRead: `read` must be a StreamRead (an object with `slices`).');
  }
  return captureRead(store, params.uri, params.streamName, params.read, params.config, lookup);
}

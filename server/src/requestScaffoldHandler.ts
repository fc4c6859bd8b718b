// Serves "New stream from cURL / HAR" (`airbyte/streamsFromRequests`, `airbyte/harEntries`) and
// "Copy request as cURL (with secrets)" (`airbyte/unmaskRequest`) over the runtime's scaffold/curl.
// Sealed payloads are opened here and never logged or kept.
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { spanToRange } from './convert';
import * as runtime from './runtime';
import { applyOffsetEdits, parseCurlCommand, readHarEntries, scaffoldStreams, unmaskRequest, type RequestSketch } from './runtime';
import { openConfig, sealConfig } from './protocol';
import { sealKey } from './sealKey';
import { loadManifestValue, type OpenManifestLookup } from './requestInputs';
import type {
  HarEntriesParams,
  HarEntriesResult,
  StreamsFromRequestsParams,
  StreamsFromRequestsResult,
  UnmaskRequestParams,
  UnmaskRequestResult,
} from './scaffoldProtocol';

function opened(value: StreamsFromRequestsParams['source']): Record<string, unknown> {
  try {
    return openConfig(value, sealKey);
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, `The request could not be read: ${(e as Error).message}`);
  }
}

/** The streams of a cURL command or of picked HAR entries, as edits to the open manifest or a new one. */
export async function handleStreamsFromRequests(
  p: StreamsFromRequestsParams,
  openText: (uri: string) => string | undefined,
): Promise<StreamsFromRequestsResult> {
  const source = opened(p.source);
  const warnings: string[] = [];
  let requests: RequestSketch[];
  let origin: string;
  if (typeof source.curl === 'string') {
    const parsed = await parseCurlCommand(source.curl);
    if (!parsed.request) return { error: parsed.error ?? 'The cURL command could not be read.' };
    warnings.push(...parsed.warnings);
    requests = [parsed.request];
    origin = 'a cURL command';
  } else if (typeof source.har === 'string') {
    const { entries, error } = readHarEntries(source.har);
    if (error) return { error };
    const picks = new Set(Array.isArray(source.picks) ? source.picks : []);
    requests = entries.filter((e) => picks.has(e.index)).map((e) => e.request);
    if (requests.length === 0) return { error: 'No HAR entry was picked.' };
    origin = 'a HAR file';
  } else {
    throw new ResponseError(ErrorCodes.InvalidParams, 'The source must hold `curl` or `har`.');
  }
  const existing = p.targetUri ? openText(p.targetUri) : undefined;
  if (p.targetUri && existing === undefined) throw new ResponseError(ErrorCodes.InvalidParams, `The manifest ${p.targetUri} is not open.`);
  const result = scaffoldStreams(requests, existing, origin);
  const text = result.text ?? applyOffsetEdits(existing ?? '', result.edits ?? []);
  const errors = runtime.validateManifest(runtime.parseManifest(text)).filter((x) => x.severity === 'error').length;
  if (result.text !== undefined) return { text: result.text, streams: result.streams, warnings, errors };
  const doc = TextDocument.create(p.targetUri!, 'yaml', 0, existing!);
  return {
    edits: (result.edits ?? []).map((e) => ({ range: spanToRange(doc, e), newText: e.newText })),
    streams: result.streams,
    warnings,
    errors,
  };
}

/** The entries of a HAR file, for the picker. */
export function handleHarEntries(p: HarEntriesParams): HarEntriesResult {
  const source = opened(p.source);
  if (typeof source.har !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'The source must hold `har`.');
  const { entries, error } = readHarEntries(source.har);
  if (error) return { error };
  return { entries: entries.map(({ index, method, url, status, mimeType }) => ({ index, method, url, status, mimeType })) };
}

/** A test read's request with its masked credentials re-rendered from the testing values; sealed back. */
export async function handleUnmaskRequest(p: UnmaskRequestParams, lookup: OpenManifestLookup): Promise<UnmaskRequestResult> {
  const manifest = await loadManifestValue(p.uri, lookup);
  const resolved = runtime.resolveManifest(manifest).value as Record<string, unknown> | null;
  if (!resolved)
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping; fix the YAML errors first.');
  const config = opened(p.config);
  const { request, stillMasked } = await unmaskRequest(resolved, p.streamName, p.request, config);
  return { request: sealKey ? sealConfig(request, sealKey) : request, stillMasked };
}

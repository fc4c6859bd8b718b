// Finds a stream and its components in the resolved manifest (references followed, `$parameters`
// propagated) and locates them in the text as written, so the results view can reveal the component
// a failed read blames (the authenticator for a 401, the paginator for a bad page token).
import type { ComponentLocationResult, StreamComponentKind } from '../protocol';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { resolveManifest, type JsonPath, type ResolvedManifest } from '../runtime';

/** Where each component kind sits below a resolved stream, tried in order (SimpleRetriever first, then AsyncRetriever). */
const COMPONENT_PATHS: Record<StreamComponentKind, JsonPath[]> = {
  authenticator: [
    ['retriever', 'requester', 'authenticator'],
    ['retriever', 'creation_requester', 'authenticator'],
  ],
  paginator: [['retriever', 'paginator']],
  requester: [
    ['retriever', 'requester'],
    ['retriever', 'creation_requester'],
  ],
  record_selector: [['retriever', 'record_selector']],
  partition_router: [['retriever', 'partition_router']],
  incremental_sync: [['incremental_sync']],
  schema_loader: [['schema_loader']],
};

/** A stream of the resolved manifest: its index in `streams` and its resolved value. */
export type ResolvedStream = { resolved: ResolvedManifest; index: number; value: Record<string, unknown> };

/** The resolved stream called `streamName`, or undefined. Never throws (resolution never does). */
export function findResolvedStream(doc: ManifestDocument, streamName: string): ResolvedStream | undefined {
  const parsed = doc.parsed;
  if (!isMap(parsed.value)) return undefined;
  const resolved = resolveManifest(parsed.value, { parsed });
  const streams = isMap(resolved.value) ? resolved.value.streams : undefined;
  if (!Array.isArray(streams)) return undefined;
  const index = streams.findIndex(
    (s) => isMap(s) && (s.name === streamName || (isMap(s.$parameters) && s.$parameters.name === streamName)),
  );
  return index < 0 ? undefined : { resolved, index, value: streams[index] as Record<string, unknown> };
}

function valueAt(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const key of path) v = isMap(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[key] : undefined;
  return v;
}

/** Serves `airbyte/componentLocation`: the range of the stream's component (key through value), or null. */
export function locateStreamComponent(doc: ManifestDocument, streamName: string, component: StreamComponentKind): ComponentLocationResult {
  const stream = findResolvedStream(doc, streamName);
  const paths = COMPONENT_PATHS[component];
  if (!stream || !paths) return null;
  for (const path of paths) {
    const value = valueAt(stream.value, path);
    if (value === undefined || value === null) continue;
    const located = stream.resolved.origins.locate(['streams', stream.index, ...path]);
    if (!located) continue;
    const start = located.keySpan?.start ?? located.span.start;
    // A block mapping's span runs to the next line; the revealed range ends at its last character.
    const text = doc.textDocument.getText();
    let end = Math.max(start, located.span.end);
    while (end > start && /\s/.test(text[end - 1])) end--;
    return {
      range: spanToRange(doc.textDocument, { start, end }),
      type: isMap(value) && typeof value.type === 'string' ? value.type : null,
    };
  }
  return null;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

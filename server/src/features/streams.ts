// The streams of a manifest with their names and ranges, for code lenses, symbols and the
// `airbyte/listStreams` request. Streams written as `$ref` mappings or `#/` strings are named from
// their target.
import type { ListStreamsResult } from '../protocol';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import type { Span } from '../runtime';
import { followReference } from './references';

/** One entry of the manifest's `streams` list. `span` covers the list item as written (offsets). */
export type StreamEntry = { name: string; index: number; span: Span };

/**
 * The entries of `streams`, in order. A stream without a readable name gets `stream #<index>` so
 * it still shows up; dynamic streams are not listed (their names exist only at read time).
 */
export function findStreams(doc: ManifestDocument): StreamEntry[] {
  const model = doc.model;
  const root = model.value as Record<string, unknown> | null;
  const streams = root && typeof root === 'object' ? followReference(root, root.streams) : undefined;
  if (!Array.isArray(streams)) return [];
  const out: StreamEntry[] = [];
  streams.forEach((item, index) => {
    const location = doc.locator.locate(['streams', index]);
    if (!location) return;
    // A ConditionalStreams entry holds streams of its own: those are the streams (index stays the entry's).
    const entry = followReference(root, item) as Record<string, unknown> | null;
    if (entry && typeof entry === 'object' && entry.type === 'ConditionalStreams') {
      const inner = followReference(root, entry.streams);
      if (Array.isArray(inner)) {
        inner.forEach((innerItem, j) => {
          const at = doc.locator.locate(['streams', index, 'streams', j]);
          if (at) out.push({ name: streamName(root, innerItem) ?? `stream #${index}.${j}`, index, span: at.valueSpan });
        });
      }
      return;
    }
    out.push({ name: streamName(root, item) ?? `stream #${index}`, index, span: location.valueSpan });
  });
  return out;
}

/** The stream's name: its `name`, or `$parameters.name` (Spec §1.3), after following references. */
export function streamName(root: unknown, item: unknown): string | null {
  const stream = followReference(root, item);
  if (!stream || typeof stream !== 'object' || Array.isArray(stream)) return null;
  const map = stream as Record<string, unknown>;
  if (typeof map.name === 'string' && map.name !== '') return map.name;
  const params = followReference(root, map.$parameters);
  if (params && typeof params === 'object' && typeof (params as Record<string, unknown>).name === 'string') {
    return (params as Record<string, unknown>).name as string;
  }
  return null;
}

/** Serves `airbyte/listStreams`. Never throws. */
export function provideStreamList(doc: ManifestDocument): ListStreamsResult {
  return { streams: findStreams(doc).map((s) => ({ name: s.name, range: spanToRange(doc.textDocument, s.span) })) };
}

// Code lenses of the incremental lab and of "Run all streams" (docs/incremental.md): "▶ Run all streams"
// above `streams:`, and above each stream with an incremental_sync "Run from state", "Input state…" and
// "Incremental check". The commands are the client's; a lens carries `{ uri }` or `{ uri, streamName }`.
import type { CodeLens } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { findStreams } from './streams';
import { documentResolved } from '../documentValidation';

export const RUN_ALL_STREAMS_COMMAND = 'airbyte.runAllStreams';
export const RUN_FROM_STATE_COMMAND = 'airbyte.runFromState';
export const EDIT_INPUT_STATE_COMMAND = 'airbyte.editInputState';
export const INCREMENTAL_CHECK_COMMAND = 'airbyte.incrementalCheck';

/** The lenses of `doc`, resolved. Never throws. */
export function provideIncrementalLenses(doc: ManifestDocument): CodeLens[] {
  const lenses: CodeLens[] = [];
  const streams = doc.locator.locate(['streams']);
  const entries = findStreams(doc);
  if (streams && (entries.length > 0 || doc.locator.locate(['dynamic_streams']))) {
    const range = spanToRange(doc.textDocument, streams.keySpan ?? streams.valueSpan);
    lenses.push({ range, command: { title: '▶ Run all streams', command: RUN_ALL_STREAMS_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  // One resolution per document version (cached), not one per stream: lenses are asked for on every edit.
  const root = documentResolved(doc).value as Record<string, unknown> | null;
  const resolvedStreams = (root && Array.isArray(root.streams) ? root.streams : []) as Array<Record<string, unknown> | null>;
  for (const stream of entries) {
    const resolved = resolvedStreams[stream.index];
    const inc = resolved && typeof resolved === 'object' ? resolved.incremental_sync : undefined;
    if (!inc || typeof inc !== 'object') continue;
    const range = spanToRange(doc.textDocument, { start: stream.span.start, end: stream.span.start });
    const args = [{ uri: doc.uri, streamName: stream.name }];
    lenses.push({ range, command: { title: 'Run from state', command: RUN_FROM_STATE_COMMAND, arguments: args } });
    lenses.push({ range, command: { title: 'Input state…', command: EDIT_INPUT_STATE_COMMAND, arguments: args } });
    lenses.push({ range, command: { title: 'Incremental check', command: INCREMENTAL_CHECK_COMMAND, arguments: args } });
  }
  return lenses;
}

// Code lenses: "Run stream" and "Run with limits…" above each stream, "Set testing values" above
// `spec`, "Resolve streams…" above `dynamic_streams` (their names need the config, and an API call for
// an HttpComponentsResolver, so the client asks the server with the testing values on demand). The
// commands are the client's; the lens only carries `{ uri, streamName }` or `{ uri }`.
import type { CodeLens } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { findStreams } from './streams';

/** Command ids the client registers. */
export const RUN_STREAM_COMMAND = 'airbyte.runStream';
export const RUN_STREAM_WITH_LIMITS_COMMAND = 'airbyte.runStreamWithLimits';
export const SET_TESTING_VALUES_COMMAND = 'airbyte.setTestingValues';
export const RESOLVE_STREAMS_COMMAND = 'airbyte.resolveStreams';

/** The lenses of `doc`, resolved (each has its command). Never throws. */
export function provideCodeLenses(doc: ManifestDocument): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const stream of findStreams(doc)) {
    const range = spanToRange(doc.textDocument, { start: stream.span.start, end: stream.span.start });
    const args = [{ uri: doc.uri, streamName: stream.name }];
    lenses.push({ range, command: { title: `▶ Run stream ${stream.name}`, command: RUN_STREAM_COMMAND, arguments: args } });
    lenses.push({ range, command: { title: 'Run with limits…', command: RUN_STREAM_WITH_LIMITS_COMMAND, arguments: args } });
  }
  const spec = doc.model.locate(['spec']);
  if (spec) {
    const range = spanToRange(doc.textDocument, spec.keySpan ?? spec.valueSpan);
    lenses.push({ range, command: { title: 'Set testing values', command: SET_TESTING_VALUES_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  const dynamic = doc.model.locate(['dynamic_streams']);
  if (dynamic) {
    const range = spanToRange(doc.textDocument, dynamic.keySpan ?? dynamic.valueSpan);
    lenses.push({ range, command: { title: 'Resolve streams…', command: RESOLVE_STREAMS_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  return lenses;
}

// Code lenses: "Run stream" and "Run with limits…" above each stream, "Set testing values" above
// `spec`, "Authenticate with OAuth" above `spec.advanced_auth`, "Resolve streams…" above
// `dynamic_streams` (their names need the config, and an API call for an HttpComponentsResolver, so the
// client asks the server with the testing values on demand). The commands are the client's; the lens
// only carries `{ uri, streamName }` or `{ uri }`.
import type { CodeLens } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { findStreams } from './streams';
import { notRunnableStreams } from './notRunnableStreams';
import { cdkRunLens, type CdkLensStatus } from './engineLens';

/** Command ids the client registers. */
export const RUN_STREAM_COMMAND = 'airbyte.runStream';
export const RUN_STREAM_WITH_LIMITS_COMMAND = 'airbyte.runStreamWithLimits';
export const SET_TESTING_VALUES_COMMAND = 'airbyte.setTestingValues';
export const AUTHORIZE_OAUTH_COMMAND = 'airbyte.authorizeOAuth';
export const RESOLVE_STREAMS_COMMAND = 'airbyte.resolveStreams';
export const CHECK_CONNECTION_COMMAND = 'airbyte.checkConnection';

/**
 * The lenses of `doc`, resolved (each has its command). `cdk`: the CDK engine's status, for streams
 * with custom components (engineLens.ts); undefined when the server has no CDK engine. Never throws.
 */
export function provideCodeLenses(doc: ManifestDocument, cdk?: () => CdkLensStatus): CodeLens[] {
  const lenses: CodeLens[] = [];
  const blocked = notRunnableStreams(doc);
  const root = doc.model.value as Record<string, unknown> | null;
  for (const stream of findStreams(doc)) {
    const range = spanToRange(doc.textDocument, { start: stream.span.start, end: stream.span.start });
    const args = [{ uri: doc.uri, streamName: stream.name }];
    // A stream using a component this runtime does not run: the lens says why instead of running.
    const why = blocked.get(stream.name);
    if (why) {
      lenses.push({ range, command: { title: `⊘ Not runnable in a test read: ${why}`, command: '', arguments: args } });
      continue;
    }
    const node = Array.isArray(root?.streams) ? root.streams[stream.index] : undefined;
    const engineLens = cdk ? cdkRunLens(root, node, stream.name, args, RUN_STREAM_COMMAND, cdk) : null;
    lenses.push({ range, command: engineLens ?? { title: `▶ Run stream ${stream.name}`, command: RUN_STREAM_COMMAND, arguments: args } });
    lenses.push({ range, command: { title: 'Run with limits…', command: RUN_STREAM_WITH_LIMITS_COMMAND, arguments: args } });
  }
  const spec = doc.locator.locate(['spec']);
  if (spec) {
    const range = spanToRange(doc.textDocument, spec.keySpan ?? spec.valueSpan);
    lenses.push({ range, command: { title: 'Set testing values', command: SET_TESTING_VALUES_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  // A declarative OAuth flow (spec.advanced_auth) can be run from the manifest, as the Builder's "Authenticate" button.
  const advancedAuth = doc.locator.locate(['spec', 'advanced_auth']);
  if (advancedAuth) {
    const range = spanToRange(doc.textDocument, advancedAuth.keySpan ?? advancedAuth.valueSpan);
    lenses.push({ range, command: { title: 'Authenticate with OAuth', command: AUTHORIZE_OAUTH_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  // The manifest's `check` (CheckStream / CheckDynamicStream) runs with the testing values, as `check` does.
  const checkKey = doc.locator.locate(['check']);
  if (checkKey) {
    const range = spanToRange(doc.textDocument, checkKey.keySpan ?? checkKey.valueSpan);
    lenses.push({ range, command: { title: 'Check connection', command: CHECK_CONNECTION_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  const dynamic = doc.locator.locate(['dynamic_streams']);
  if (dynamic) {
    const range = spanToRange(doc.textDocument, dynamic.keySpan ?? dynamic.valueSpan);
    lenses.push({ range, command: { title: 'Resolve streams…', command: RESOLVE_STREAMS_COMMAND, arguments: [{ uri: doc.uri }] } });
  }
  return lenses;
}

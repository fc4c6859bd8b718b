// Declared vs inferred schema of a stream, as the Connector Builder warns after a test read: fields the
// records have that the declared schema lacks, and fields whose types differ (integer vs number, a
// string declared where the records hold objects, …). Nullability is ignored: the inferred schema makes
// every field nullable (reference-behaviour.md §10.3). The comparison itself is the runtime's
// (runtime/schema/schemaDifferences.ts), which the CLI's run of all streams uses too.
import type { SchemaDifferencesResult } from '../protocol';
import type { ManifestDocument } from '../documents';
import { findResolvedStream } from './streamComponents';
import { schemaDifferences, streamSchemaDifferences } from '../runtime/schema/schemaDifferences';

export { schemaDifferences };

type Schema = Record<string, unknown>;

/** Serves `airbyte/schemaDifferences` for an open manifest. Never throws. */
export function provideSchemaDifferences(doc: ManifestDocument, streamName: string, inferred: Schema): SchemaDifferencesResult {
  const stream = findResolvedStream(doc, streamName);
  if (!stream) return { declared: 'unknown-stream', differences: [] };
  return streamSchemaDifferences(stream.value, inferred);
}

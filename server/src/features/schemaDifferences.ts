// Declared vs inferred schema of a stream after a test read, for the results view. The comparison itself
// is the runtime's (runtime/schema/schemaDifferences.ts: integer vs number as the Builder, nullability
// ignored), which the CLI's run of all streams uses too.
import type { SchemaDifferencesResult } from '../protocol';
import type { ManifestDocument } from '../documents';
import { findResolvedStream } from './streamComponents';
import { fractionalPaths, schemaDifferences, streamSchemaDifferences } from '../runtime';

export { fractionalPaths, schemaDifferences };

type Schema = Record<string, unknown>;

export function provideSchemaDifferences(
  doc: ManifestDocument,
  streamName: string,
  inferred: Schema,
  records: readonly unknown[] = [],
): SchemaDifferencesResult {
  const stream = findResolvedStream(doc, streamName);
  if (!stream) return { declared: 'unknown-stream', differences: [] };
  return streamSchemaDifferences(stream.value, inferred, records);
}

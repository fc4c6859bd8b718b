// How a stream's selector treats its records (shared by the SimpleRetriever and the AsyncRetriever, whose
// download records go through the same RecordSelector in the reference).
import type { RecordsAsDicts } from '../records/recordAsDict';
import { normalizeBySchema } from '../records/schemaNormalization';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

/**
 * How the selector treats the stream's records: objects always; dicts when the stream has a schema, cast to
 * its types with `schema_normalization: Default` (the CDK's TypeTransformer, schemaNormalization.ts).
 */
export function recordsOfStream(name: string, loader: unknown, selector: Obj | undefined, rc: ReadContext): RecordsAsDicts {
  const schema = hasSchema(loader);
  const out: RecordsAsDicts = { stream: name, schema, warn: (message) => rc.log('WARN', message) };
  if (schema && selector?.schema_normalization === 'Default') {
    const json = streamSchema(loader);
    out.normalize = (record) => normalizeBySchema(record, json);
  }
  return out;
}

/** The schema the reference reads with: an InlineSchemaLoader's, or a list's properties merged (the first loader wins a key). */
function streamSchema(loader: unknown): Obj {
  if (!Array.isArray(loader)) return ((loader as Obj).schema as Obj) ?? {};
  let properties: Obj = {};
  for (const l of loader) {
    const schema = (l as Obj | null)?.type === 'InlineSchemaLoader' ? ((l as Obj).schema as Obj | undefined) : undefined;
    properties = { ...((schema?.properties as Obj) ?? {}), ...properties };
  }
  return { type: ['null', 'object'], properties };
}

/**
 * Whether the stream's schema is known and not empty at read time, so that the reference normalises records
 * by it: an InlineSchemaLoader with a schema (alone or in a list). Other loaders are left out (a file loader
 * has no file in a test read; a dynamic one needs its own request).
 */
function hasSchema(loader: unknown): boolean {
  const loaders = Array.isArray(loader) ? loader : [loader];
  return loaders.some((l) => {
    const schema = (l as Obj | null)?.type === 'InlineSchemaLoader' ? (l as Obj).schema : null;
    return schema !== null && typeof schema === 'object' && Object.keys(schema as Obj).length > 0;
  });
}

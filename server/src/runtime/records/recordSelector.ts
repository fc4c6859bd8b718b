// RecordSelector (§8.3, §8.4): decode → extract → filter/transform in the configured order.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalBoolean } from '../http/interpolatedValues';
import { createDecoder, type Decoder } from './decoders';
import { createDpathExtractor, type RecordExtractor } from './dpathExtractor';
import { createTransformations } from './transformations';
import { templateSlice, type StreamSlice } from './streamSlice';
import { recordsAreObjects, recordsAsDicts, type RecordsAsDicts } from './recordAsDict';

/** Selects the records of one page. */
export type RecordSelector = {
  decoder: Decoder;
  extractor: RecordExtractor;
  /** Raw extracted records (before filter and transformations). */
  extract(response: HttpResponse): Record<string, unknown>[];
  select(response: HttpResponse, slice: StreamSlice, nextPageToken: unknown): Record<string, unknown>[];
};

/** What a client-side incremental cursor adds to record selection (airbyte_cdk/sources/declarative/extractors/record_filter.py). */
export type IncrementalSelection = {
  /** The cursor check, run before the record_filter condition. */
  keep?: (record: Record<string, unknown>, slice: StreamSlice) => boolean;
  /** transform_before_filtering when the manifest does not say: true for client-side incremental streams. */
  transformFirstByDefault?: boolean;
};

/** Builds the selector from the retriever's record_selector and decoder and the stream's transformations. */
export function createRecordSelector(
  component: Record<string, unknown> | undefined,
  decoderComponent: Record<string, unknown> | undefined,
  transformationList: unknown,
  config: object,
  parameters: object,
  env?: RuntimeEnv,
  incremental: IncrementalSelection = {},
  /** Records of a stream: each must be an object, or becomes a dict when the stream has a schema (recordAsDict.ts). */
  ofStream: RecordsAsDicts | null = null,
): RecordSelector {
  const params = (component?.$parameters as object) ?? parameters;
  const decoder = createDecoder(decoderComponent);
  const extractor = createDpathExtractor(component?.extractor as Record<string, unknown> | undefined, config, params, env);
  const filter = component?.record_filter as Record<string, unknown> | undefined;
  if (filter && filter.type !== undefined && filter.type !== 'RecordFilter') {
    throw configError(`Record filter ${JSON.stringify(filter.type)} is not supported by this runtime.`);
  }
  const transformations = createTransformations(transformationList, config, parameters, env);
  const transformFirst =
    typeof component?.transform_before_filtering === 'boolean'
      ? component.transform_before_filtering
      : incremental.transformFirstByDefault === true;
  const extract = (response: HttpResponse) => {
    const out: Record<string, unknown>[] = [];
    for (const element of decoder.decode(response)) {
      for (const r of extractor.extract(element)) out.push(r as Record<string, unknown>);
    }
    return out;
  };
  return {
    decoder,
    extractor,
    extract,
    select(response, slice, nextPageToken) {
      let records = extract(response);
      // Transformations mutate records in place; copy first so the decoded body stays as received.
      if (transformations.length)
        records = records.map((r) => (r !== null && typeof r === 'object' && !Array.isArray(r) ? structuredClone(r) : r));
      const condition = (record: Record<string, unknown>) =>
        // Spec §8.3: an empty condition evaluates false and drops every record (reference quirk).
        evalBoolean(
          filter?.condition ?? '',
          {
            config,
            parameters: (filter?.$parameters as object) ?? params,
            record,
            stream_slice: templateSlice(slice),
            next_page_token: nextPageToken,
          },
          env,
        );
      const cursorKeep = incremental.keep;
      const keep = (record: Record<string, unknown>) => (!cursorKeep || cursorKeep(record, slice)) && (!filter || condition(record));
      const filtering = Boolean(filter || cursorKeep);
      const transform = (record: Record<string, unknown>) => {
        if (record !== null && typeof record === 'object') for (const t of transformations) t(record, slice);
        return record;
      };
      if (transformFirst) {
        records = records.map(transform);
        if (filtering) records = records.filter(keep);
      } else {
        if (filtering) records = records.filter(keep);
        records = records.map(transform);
      }
      if (!ofStream) return records;
      return ofStream.schema ? recordsAsDicts(records, ofStream) : recordsAreObjects(records, ofStream.stream);
    },
  };
}

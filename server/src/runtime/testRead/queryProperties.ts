// QueryProperties of an HttpRequester (CDK requesters/query_properties): the properties a request asks
// for, from a static list or from the API (PropertiesFromEndpoint), split into chunks (PropertyChunking by
// property count or by characters) and narrowed by a JsonSchemaPropertySelector; the page loop sends one
// request per chunk and merges the chunks' records by key (GroupByKeyMergeStrategy), as the reference's
// SimpleRetriever._read_pages does. The requester side (the chunk as a query parameter) is
// http/queryPropertiesParameter.ts.
import { configError, RuntimeError } from '../errors';
import { evalString, pythonStr } from '../http/interpolatedValues';
import { createTransformations } from '../records/transformations';
import { emptySlice } from '../records/streamSlice';
import { dpathGet } from './dpath';
import { setOwn } from '../shared/safeObject';
import type { BuiltStream } from './builtStream';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

/** What the page loop needs of a stream's QueryProperties. */
export type QueryProperties = {
  /** The chunks of properties, one request each (the properties endpoint is read once, on first use). */
  chunks(): Promise<string[][]>;
  /** Whether records of the chunks are merged (only with property_chunking). */
  merges: boolean;
  /** The record's merge key, or null when it has none (then it is emitted as it comes). Throws as Python's `",".join` does. */
  mergeKey(record: Obj): string | null;
};

/** Builds the stream named `name` from a bare retriever (the properties endpoint's). */
export type BuildRetriever = (stream: Obj) => BuiltStream;

const isQueryProperties = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && (v as Obj).type === 'QueryProperties';

/**
 * The stream's QueryProperties, where the reference looks for it: one QueryProperties value of
 * `request_parameters`, else the deprecated `fetch_properties_from_endpoint`, else `query_properties`.
 */
export function queryPropertiesOf(requester: Obj, stream: string, rc: ReadContext, buildRetriever: BuildRetriever): QueryProperties | null {
  const params = requester.request_parameters;
  const inParams =
    params && typeof params === 'object' && !Array.isArray(params) ? Object.values(params as Obj).filter(isQueryProperties) : [];
  const fromEndpoint = requester.fetch_properties_from_endpoint as Obj | undefined;
  let component: Obj | null = null;
  if (inParams.length) {
    if (fromEndpoint)
      throw configError(
        `PropertiesFromEndpoint should only be specified once per stream, but found in ${String(requester.type)}.fetch_properties_from_endpoint and ${String(requester.type)}.request_parameters`,
      );
    if (inParams.length > 1)
      throw configError(`request_parameters only supports defining one QueryProperties field, but found ${inParams.length} usages`);
    component = inParams[0];
  } else if (fromEndpoint) {
    component = { type: 'QueryProperties', property_list: fromEndpoint };
  } else if (isQueryProperties(requester.query_properties)) {
    component = requester.query_properties as Obj;
  }
  return component ? createQueryProperties(component, stream, rc, buildRetriever) : null;
}

function createQueryProperties(component: Obj, stream: string, rc: ReadContext, buildRetriever: BuildRetriever): QueryProperties {
  const list = component.property_list;
  const always = Array.isArray(component.always_include_properties) ? component.always_include_properties.map(String) : null;
  const chunking = component.property_chunking as Obj | undefined;
  const selector = component.property_selector as Obj | undefined;
  let properties: (() => Promise<string[]>) | null = null;
  if (list && typeof list === 'object' && !Array.isArray(list) && (list as Obj).type === 'PropertiesFromEndpoint') {
    properties = propertiesFromEndpoint(list as Obj, stream, rc, buildRetriever);
  } else if (list !== undefined && list !== null && !Array.isArray(list)) {
    throw configError(`QueryProperties.property_list of stream '${stream}' must be a list of property names or a PropertiesFromEndpoint.`);
  }
  const staticList = Array.isArray(list) ? list.map(String) : [];
  const limitType = chunking?.property_limit_type;
  if (chunking && limitType !== 'property_count' && limitType !== 'characters')
    throw configError(
      `Invalid PropertyLimitType ${JSON.stringify(limitType)}: PropertyChunking.property_limit_type is property_count or characters.`,
    );
  const limit = typeof chunking?.property_limit === 'number' ? chunking.property_limit : null;
  const strategy = chunking?.record_merge_strategy as Obj | undefined;
  // PropertyChunking without a record_merge_strategy groups by `id` (GroupByKey(key="id")).
  const keyOption = strategy ? strategy.key : 'id';
  const keys = Array.isArray(keyOption) ? keyOption.map(String) : [String(keyOption)];
  const selected = selector ? selectedProperties(selector, rc) : null;

  return {
    merges: Boolean(chunking),
    async chunks() {
      const fields = properties ? await properties() : staticList;
      if (!chunking) {
        // QueryProperties.get_request_property_chunks without chunking: one chunk, always-included first.
        const all = selected === null ? [...fields] : fields.filter((f) => selected.has(f));
        return [always ? [...always, ...all] : all];
      }
      return chunksOf(fields, always, selected, limitType === 'characters', limit);
    },
    mergeKey(record) {
      const parts: unknown[] = [];
      for (const key of keys) {
        const value = record[key];
        if (!pythonTruthy(value)) return null;
        parts.push(value);
      }
      const bad = parts.findIndex((p) => typeof p !== 'string');
      if (bad >= 0) {
        throw new RuntimeError(
          `An unexpected error occurred in stream ${stream}: TypeError: sequence item ${bad}: expected str instance, ${pythonTypeName(parts[bad])} found. GroupByKeyMergeStrategy joins the values of ${keys.map((k) => `\`${k}\``).join(', ')} as strings, and the Python CDK fails on a record whose key is not a string (here ${JSON.stringify(parts[bad])}).`,
          'system_error',
        );
      }
      return (parts as string[]).join(',');
    },
  };
}

/**
 * PropertyChunking.get_request_property_chunks: a new chunk starts when the next property would pass the
 * limit (a property counts 1, or its length + 3 for the delimiter's encoding by characters); each chunk
 * starts with the always-included properties, which do not count; without a limit, one chunk with the
 * always-included properties last, and the selection ignored (as the reference does).
 */
export function chunksOf(
  fields: string[],
  always: string[] | null,
  selected: Set<string> | null,
  byCharacters: boolean,
  limit: number | null,
): string[][] {
  if (!limit) return [[...fields, ...(always ?? [])]];
  const chunks: string[][] = [];
  let current = always ? [...always] : [];
  let size = 0;
  for (const field of fields) {
    if (selected !== null && !selected.has(field)) continue;
    const fieldSize = byCharacters ? field.length + 3 : 1;
    if (size + fieldSize > limit) {
      chunks.push(current);
      current = always ? [...always] : [];
      size = 0;
    }
    current.push(field);
    size += fieldSize;
  }
  chunks.push(current);
  return chunks;
}

/**
 * JsonSchemaPropertySelector.select(): the properties of the configured stream's json_schema after the
 * selector's transformations. A test read's catalog (the Connector Builder's) has an empty json_schema,
 * so only what the transformations add is selected.
 */
function selectedProperties(selector: Obj, rc: ReadContext): Set<string> {
  const schemaProperties: Obj = {};
  const transformations = createTransformations(selector.transformations, rc.config, (selector.$parameters as Obj) ?? {}, rc.env);
  for (const t of transformations) t(schemaProperties, emptySlice());
  return new Set(Object.keys(schemaProperties));
}

/** PropertiesFromEndpoint: its retriever read in full once (cached), each record's `property_field_path` as Python's str(). */
function propertiesFromEndpoint(component: Obj, stream: string, rc: ReadContext, buildRetriever: BuildRetriever): () => Promise<string[]> {
  if (!component.retriever || typeof component.retriever !== 'object')
    throw configError(`PropertiesFromEndpoint of stream '${stream}' needs a retriever.`);
  const parameters = (component.$parameters as Obj) ?? {};
  const path = (Array.isArray(component.property_field_path) ? component.property_field_path : []).map((p) =>
    pythonStr(evalString(p, { config: rc.config, parameters }, rc.env)),
  );
  let cached: Promise<string[]> | null = null;
  return () =>
    (cached ??= (async () => {
      const built = buildRetriever({ type: 'DeclarativeStream', name: 'dynamic_properties', retriever: component.retriever });
      const out: string[] = [];
      for await (const slice of built.slicer.slices()) {
        for await (const page of built.readSlice(slice)) {
          rc.aux(
            {
              title: 'Properties from endpoint',
              type: 'HTTP',
              description: `Request performed to fetch the properties that stream '${stream}' queries for (QueryProperties.property_list: PropertiesFromEndpoint)`,
              request: { url: page.request.url, headers: page.request.headers, http_method: page.request.method, body: page.request.body },
              response: page.response ? { status: page.response.status, body: page.response.body, headers: page.response.headers } : null,
            },
            null,
          );
          for (const record of page.records) out.push(pythonStr(dpathGet(record, path, [])));
          if (page.error) throw page.error;
        }
      }
      return out;
    })());
}

/**
 * SimpleRetriever._deep_merge: nested mappings are merged, any other value replaces the target's.
 */
export function deepMerge(target: Obj, source: Obj): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (Object.hasOwn(target, key) && isMapping(existing) && isMapping(value)) deepMerge(existing, value);
    else setOwn(target, key, value);
  }
}

const isMapping = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

function pythonTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as Obj).length > 0;
  return true;
}

function pythonTypeName(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (Array.isArray(v)) return 'list';
  if (v && typeof v === 'object') return 'dict';
  return typeof v;
}

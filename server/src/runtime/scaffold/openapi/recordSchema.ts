// From an operation's response schema to what a stream needs: where the records are (`field_path`),
// the schema of one record as plain JSON Schema (nullable-aware, cycles cut), and a primary key.
import { obj } from './operations';

export type RecordShape = {
  /** True when the response holds a list of records (an array, or an object with one). */
  isList: boolean;
  fieldPath: string[];
  fieldPathWhy: string;
  /** The (OpenAPI) schema of one record; undefined when the response has no schema. */
  item?: Record<string, unknown>;
};

// Names APIs give the array of records, most common first.
const RECORD_ARRAYS = [
  'data',
  'items',
  'results',
  'records',
  'entries',
  'value',
  'values',
  'list',
  'elements',
  'content',
  'objects',
  'rows',
  'hits',
  'nodes',
  'edges',
];

/**
 * Where the records of a response with `schema` are; `resource` is the path's last word (`users`),
 * `single` is true when the path ends with a parameter (`/users/{id}`: one object, even if it holds arrays).
 */
export function recordShape(schema: Record<string, unknown> | undefined, resource: string, single = false): RecordShape {
  if (!schema || Object.keys(schema).length === 0)
    return { isList: false, fieldPath: [], fieldPathWhy: 'the response has no JSON schema: check where the records are' };
  if (isArray(schema)) return { isList: true, fieldPath: [], fieldPathWhy: 'the response is an array', item: obj(schema.items) };
  const one = { isList: false, fieldPath: [], fieldPathWhy: 'the response is a single object: one record per request', item: schema };
  if (single) return one;
  const top = properties(schema);
  const direct = arrayProperty(top, resource, true);
  if (direct)
    return {
      isList: true,
      fieldPath: [direct],
      fieldPathWhy: `the response's array property "${direct}"`,
      item: obj(obj(top[direct]).items),
    };
  // One level down, under a wrapper: `{ data: { children: [...] } }`, `{ response: { items: [...] } }`.
  for (const [name, value] of Object.entries(top)) {
    if (!WRAPPER_NAMES.includes(name.toLowerCase())) continue;
    const inner = properties(obj(value));
    const nested = arrayProperty(inner, resource, true);
    if (nested)
      return {
        isList: true,
        fieldPath: [name, nested],
        fieldPathWhy: `the response's array property "${name}.${nested}"`,
        item: obj(obj(inner[nested]).items),
      };
  }
  return one;
}

const WRAPPER_NAMES = ['data', 'response', 'result', 'results', 'body', 'payload', 'content', 'page', 'list'];
// Properties that sit beside the records in a list envelope.
const ENVELOPE =
  /^(count|total|total_?count|total_?results|size|page|pages|per_?page|page_?size|limit|offset|next|previous|prev|links|_links|meta|metadata|paging|pagination|has_?more|has_?next|cursor|next_?cursor|next_?page.*|object|url|status|success|message|errors?|warnings?|request_?id|kind|etag|type)$/i;
/**
 * The name of the array-of-records property among `props`: a usual name (or the resource's), or
 * the only array of an envelope (its other properties are counts, links, cursors...).
 */
function arrayProperty(props: Record<string, unknown>, resource: string, allowEnvelope: boolean): string | undefined {
  const arrays = Object.keys(props).filter((k) => isArray(obj(props[k])) && !isScalarArray(obj(props[k])));
  if (arrays.length === 0) return undefined;
  const lower = new Map(arrays.map((a) => [a.toLowerCase(), a]));
  for (const name of [...RECORD_ARRAYS, resource.toLowerCase(), camelToSnake(resource)]) if (lower.has(name)) return lower.get(name);
  if (!allowEnvelope || arrays.length !== 1) return undefined;
  const others = Object.keys(props).filter((k) => k !== arrays[0]);
  return others.every((k) => ENVELOPE.test(k)) ? arrays[0] : undefined;
}

function camelToSnake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function isArray(s: Record<string, unknown>): boolean {
  return (
    s.type === 'array' ||
    (Array.isArray(s.type) && s.type.includes('array')) ||
    (s.items !== undefined && s.type === undefined && s.properties === undefined)
  );
}

function isScalarArray(s: Record<string, unknown>): boolean {
  const t = obj(s.items).type;
  return typeof t === 'string' && t !== 'object' && t !== 'array';
}

/** The properties of an object schema, `allOf` members merged (OpenAPI composition is common). */
export function properties(schema: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > 10) return out;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) Object.assign(out, properties(obj(part), depth + 1));
  Object.assign(out, obj(schema.properties));
  return out;
}

const KEY_NAMES = ['id', 'uuid', 'guid', '_id', 'key', 'slug', 'code'];

/** A primary key from the record's properties, with the reason; undefined when none looks like one. */
export function primaryKeyOf(item: Record<string, unknown> | undefined, resource: string): { key: string; why: string } | undefined {
  if (!item) return undefined;
  const props = Object.keys(properties(item));
  const lower = new Map(props.map((p) => [p.toLowerCase(), p]));
  for (const name of KEY_NAMES) if (lower.has(name)) return { key: lower.get(name)!, why: `the record property "${lower.get(name)}"` };
  const singular = resource.toLowerCase().replace(/ies$/, 'y').replace(/s$/, '');
  for (const name of [`${singular}_id`, `${singular}id`])
    if (lower.has(name)) return { key: lower.get(name)!, why: `the record property "${lower.get(name)}" (named after the resource)` };
  return undefined;
}

const FORMATS = new Set(['date-time', 'date', 'email', 'uri', 'uuid']);
const MAX_DEPTH = 5;
// Schema nodes written per record schema: expandable objects (Stripe's) nest without end. The
// deepest nesting that fits is kept (levels below become `{}`, any value); past the budget at the
// shallowest depth, the remaining values become `{}` too.
export const MAX_NODES = 600;

/**
 * The record schema as Airbyte reads it: JSON Schema draft-07, `nullable: true` (3.0) and
 * `type: [x, 'null']` (3.1) both become a null-accepting type, `allOf` is merged, cycles and deep
 * nesting become `{}` (any value). Only structure is kept: no examples, descriptions or `$ref`.
 */
export function toRecordSchema(schema: Record<string, unknown>, maxNodes = MAX_NODES): Record<string, unknown> {
  let root: Record<string, unknown> = {};
  for (let depth = MAX_DEPTH; depth >= 1; depth--) {
    const budget = { left: Math.min(maxNodes, MAX_NODES), maxDepth: depth };
    root = convert(schema, 0, new Set(), budget);
    if (budget.left > 0) break;
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...root,
    ...(root.type === undefined ? { type: 'object' } : {}),
    additionalProperties: true,
  };
}

function convert(
  schema: Record<string, unknown>,
  depth: number,
  seen: Set<object>,
  budget: { left: number; maxDepth: number },
): Record<string, unknown> {
  if (seen.has(schema) || depth > budget.maxDepth || budget.left <= 0) return {};
  budget.left--;
  seen = new Set(seen).add(schema);
  const variants = [...(Array.isArray(schema.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema.anyOf) ? schema.anyOf : [])].map(obj);
  if (variants.length > 0 && !schema.type && !schema.properties) {
    const converted = variants.map((v) => convert(v, depth + 1, seen, budget)).filter((v) => Object.keys(v).length > 0);
    if (converted.length === 0 || converted.length !== variants.length) return {};
    return converted.length === 1 ? converted[0] : { anyOf: converted };
  }
  const props = properties(schema);
  const types = typesOf(schema, Object.keys(props).length > 0);
  const out: Record<string, unknown> = {};
  if (types.length > 0) out.type = types.length === 1 ? types[0] : types;
  if (typeof schema.format === 'string' && FORMATS.has(schema.format) && types.includes('string')) out.format = schema.format;
  if (types.includes('object') || Object.keys(props).length > 0) {
    const converted: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(props)) {
      // A key the manifest would read as a reference or as parameters cannot be written as is.
      if (name === '$ref' || name === '$parameters' || name === '__proto__') continue;
      Object.defineProperty(converted, name, {
        value: convert(obj(value), depth + 1, seen, budget),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (Object.keys(converted).length > 0) out.properties = converted;
  }
  if (types.includes('array') && schema.items && typeof schema.items === 'object') {
    const items = convert(obj(schema.items), depth + 1, seen, budget);
    if (Object.keys(items).length > 0) out.items = items;
  }
  return out;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

function typesOf(schema: Record<string, unknown>, hasProperties: boolean): string[] {
  let types: string[] = [];
  if (typeof schema.type === 'string') types = [schema.type];
  else if (Array.isArray(schema.type)) types = schema.type.filter((t): t is string => typeof t === 'string');
  else if (hasProperties) types = ['object'];
  else if (schema.items) types = ['array'];
  types = types.filter((t) => JSON_TYPES.has(t));
  if (types.length === 0) return [];
  if ((schema.nullable === true || schema['x-nullable'] === true) && !types.includes('null')) types.push('null');
  return [...new Set(types)];
}

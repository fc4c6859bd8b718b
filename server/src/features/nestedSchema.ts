// Mappings inside a catalog field whose shape is plain JSON schema rather than a component
// (`refresh_token_updater`, `jwt_headers`, `jwt_payload`…): which schema describes the mapping at a
// path, and its properties as FieldInfo, so completion and hover treat them like component fields.
import type { Segment } from '../model/manifestModel';
import { componentAt } from './componentPath';
import type { FieldInfo, FormatIndex } from './formatIndex';

type Schema = Record<string, unknown>;

/** How far above the mapping the owning component may be (field, nested objects, list items). */
const MAX_NESTING = 6;

function isMap(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The JSON schema that describes the mapping at `mapPath`, when it lies inside a raw-schema field of a component; else null. */
export function nestedSchemaAt(index: FormatIndex, root: unknown, mapPath: readonly Segment[]): Schema | null {
  for (let k = mapPath.length - 1; k >= Math.max(0, mapPath.length - MAX_NESTING); k--) {
    const owner = componentAt(index, root, mapPath.slice(0, k));
    if (owner.type === undefined) continue;
    const field = mapPath[k];
    const info = typeof field === 'string' ? index.field(owner.type, field) : undefined;
    if (!info?.schema) return null;
    let schema: Schema | null = info.schema;
    for (const segment of mapPath.slice(k + 1)) {
      schema = schema ? childSchema(schema, segment) : null;
    }
    return schema && schemaProperties(schema).length ? schema : null;
  }
  return null;
}

/** The schema of a property (string segment) or list item (number segment), looking through `anyOf`/`oneOf`. */
function childSchema(schema: Schema, segment: Segment): Schema | null {
  for (const s of [schema, ...branches(schema)]) {
    if (typeof segment === 'number' && isMap(s.items)) return s.items;
    if (typeof segment === 'string' && isMap(s.properties) && isMap(s.properties[segment])) return s.properties[segment] as Schema;
  }
  return null;
}

function branches(schema: Schema): Schema[] {
  return [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(isMap);
}

/** The properties a schema declares, as FieldInfo in schema order. */
export function schemaProperties(schema: Schema): { name: string; info: FieldInfo }[] {
  const out: { name: string; info: FieldInfo }[] = [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const s of [schema, ...branches(schema)]) {
    if (!isMap(s.properties)) continue;
    for (const [name, prop] of Object.entries(s.properties)) {
      if (isMap(prop) && !out.some((f) => f.name === name)) out.push({ name, info: schemaFieldInfo(prop, required.has(name)) });
    }
  }
  return out;
}

/** A JSON schema property seen as a catalog field. */
function schemaFieldInfo(prop: Schema, required: boolean): FieldInfo {
  const types = typeof prop.type === 'string' ? [prop.type] : Array.isArray(prop.type) ? prop.type.map(String) : undefined;
  return {
    description: typeof prop.description === 'string' ? prop.description : '',
    types: types as FieldInfo['types'],
    required: required || undefined,
    default: prop.default,
    enum: Array.isArray(prop.enum) ? (prop.enum as FieldInfo['enum']) : undefined,
    examples: Array.isArray(prop.examples)
      ? (prop.examples.filter((e) => ['string', 'number', 'boolean'].includes(typeof e)) as FieldInfo['examples'])
      : undefined,
  };
}

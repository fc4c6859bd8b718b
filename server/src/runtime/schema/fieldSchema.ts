// Turns catalog field definitions into JSON schema fragments. Used for the generated manifest schema
// (with `$ref`s to components) and for the per-component validators (components as plain objects).
import type { ComponentDef, FieldDef, JsonType } from './types';

type Schema = Record<string, unknown>;

/** How a component reference is rendered: a `$ref` in the published schema, `{type: object}` when validating. */
export type ComponentRef = (type: string) => Schema;

function scalarBranch(t: JsonType, f: FieldDef): Schema {
  if (t === 'array') return f.items ? { type: 'array', items: { type: f.items } } : { type: 'array' };
  if (f.enum && (t === 'string' || t === 'integer' || t === 'number')) {
    const values = f.enum.filter((v) => (t === 'string' ? typeof v === 'string' : typeof v === 'number'));
    if (values.length) return { type: t, enum: values };
  }
  return { type: t };
}

/** The JSON schema of one field. `ref` renders component slots. */
export function fieldSchema(f: FieldDef, ref: ComponentRef, withDocs: boolean): Schema {
  let schema: Schema;
  if (f.schema) {
    schema = { ...f.schema };
  } else {
    const branches: Schema[] = (f.types ?? []).map((t) => scalarBranch(t, f));
    const comps = f.components ?? [];
    if (comps.length) {
      const one = comps.length === 1 ? ref(comps[0]) : { anyOf: comps.map(ref) };
      if (f.list) {
        branches.push({ type: 'array', items: one });
        if (f.alsoSingle) branches.push(one);
      } else if (f.mapOf) {
        branches.push({ type: 'object', additionalProperties: one });
      } else {
        branches.push(one);
      }
    }
    schema = branches.length === 0 ? {} : branches.length === 1 ? { ...branches[0] } : { anyOf: branches };
  }
  if (withDocs) {
    schema.description = f.description;
    if (f.label) schema.title = f.label;
    if (f.default !== undefined) schema.default = f.default;
    if (f.deprecated) schema.deprecated = true;
    if (f.examples?.length) schema.examples = [...f.examples];
  }
  return schema;
}

/** The JSON schema of a component's own mapping (its fields; nested components rendered by `ref`). */
export function componentSchema(c: ComponentDef, ref: ComponentRef, withDocs: boolean): Schema {
  const properties: Schema = { type: { type: 'string', enum: [c.type] } };
  for (const [name, f] of Object.entries(c.fields)) properties[name] = fieldSchema(f, ref, withDocs);
  properties.$parameters = { type: 'object', additionalProperties: true };
  const required = [...(c.typeOptional ? [] : ['type']), ...Object.keys(c.fields).filter((k) => c.fields[k].required)];
  const schema: Schema = { type: 'object', required, properties, additionalProperties: true };
  if (withDocs) {
    if (c.label) schema.title = c.label;
    schema.description = c.description;
  }
  return schema;
}

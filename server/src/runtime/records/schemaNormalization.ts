// `schema_normalization: Default` (the CDK's TypeTransformer with DefaultSchemaNormalization): every
// selected record is cast, in place, to the types its stream's schema declares. The reference walks the
// schema with a jsonschema Draft 7 validator that only follows `properties` and `items` (not anyOf,
// additionalProperties, …), converts each property value / array item before descending into it, and
// keeps a value it cannot convert (its type warnings go to the Python logger only, not to the read).
//
// Python's float() of an integral value gives `900000.0`; a JavaScript number cannot keep that mark, so
// the value is the same number and is shown as `900000` (docs/fidelity.md, "Deliberate differences").
import { pyStr } from '../interpolation/values';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Normalizes `record` in place by `schema` (the root itself is not converted, only its properties and items). */
export function normalizeBySchema(record: Obj, schema: unknown): void {
  descend(record, schema, 0);
}

function descend(instance: unknown, schema: unknown, depth: number): void {
  if (!isObj(schema) || depth > 64) return;
  // Draft 7: a `$ref` hides its siblings (manifest references are resolved before a read anyway).
  if ('$ref' in schema) return;
  for (const key of Object.keys(schema)) {
    if (key === 'properties' && isObj(instance) && isObj(schema.properties)) {
      const properties = schema.properties;
      for (const k of Object.keys(properties)) if (k in instance) instance[k] = convert(instance[k], properties[k]);
      // The validator then descends into every property the record has.
      for (const k of Object.keys(properties)) if (k in instance) descend(instance[k], properties[k], depth + 1);
    } else if (key === 'items' && Array.isArray(instance) && isObj(schema.items)) {
      for (let i = 0; i < instance.length; i++) instance[i] = convert(instance[i], schema.items);
      for (const item of instance) descend(item, schema.items, depth + 1);
    }
  }
}

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** TypeTransformer.default_convert: the value cast to the subschema's single type, or unchanged. */
export function convert(value: unknown, subschema: unknown): unknown {
  if (!isObj(subschema)) return value;
  let target = subschema.type ?? [];
  if (value === null && (Array.isArray(target) ? target.includes('null') : false)) return null;
  if (Array.isArray(target)) {
    const types = target.filter((t) => t !== 'null');
    if (types.length !== 1) return value;
    target = types[0];
  }
  switch (target) {
    case 'string':
      return pyStr(value);
    case 'number':
      return pyFloat(value) ?? value;
    case 'integer':
      return pyInt(value) ?? value;
    case 'boolean':
      if (typeof value === 'string') {
        const b = strToBool(value);
        return b === null ? value : b;
      }
      return pyTruthy(value);
    case 'array': {
      // set(items.type): a string type is a set of its letters, which is never a subset of the simple types.
      const items = isObj(subschema.items) ? subschema.items.type : undefined;
      const itemTypes = items === undefined ? [] : typeof items === 'string' ? [...items] : Array.isArray(items) ? items : null;
      const simpleItems = itemTypes !== null && itemTypes.every((t) => typeof t === 'string' && SIMPLE_TYPES.has(t));
      const scalar = value === null || ['string', 'number', 'boolean'].includes(typeof value);
      return simpleItems && scalar ? [value] : value;
    }
    default:
      return value;
  }
}

// Python's int()/float() accept surrounding whitespace, a sign and `_` between digits.
const INT_TEXT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
const FLOAT_TEXT = /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:[eE][+-]?\d+(?:_\d+)*)?|\d+(?:_\d+)*\.(?:[eE][+-]?\d+(?:_\d+)*)?)\s*$/;
const SPECIAL_FLOAT = /^\s*([+-]?)(inf|infinity|nan)\s*$/i;

/** Python's float(value), or undefined where it raises ValueError / TypeError. */
function pyFloat(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  const special = SPECIAL_FLOAT.exec(value);
  if (special) return special[2].toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!FLOAT_TEXT.test(value)) return undefined;
  return Number(value.trim().replace(/_/g, ''));
}

/** Python's int(value), or undefined where it raises ValueError / TypeError (a float is truncated). */
function pyInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string' || !INT_TEXT.test(value)) return undefined;
  return Number(value.trim().replace(/_/g, ''));
}

const TRUTHY = ['y', 'yes', 't', 'true', 'on', '1'];
const FALSY = ['n', 'no', 'f', 'false', 'off', '0'];

/** The CDK's _strtobool, or null where it raises ValueError. */
function strToBool(value: string): boolean | null {
  const s = value.trim().toLowerCase();
  if (TRUTHY.includes(s)) return true;
  if (FALSY.includes(s)) return false;
  return null;
}

function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

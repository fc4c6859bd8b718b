// Inferred schema and datetime formats of a test read (§10.3), built from every record read.
import { getOwn, setOwn } from '../shared/safeObject';

type Schema = Record<string, unknown>;

/** Accumulates records and produces `inferred_schema` / `inferred_datetime_formats`. */
export class SchemaInferrer {
  private root: Schema | null = null;
  private formats = new Map<string, string | null>();

  add(record: unknown): void {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
    this.root = merge(this.root, record);
    for (const k in record as Record<string, unknown>) {
      const prev = this.formats.get(k);
      // A field that already mixed formats can never get one again: skip the regex work.
      if (prev === null) continue;
      const f = detectFormat((record as Record<string, unknown>)[k]);
      if (prev === undefined) this.formats.set(k, f);
      else if (prev !== f) this.formats.set(k, null);
    }
  }

  /** The JSON schema, or null when no record was read. Primary key / cursor paths are required. */
  schema(requiredPaths: string[][] = []): { schema: Schema | null; errors: string[] } {
    if (!this.root) return { schema: null, errors: [] };
    const body = finalize(this.root) as Schema;
    const schema: Schema = { $schema: 'http://json-schema.org/schema#', type: 'object', properties: body.properties ?? {} };
    const errors: string[] = [];
    for (const path of requiredPaths) {
      const e = markRequired(schema, path);
      if (e) errors.push(e);
    }
    return { schema, errors };
  }

  datetimeFormats(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, f] of this.formats) if (f) setOwn(out, k, f);
    return out;
  }
}

// Seen types as bits: records are many, so the accumulator avoids sets and strings.
const TYPE_BITS = ['null', 'array', 'number', 'boolean', 'object', 'string'] as const;

function typeBit(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (Array.isArray(v)) return 2;
  if (typeof v === 'number') return 4;
  if (typeof v === 'boolean') return 8;
  if (typeof v === 'object') return 16;
  return 32;
}

/** Accumulated shape: bits of seen types, object properties, array item shape. */
function merge(acc: Schema | null, v: unknown): Schema {
  const node: Schema = acc ?? { types: 0 };
  const bit = typeBit(v);
  node.types = (node.types as number) | bit;
  if (bit === 16) {
    const props = ((node.props as Record<string, Schema>) ??= {});
    // Own keys only, read and written as data: a record key `__proto__` is a field like any other.
    for (const k of Object.keys(v as Record<string, unknown>)) setOwn(props, k, merge((getOwn(props, k) as Schema | undefined) ?? null, (v as Record<string, unknown>)[k]));
  } else if (bit === 2) {
    for (const item of v as unknown[]) node.items = merge((node.items as Schema) ?? null, item);
  }
  return node;
}

function finalize(node: Schema): Schema | null {
  const types = TYPE_BITS.filter((t, i) => t !== 'null' && ((node.types as number) & (1 << i)) !== 0);
  // Spec §10.3: properties only ever seen as null are dropped.
  if (types.length === 0) return null;
  const out: Schema = { type: [...types.sort(), 'null'] };
  if (node.props) {
    const properties: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(node.props as Record<string, Schema>)) {
      const f = finalize(child);
      if (f) setOwn(properties, k, f);
    }
    out.properties = properties;
  }
  if (node.items) out.items = finalize(node.items as Schema) ?? {};
  return out;
}

function markRequired(schema: Schema, path: string[]): string | null {
  let cur = schema;
  for (const seg of path) {
    const props = cur.properties as Record<string, Schema> | undefined;
    const child = props?.[seg];
    if (!child) return `Cannot mark field ${path.join('.')} as required: it was not found in the records.`;
    const required = new Set((cur.required as string[]) ?? []);
    required.add(seg);
    cur.required = [...required];
    if (Array.isArray(child.type)) child.type = (child.type as string[]).filter((t) => t !== 'null');
    cur = child;
  }
  return null;
}

const FORMAT_TESTS: [string, RegExp][] = [
  ['%Y-%m-%d', /^\d{4}-\d{2}-\d{2}$/],
  ['%Y-%m-%d %H:%M:%S', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/],
  ['%Y-%m-%dT%H:%M:%SZ', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
  ['%Y-%m-%dT%H:%M:%S.%fZ', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,6}Z$/],
  ['%Y-%m-%d %H:%M:%S.%f%z', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{1,6}[+-]\d{2}:?\d{2}$/],
  ['%Y-%m-%dT%H:%M:%S.%f%z', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,6}[+-]\d{2}:?\d{2}$/],
  ['%d/%m/%Y %H:%M', /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/],
  ['%Y-%m', /^\d{4}-\d{2}$/],
  ['%d-%m-%Y', /^\d{2}-\d{2}-\d{4}$/],
];

/** Spec §10.3: first matching format in the reference's order; integers only in epoch ranges. */
function detectFormat(v: unknown): string | null {
  if (typeof v === 'number' && Number.isInteger(v)) {
    if (v >= 1e9 && v < 2e9) return '%s';
    if (v >= 1e12 && v < 2e12) return '%ms';
    return null;
  }
  // Every candidate format starts with a digit; most strings are rejected by this one check.
  if (typeof v !== 'string' || v.length < 7 || v.charCodeAt(0) < 48 || v.charCodeAt(0) > 57) return null;
  for (const [fmt, re] of FORMAT_TESTS) if (re.test(v) && validDate(v)) return fmt;
  return null;
}

function validDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(v) ?? /^(\d{2})[/-](\d{2})[/-](\d{4})/.exec(v);
  if (!m) return true;
  const [month, day] = m[1].length === 4 ? [Number(m[2]), Number(m[3] ?? 1)] : [Number(m[2]), Number(m[1])];
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

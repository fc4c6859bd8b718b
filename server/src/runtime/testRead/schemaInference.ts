// Inferred schema and datetime formats of a test read (§10.3). The schema is built from every record read;
// the datetime formats as the CDK's DatetimeFormatInferrer: candidates from the first record's top-level
// fields only, each dropped when a later record lacks the field or does not match its format.
import { getOwn, setOwn } from '../shared/safeObject';

type Schema = Record<string, unknown>;

/** Accumulates records and produces `inferred_schema` / `inferred_datetime_formats`. */
export class SchemaInferrer {
  private root: Schema | null = null;
  /** null until the first record; then the candidates left. */
  private formats: Map<string, string> | null = null;

  add(record: unknown): void {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
    this.root = merge(this.root, record);
    const data = record as Record<string, unknown>;
    if (this.formats === null) {
      this.formats = new Map();
      for (const k of Object.keys(data)) {
        const f = detectFormat(data[k]);
        if (f) this.formats.set(k, f);
      }
      return;
    }
    for (const [k, f] of this.formats) {
      const v = getOwn(data, k);
      if (v === null || v === undefined || !canBeDatetime(v) || !matchesFormat(v, f)) this.formats.delete(k);
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
    for (const [k, f] of this.formats ?? []) if (f) setOwn(out, k, f);
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
    for (const k of Object.keys(v as Record<string, unknown>))
      setOwn(props, k, merge((getOwn(props, k) as Schema | undefined) ?? null, (v as Record<string, unknown>)[k]));
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

/** The reference's _remove_null_from_type: null leaves the type list, and a single type left is a string. */
function removeNull(node: Schema): void {
  if (!Array.isArray(node.type)) return;
  const types = (node.type as string[]).filter((t) => t !== 'null');
  node.type = types.length === 1 ? types[0] : types;
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
    removeNull(child);
    cur = child;
  }
  return null;
}

// The reference's candidate formats, in its order; each is tried with Python's strptime rules.
const FORMATS = [
  '%Y-%m-%d',
  '%Y-%m-%d %H:%M:%S',
  '%Y-%m-%dT%H:%M:%SZ',
  '%Y-%m-%dT%H:%M:%S.%fZ',
  '%Y-%m-%d %H:%M:%S.%f%z',
  '%Y-%m-%dT%H:%M:%S.%f%z',
  '%s',
  '%ms',
  '%d/%m/%Y %H:%M',
  '%Y-%m',
  '%d-%m-%Y',
];

// Python's strptime patterns for the directives the candidates use (case-insensitive, whole string).
const DIRECTIVE: Record<string, string> = {
  Y: '(?<Y>\\d\\d\\d\\d)',
  m: '(?<m>1[0-2]|0[1-9]|[1-9])',
  d: '(?<d>3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])',
  H: '(?<H>2[0-3]|[0-1]\\d|\\d)',
  M: '(?<M>[0-5]\\d|\\d)',
  S: '(?<S>6[0-1]|[0-5]\\d|\\d)',
  f: '(?<f>[0-9]{1,6})',
  z: '(?<z>[+-]\\d\\d:?[0-5]\\d(:?[0-5]\\d(\\.\\d{1,6})?)?|Z)',
};
const STRPTIME = new Map<string, RegExp>();

function strptimeRegex(format: string): RegExp {
  let re = STRPTIME.get(format);
  if (!re) {
    let src = '';
    for (let i = 0; i < format.length; i++) {
      if (format[i] === '%' && DIRECTIVE[format[i + 1]]) src += DIRECTIVE[format[++i]];
      else if (/\s/.test(format[i])) src += '\\s+';
      else src += format[i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
    re = new RegExp(`^${src}$`, 'i');
    STRPTIME.set(format, re);
  }
  return re;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** datetime.strptime(str(value), format) succeeds (the day must exist in its month). */
function strptime(text: string, format: string): boolean {
  const m = strptimeRegex(format).exec(text);
  if (!m) return false;
  const g = m.groups ?? {};
  const year = g.Y ? Number(g.Y) : 1900;
  const month = g.m ? Number(g.m) : 1;
  const day = g.d ? Number(g.d) : 1;
  if (year < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 && !leap ? 28 : DAYS[month - 1])) return false;
  // Python accepts a leap second (61) in the pattern but datetime() refuses a second of 60 or 61.
  return !(g.S && Number(g.S) > 59);
}

/** Python's int(value) for a str or an int, or undefined where it raises ValueError. */
function intOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(v)) return Number(v.trim().replace(/_/g, ''));
  return undefined;
}

/** _can_be_datetime: a str or an int; a value int() accepts only inside the epoch-seconds or epoch-ms ranges. */
function canBeDatetime(v: unknown): boolean {
  if (typeof v === 'boolean') return false;
  if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) return false;
  const n = intOf(v);
  if (n === undefined) return typeof v === 'string';
  return (n >= 1e9 && n < 2e9) || (n >= 1e12 && n < 2e12);
}

/** DatetimeParser.parse(value, format) succeeds. */
function matchesFormat(v: unknown, format: string): boolean {
  if (format === '%s' || format === '%ms') {
    const n = intOf(v);
    if (n === undefined) return false;
    // datetime.fromtimestamp / the epoch plus a timedelta: only years 1..9999.
    const ms = format === '%s' ? n * 1000 : n;
    return ms >= -62135596800000 && ms <= 253402300799999;
  }
  if (typeof v !== 'string' && typeof v !== 'number') return false;
  return strptime(String(v), format);
}

/** The first candidate format the value matches, for a value that can be a datetime. */
function detectFormat(v: unknown): string | null {
  if (!canBeDatetime(v)) return null;
  for (const f of FORMATS) if (matchesFormat(v, f)) return f;
  return null;
}

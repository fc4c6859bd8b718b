// The reference's RecordSelector turns every selected record into a dict (`dict(record)` in
// `_normalize_by_schema`) when the stream has a schema. A record that is an object passes unchanged; a
// list of pairs becomes an object as Python builds it; anything else fails the slice with the reference's
// "An unexpected error occurred in stream …" and Python's own error text.
import { RuntimeError } from '../errors';
import { floatRepr, pyStr } from '../interpolation/values';
import { setOwn } from '../shared/safeObject';

type Obj = Record<string, unknown>;

/**
 * Selecting records failed part-way: the records before the failing one were already emitted. `endsRead`:
 * the reference fails the whole read there, not only the slice.
 */
export class RecordSelectionError extends RuntimeError {
  constructor(
    message: string,
    readonly records: Obj[],
    readonly endsRead = false,
  ) {
    super(message, 'system_error');
  }
}

/**
 * Without a schema the reference passes records on as they are, and a record that is not an object is taken
 * for a message: `stream_data_to_airbyte_message` raises "Unexpected type for data_or_message" in the main
 * thread, which ends the whole read (no later slice, no final state).
 */
export function recordsAreObjects(records: unknown[], stream: string): Obj[] {
  const index = records.findIndex((r) => r === null || typeof r !== 'object' || Array.isArray(r));
  if (index < 0) return records as Obj[];
  const bad = records[index];
  throw new RecordSelectionError(
    `Unexpected type for data_or_message: <class '${pythonTypeName(bad)}'>: ${pyStr(bad)}. Stream '${stream}': this record is ${describe(bad)}, not an object, and the reference CDK stops the read here; check that the extractor's field_path points at a list of objects.`,
    records.slice(0, index) as Obj[],
    true,
  );
}

/** The records of a stream: its name, whether it has a schema (then records become dicts), where to warn. */
export type RecordsAsDicts = {
  stream: string;
  schema: boolean;
  warn(message: string): void;
  /** `schema_normalization: Default`: casts a record (a copy) to the schema's types (schemaNormalization.ts). */
  normalize?: (record: Obj) => void;
};

/** `dict(record)` of every record, in order; throws RecordSelectionError at the first one Python refuses. */
export function recordsAsDicts(records: unknown[], how: RecordsAsDicts): Obj[] {
  const { stream } = how;
  const out: Obj[] = [];
  for (const record of records) {
    const converted = pythonDict(record);
    if (converted !== record && typeof converted !== 'string') {
      how.warn(
        `Stream '${stream}': a record was ${describe(record)}, not an object; the reference CDK turns it into an object with Python's dict() (each element a key/value pair), which is what is shown. Check that the extractor's field_path points at a list of objects.`,
      );
    }
    if (typeof converted === 'string') {
      const [errorClass, detail] = converted.split('|');
      throw new RecordSelectionError(
        `An unexpected error occurred in stream ${stream}: ${errorClass} (${detail}). The reference CDK turns each record into an object when the stream has a schema; ` +
          `this record is ${describe(record)}: check that the extractor's field_path points at a list of objects.`,
        out,
      );
    }
    if (how.normalize) {
      const copy = structuredClone(converted);
      how.normalize(copy);
      out.push(copy);
    } else out.push(converted);
  }
  return out;
}

/** Python's dict(value) for a JSON value: the dict, or "ErrorClass|message" as Python raises it. */
function pythonDict(value: unknown): Obj | string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Obj;
  if (value === null || typeof value === 'number' || typeof value === 'boolean')
    return `TypeError|'${pythonTypeName(value)}' object is not iterable`;
  const items: unknown[] = typeof value === 'string' ? [...value] : (value as unknown[]);
  const out: Obj = {};
  for (let i = 0; i < items.length; i++) {
    const pair = sequenceOf(items[i]);
    if (pair === null) return `TypeError|cannot convert dictionary update sequence element #${i} to a sequence`;
    if (pair.length !== 2) return `ValueError|dictionary update sequence element #${i} has length ${pair.length}; 2 is required`;
    const key = keyText(pair[0]);
    if (key === null) return `TypeError|unhashable type: '${pythonTypeName(pair[0])}'`;
    setOwn(out, key, pair[1]);
  }
  return out;
}

/** What iterating an element yields (a dict iterates its keys), or null when it is not iterable. */
function sequenceOf(v: unknown): unknown[] | null {
  if (typeof v === 'string') return [...v];
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object') return Object.keys(v);
  return null;
}

/** The JSON key of a Python dict key (json.dumps writes ints, floats, booleans and None as text); null if unhashable. */
function keyText(k: unknown): string | null {
  if (typeof k === 'string') return k;
  if (typeof k === 'number') return Number.isInteger(k) ? String(k) : floatRepr(k);
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  if (k === null) return 'null';
  return null;
}

function pythonTypeName(v: unknown): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  return Array.isArray(v) ? 'list' : 'dict';
}

function describe(v: unknown): string {
  const type = pythonTypeName(v);
  return type === 'list'
    ? 'a list'
    : type === 'str'
      ? 'a string'
      : type === 'NoneType'
        ? 'null'
        : `a ${type === 'bool' ? 'boolean' : 'number'}`;
}

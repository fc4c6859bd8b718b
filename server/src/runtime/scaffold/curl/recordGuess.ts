// Guesses from a recorded JSON response where the records are (the record selector's field_path: the
// array of objects, preferring the usual envelope names), their primary key (id, uuid, key…) and
// their schema (the test read's own SchemaInferrer over the sample).
import { SchemaInferrer } from '../../testRead/schemaInference';

export type RecordGuess = { fieldPath: string[]; primaryKey?: string; schema?: Record<string, unknown>; count: number; why: string };

const ENVELOPES = ['data', 'results', 'items', 'records', 'entries', 'values', 'objects', 'rows', 'list', 'hits'];
const KEYS = ['id', 'uuid', 'key', '_id', 'guid'];
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isRecordArray = (v: unknown): v is Record<string, unknown>[] => Array.isArray(v) && v.length > 0 && v.every(isRecord);

/** The guess, or null when the body is not JSON or holds no array of objects. Never throws. */
export function guessRecords(body: string | undefined, streamName: string): RecordGuess | null {
  if (!body) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const found = findArray(json, [], 0);
  if (!found) return isRecord(json) ? { ...describe([json], streamName), fieldPath: [], why: 'the response is one object' } : null;
  const why =
    found.path.length === 0 ? 'the response is an array of objects' : `the response's array of objects under ${found.path.join('.')}`;
  return { ...describe(found.records, streamName), fieldPath: found.path, why };
}

function describe(
  records: Record<string, unknown>[],
  streamName: string,
): { primaryKey?: string; schema?: Record<string, unknown>; count: number } {
  const sample = records.slice(0, 50);
  const singular = streamName.replace(/s$/, '');
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';
  const primaryKey = [...KEYS, `${singular}_id`].find((k) => sample.every((r) => Object.hasOwn(r, k) && scalar(r[k])));
  const inferrer = new SchemaInferrer();
  for (const r of sample) inferrer.add(r);
  const schema = inferrer.schema().schema ?? undefined;
  return { primaryKey, schema, count: records.length };
}

/** Breadth first, three levels at most: an envelope name wins at its level, else the longest array. */
function findArray(value: unknown, path: string[], depth: number): { path: string[]; records: Record<string, unknown>[] } | null {
  if (isRecordArray(value)) return { path, records: value };
  if (!isRecord(value) || depth > 2) return null;
  const arrays = Object.entries(value).filter(([, v]) => isRecordArray(v)) as [string, Record<string, unknown>[]][];
  const named = arrays.find(([k]) => ENVELOPES.includes(k.toLowerCase()));
  const best = named ?? arrays.sort((a, b) => b[1].length - a[1].length)[0];
  if (best) return { path: [...path, best[0]], records: best[1] };
  for (const [k, v] of Object.entries(value)) {
    const inner = findArray(v, [...path, k], depth + 1);
    if (inner) return inner;
  }
  return null;
}

// Regression comparison of a replayed read against its saved expectation: records matched by primary
// key (added, removed, changed fields) and the inferred schema (fields added, removed or retyped).
import type { StreamRead } from '../testRead/streamRead';

/** What `connector-manifest test --update` saves per stream. */
export type Expectation = {
  stream: string;
  primary_key: string[][];
  records: Record<string, unknown>[];
  inferred_schema: Record<string, unknown> | null;
};

export type RecordChange = { key: string; fields: { path: string; before: unknown; after: unknown }[] };

export type RegressionDiff = {
  added: string[];
  removed: string[];
  changed: RecordChange[];
  /** One line per schema difference, e.g. `+ price: number` or `~ id: integer → string`. */
  schema: string[];
};

/** The expectation of a read. */
export function expectationOf(stream: string, primaryKey: string[][], read: StreamRead): Expectation {
  return {
    stream,
    primary_key: primaryKey,
    records: read.slices.flatMap((s) => s.pages.flatMap((p) => p.records)),
    inferred_schema: read.inferred_schema ?? null,
  };
}

/** The stream's primary key as a list of field paths (`id`, `[id, region]`, `[[owner, id]]`). */
export function primaryKeyPaths(value: unknown): string[][] {
  if (typeof value === 'string' && value) return [[value]];
  if (!Array.isArray(value)) return [];
  return value.map((k) => (Array.isArray(k) ? k.map(String) : [String(k)])).filter((p) => p.length > 0);
}

function valueAt(record: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = record;
  for (const seg of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
  return node;
}

/** A record's identity: its primary key values, or the whole record when the stream has no primary key. */
function recordKey(record: Record<string, unknown>, pk: string[][]): string {
  if (pk.length === 0) return JSON.stringify(record);
  return pk.map((p) => `${p.join('.')}=${JSON.stringify(valueAt(record, p) ?? null)}`).join(', ');
}

/** Leaf values by dotted path; arrays are compared whole. */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, value);
  return out;
}

function indexRecords(records: Record<string, unknown>[], pk: string[][]): Map<string, Record<string, unknown>> {
  const byKey = new Map<string, Record<string, unknown>>();
  const seen = new Map<string, number>();
  for (const r of records) {
    let key = recordKey(r, pk);
    // Duplicate keys (a record read twice) stay distinct by their occurrence.
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key = `${key} (#${n})`;
    byKey.set(key, r);
  }
  return byKey;
}

/** Compares what was read with what was expected. */
export function compareWithExpectation(expected: Expectation, actual: Expectation): RegressionDiff {
  const pk = expected.primary_key.length ? expected.primary_key : actual.primary_key;
  const before = indexRecords(expected.records, pk);
  const after = indexRecords(actual.records, pk);
  const diff: RegressionDiff = { added: [], removed: [], changed: [], schema: [] };
  for (const key of after.keys()) if (!before.has(key)) diff.added.push(key);
  for (const [key, old] of before) {
    const now = after.get(key);
    if (!now) {
      diff.removed.push(key);
      continue;
    }
    const a = flatten(old, '', new Map());
    const b = flatten(now, '', new Map());
    const fields: RecordChange['fields'] = [];
    for (const path of new Set([...a.keys(), ...b.keys()])) {
      if (JSON.stringify(a.get(path)) !== JSON.stringify(b.get(path))) fields.push({ path, before: a.get(path), after: b.get(path) });
    }
    if (fields.length) diff.changed.push({ key, fields });
  }
  diff.schema = compareSchemas(expected.inferred_schema, actual.inferred_schema);
  return diff;
}

/** Field types of an inferred schema by dotted path (nested object properties included). */
function schemaFields(schema: Record<string, unknown> | null, prefix = '', out = new Map<string, string>()): Map<string, string> {
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [k, p] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${k}` : k;
    out.set(path, typeText(p));
    if (p && typeof p === 'object' && p.properties) schemaFields(p, path, out);
  }
  return out;
}

function typeText(p: Record<string, unknown>): string {
  const t = p?.type;
  const base = Array.isArray(t) ? t.join('|') : typeof t === 'string' ? t : JSON.stringify(p);
  return p?.format ? `${base} (${String(p.format)})` : base;
}

function compareSchemas(expected: Record<string, unknown> | null, actual: Record<string, unknown> | null): string[] {
  const a = schemaFields(expected);
  const b = schemaFields(actual);
  const out: string[] = [];
  for (const [path, t] of b) if (!a.has(path)) out.push(`+ ${path}: ${t}`);
  for (const [path, t] of a) {
    if (!b.has(path)) out.push(`- ${path}: ${t}`);
    else if (b.get(path) !== t) out.push(`~ ${path}: ${t} → ${b.get(path)}`);
  }
  const req = (s: Record<string, unknown> | null) => JSON.stringify([...((s?.required as string[] | undefined) ?? [])].sort());
  if (req(expected) !== req(actual)) out.push(`~ required: ${req(expected)} → ${req(actual)}`);
  return out;
}

export function isEmptyDiff(d: RegressionDiff): boolean {
  return !d.added.length && !d.removed.length && !d.changed.length && !d.schema.length;
}

/** The readable diff printed by `connector-manifest test`. */
export function formatDiff(stream: string, d: RegressionDiff): string {
  const lines = [
    `stream '${stream}': ${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed record${d.changed.length === 1 ? '' : 's'}; ${d.schema.length} schema change${d.schema.length === 1 ? '' : 's'}`,
  ];
  for (const k of d.added) lines.push(`  + record ${k}`);
  for (const k of d.removed) lines.push(`  - record ${k}`);
  for (const c of d.changed) {
    lines.push(`  ~ record ${c.key}`);
    for (const f of c.fields) lines.push(`      ${f.path}: ${show(f.before)} → ${show(f.after)}`);
  }
  for (const s of d.schema) lines.push(`  schema ${s}`);
  return `${lines.join('\n')}\n`;
}

function show(v: unknown): string {
  return v === undefined ? '(absent)' : JSON.stringify(v);
}

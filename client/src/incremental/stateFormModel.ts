// The input-state form's model (docs/incremental.md "Input state in the editor"), pure so the extension
// and the webview page share it: the form's values from a stream state and back, in the shape the CDK
// writes (airbyte_cdk/sources/streams/concurrent/cursor.py); datetimes written in the cursor's own datetime_format (a picked
// date/time is formatted with it; a typed value is checked against it).
import type { IncrementalStream } from '../../../server/src/protocol';

type Obj = Record<string, unknown>;

/** One per-partition row: the partition (JSON text of an object) and its cursor value. */
export type PartitionRow = { partition: string; value: string };

/** What the form edits. Values are text as the user sees them; `count` cursors hold digits. */
export type StateFormValues = {
  /** The cursor value of a single-cursor state, or the global `state` of a partitioned one ('' = none). */
  value: string;
  rows: PartitionRow[];
  /** `lookback_window` of a partitioned state, in seconds. */
  lookbackSeconds: number;
  /** Parent stream name → its state as JSON text ('' = none). */
  parents: Record<string, string>;
};

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v));

/** JSON with keys sorted at every level (how the CDK writes partitions). */
export function sortedJson(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : isObj(x)
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sort(x[k])]),
          )
        : x;
  return JSON.stringify(sort(v));
}

/**
 * The form's values for `state` (null: the empty form). `lastPartitions` (from the last read's slices) add a
 * row for each partition the state does not have yet, so every partition can be given a value.
 */
export function formFromState(cursor: IncrementalStream, state: Obj | null, lastPartitions: Obj[] = []): StateFormValues {
  const field = cursor.cursorField;
  const out: StateFormValues = { value: '', rows: [], lookbackSeconds: 0, parents: {} };
  for (const p of cursor.parents) out.parents[p.stream] = '';
  if (cursor.layout === 'single' || cursor.layout === 'none') {
    out.value = state ? text(state[field]) : '';
    return out;
  }
  if (state && !('states' in state) && !('state' in state) && field in state) out.value = text(state[field]);
  if (state && isObj(state.state)) out.value = text(state.state[field]);
  out.lookbackSeconds = typeof state?.lookback_window === 'number' ? state.lookback_window : 0;
  if (cursor.layout === 'per_partition') {
    const seen = new Set<string>();
    for (const s of (Array.isArray(state?.states) ? state.states : []) as Obj[]) {
      if (!isObj(s) || !isObj(s.partition)) continue;
      const key = sortedJson(s.partition);
      seen.add(key);
      out.rows.push({ partition: key, value: isObj(s.cursor) ? text(s.cursor[field]) : '' });
    }
    for (const p of lastPartitions) {
      const key = sortedJson(p);
      if (!seen.has(key)) {
        seen.add(key);
        out.rows.push({ partition: key, value: '' });
      }
    }
  }
  if (state && isObj(state.parent_state)) for (const [k, v] of Object.entries(state.parent_state)) out.parents[k] = JSON.stringify(v);
  return out;
}

/** The cursor value as the state holds it: a string for datetimes (the CDK formats them), a number for counts. */
function cursorValue(cursor: IncrementalStream, value: string): unknown {
  if (cursor.kind === 'count') return Number(value);
  return value;
}

/**
 * The stream state the form describes, or the problems that keep it from being one (each names the field).
 * An empty form is `null` (no input state: the read starts at start_datetime).
 */
export function stateFromForm(cursor: IncrementalStream, form: StateFormValues): { state: Obj | null } | { problems: string[] } {
  const field = cursor.cursorField;
  const problems: string[] = [];
  const check = (value: string, where: string) => {
    const problem = cursorValueProblem(cursor, value);
    if (problem) problems.push(`${where}: ${problem}`);
  };
  if (cursor.layout === 'single' || cursor.layout === 'none') {
    if (!form.value.trim()) return { state: null };
    check(form.value.trim(), field);
    return problems.length ? { problems } : { state: { [field]: cursorValue(cursor, form.value.trim()) } };
  }
  const out: Obj = { use_global_cursor: cursor.layout === 'global' };
  if (cursor.layout === 'per_partition') {
    const states: Obj[] = [];
    form.rows.forEach((row, i) => {
      if (!row.value.trim()) return;
      let partition: unknown;
      try {
        partition = JSON.parse(row.partition);
      } catch {
        problems.push(`partition ${i + 1}: not JSON (${row.partition})`);
        return;
      }
      if (!isObj(partition)) {
        problems.push(`partition ${i + 1}: must be an object`);
        return;
      }
      check(row.value.trim(), `partition ${sortedJson(partition)}`);
      states.push({ partition: JSON.parse(sortedJson(partition)), cursor: { [field]: cursorValue(cursor, row.value.trim()) } });
    });
    out.states = states;
  }
  if (form.value.trim()) {
    check(form.value.trim(), `global ${field}`);
    out.state = { [field]: cursorValue(cursor, form.value.trim()) };
  }
  if (!Number.isInteger(form.lookbackSeconds) || form.lookbackSeconds < 0)
    problems.push('lookback_window: a whole number of seconds, 0 or more');
  out.lookback_window = form.lookbackSeconds;
  const parents: Obj = {};
  for (const [name, raw] of Object.entries(form.parents)) {
    if (!raw.trim()) continue;
    try {
      const v = JSON.parse(raw);
      if (!isObj(v)) throw new Error('not an object');
      parents[name] = v;
    } catch {
      problems.push(`parent state of ${name}: a JSON object, e.g. {"updated_at": "…"}`);
    }
  }
  if (cursor.hasParentState && (Object.keys(parents).length || cursor.parents.length)) out.parent_state = parents;
  if (problems.length) return { problems };
  const empty = !form.value.trim() && !(out.states as unknown[] | undefined)?.length && !Object.keys(parents).length;
  return { state: empty ? null : out };
}

/** Why `value` is not a cursor value of this cursor; null when it is one. */
export function cursorValueProblem(cursor: IncrementalStream, value: string): string | null {
  if (cursor.kind === 'count') return /^[+-]?\d+$/.test(value) ? null : 'a whole number';
  const formats = cursor.parseFormats.length ? cursor.parseFormats : cursor.datetimeFormat ? [cursor.datetimeFormat] : [];
  if (!formats.length || formats.some((f) => formatPattern(f).test(value))) return null;
  return `not in the cursor's format ${formats.join(' or ')} (e.g. ${exampleOf(cursor)})`;
}

/** An example value in the cursor's datetime_format (2024-01-01T00:00:00 UTC). */
export function exampleOf(cursor: IncrementalStream): string {
  if (cursor.kind === 'count') return '100';
  return formatDatetime(new Date(Date.UTC(2024, 0, 1)), cursor.datetimeFormat ?? '%Y-%m-%dT%H:%M:%SZ');
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A UTC instant written with a CDK datetime_format (strftime directives plus %s, %ms, %s_as_float, %epoch_microseconds, %_ms). */
export function formatDatetime(d: Date, format: string): string {
  const ms = d.getTime();
  if (format === '%s') return String(Math.floor(ms / 1000));
  if (format === '%ms') return String(ms);
  if (format === '%s_as_float') return `${Math.floor(ms / 1000)}.0`;
  if (format === '%epoch_microseconds') return String(ms * 1000);
  const day = Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  const map: Record<string, string> = {
    Y: String(d.getUTCFullYear()),
    y: pad(d.getUTCFullYear() % 100),
    m: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    e: String(d.getUTCDate()).padStart(2, ' '),
    H: pad(d.getUTCHours()),
    I: pad(d.getUTCHours() % 12 || 12),
    p: d.getUTCHours() < 12 ? 'AM' : 'PM',
    M: pad(d.getUTCMinutes()),
    S: pad(d.getUTCSeconds()),
    f: pad(d.getUTCMilliseconds() * 1000, 6),
    z: '+0000',
    Z: 'UTC',
    j: pad(day, 3),
    b: MONTHS[d.getUTCMonth()].slice(0, 3),
    B: MONTHS[d.getUTCMonth()],
    a: DAYS[d.getUTCDay()].slice(0, 3),
    A: DAYS[d.getUTCDay()],
    '%': '%',
  };
  return format.replace(/%_ms|%(.)/g, (all, c: string | undefined) =>
    all === '%_ms' ? pad(d.getUTCMilliseconds(), 3) : c !== undefined && c in map ? map[c] : all,
  );
}

/** A regular expression matching the values a datetime_format writes (whole string). */
export function formatPattern(format: string): RegExp {
  if (format === '%s' || format === '%ms' || format === '%epoch_microseconds') return /^\d+$/;
  if (format === '%s_as_float') return /^\d+(\.\d+)?$/;
  const parts: Record<string, string> = {
    Y: '\\d{4}',
    y: '\\d{2}',
    m: '\\d{1,2}',
    d: '\\d{1,2}',
    e: ' ?\\d{1,2}',
    H: '\\d{1,2}',
    I: '\\d{1,2}',
    p: '(AM|PM|am|pm)',
    M: '\\d{1,2}',
    S: '\\d{1,2}',
    f: '\\d{1,6}',
    z: '(Z|[+-]\\d{2}:?\\d{2}(:?\\d{2})?)?',
    Z: '[A-Za-z]{0,5}',
    j: '\\d{1,3}',
    b: '[A-Za-z]{3}',
    B: '[A-Za-z]+',
    a: '[A-Za-z]{3}',
    A: '[A-Za-z]+',
    '%': '%',
  };
  let out = '';
  for (let i = 0; i < format.length; i++) {
    if (format.startsWith('%_ms', i)) {
      out += '\\d{3}';
      i += 3;
    } else if (format[i] === '%' && i + 1 < format.length) {
      const c = format[++i];
      out += parts[c] ?? `%${c}`;
    } else out += format[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

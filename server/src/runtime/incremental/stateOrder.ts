// Whether a stream state moved backwards from one state to the next: the cursor value, each partition's
// cursor, the global `state`, and every value of `parent_state` that both states hold and that orders
// (datetimes in the parent's format or ISO 8601, numbers). Pure; never throws.
import { parseCursorValue } from '../testRead/datetimeFormat';
import type { CursorPoint, IncrementalModel } from './incrementalStream';
import { partitionKey } from './slicePartition';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function cmp(a: CursorPoint, b: CursorPoint): number {
  if (a.kind === 'datetime' && b.kind === 'datetime') return a.dt.compare(b.dt);
  if (a.kind === 'count' && b.kind === 'count') return a.n - b.n;
  return 0;
}

/** Each way `after` holds an older value than `before`, as `where: old → new`. */
export function stateRegressions(model: IncrementalModel, before: Obj, after: Obj): string[] {
  const out: string[] = [];
  const field = model.cursorField;
  const check = (where: string, a: unknown, b: unknown) => {
    const pa = model.parse(a);
    const pb = model.parse(b);
    if (pa && pb && cmp(pb, pa) < 0) out.push(`${where}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  };
  if (field in before || field in after) check(field, before[field], after[field]);
  if (isObj(before.state) && isObj(after.state)) check(`state.${field}`, before.state[field], after.state[field]);
  if (Array.isArray(before.states) && Array.isArray(after.states)) {
    const later = new Map((after.states as Obj[]).filter(isObj).map((s) => [partitionKey(s.partition), s]));
    for (const s of (before.states as Obj[]).filter(isObj)) {
      const key = partitionKey(s.partition);
      const next = later.get(key);
      if (next) check(`partition ${key}`, (s.cursor as Obj | undefined)?.[field], (next.cursor as Obj | undefined)?.[field]);
    }
  }
  if (isObj(before.parent_state) && isObj(after.parent_state)) {
    for (const parent of model.parents) {
      const formats = parent.datetimeFormat ? [parent.datetimeFormat] : [];
      walk(before.parent_state[parent.stream], after.parent_state[parent.stream], `parent_state.${parent.stream}`, formats, out);
    }
  }
  return out;
}

/** Compares the leaves both parent states hold, at the same paths; partitions are matched by key. */
function walk(a: unknown, b: unknown, where: string, formats: string[], out: string[]): void {
  if (isObj(a) && isObj(b)) {
    if (Array.isArray(a.states) && Array.isArray(b.states)) {
      const later = new Map((b.states as unknown[]).filter(isObj).map((s) => [partitionKey(s.partition), s]));
      for (const s of (a.states as unknown[]).filter(isObj)) {
        const next = later.get(partitionKey(s.partition));
        if (next) walk(s.cursor, next.cursor, `${where} partition ${partitionKey(s.partition)}`, formats, out);
      }
    }
    for (const k of Object.keys(a))
      if (k !== 'states' && k !== 'lookback_window' && k in b) walk(a[k], b[k], `${where}.${k}`, formats, out);
    return;
  }
  const pa = orderable(a, formats);
  const pb = orderable(b, formats);
  if (pa !== null && pb !== null && pb < pa) out.push(`${where}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
}

/** A number that orders the value: epoch microseconds for a datetime, the value for a number. */
function orderable(v: unknown, formats: string[]): number | null {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return null;
  if (formats.length) {
    try {
      return Number(parseCursorValue(v, formats).epochMicros());
    } catch {
      // not in the parent's format
    }
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : ms * 1000;
  }
  return null;
}

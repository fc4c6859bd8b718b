// Where a slice of a read starts from, given the read's input state: the slice's partition (its descriptor
// less the cursor keys) and the lowest cursor value its records may have (airbyte_cdk/sources/streams/concurrent/cursor.py,
// §5.4): the partition's own cursor, else the global `state` less the runtime `lookback_window` seconds,
// then less the manifest's lookback_window.
import type { ReadRequest } from '../testRead/streamRead';
import type { CursorPoint, IncrementalModel } from './incrementalStream';

type Obj = Record<string, unknown>;

/** JSON with keys sorted at every level: how the CDK keys partitions. */
export function partitionKey(partition: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v as Obj)
          .sort()
          .map((k) => [k, sort((v as Obj)[k])]),
      );
    return v;
  };
  return JSON.stringify(sort(partition));
}

/** The partition of a slice descriptor: its keys less the cursor window's (null for an unpartitioned slice). */
export function partitionOfSlice(model: IncrementalModel, descriptor: unknown): Obj | null {
  if (!descriptor || typeof descriptor !== 'object') return null;
  const out: Obj = {};
  for (const [k, v] of Object.entries(descriptor as Obj)) if (k !== model.startKey && k !== model.endKey) out[k] = v;
  return Object.keys(out).length ? out : null;
}

/** The lowest cursor value the input state lets a record of `partition` have; null when the state sets none. */
export function boundForPartition(model: IncrementalModel, state: Obj, partition: Obj | null): CursorPoint | null {
  const field = model.cursorField;
  if (model.layout === 'single') {
    const p = model.parse(state[field]);
    return p ? model.lowerBound(p, 0) : null;
  }
  if (model.layout === 'per_partition' || model.layout === 'global') {
    // A legacy single-value state is the global value of every partition (§6.3: no `states`, no `state`).
    if (!('states' in state) && !('state' in state)) {
      const p = model.parse(state[field]);
      return p ? model.lowerBound(p, 0) : null;
    }
    const runtimeLookback = typeof state.lookback_window === 'number' ? state.lookback_window : 0;
    if (model.layout === 'per_partition' && partition && Array.isArray(state.states)) {
      const key = partitionKey(partition);
      const own = (state.states as Obj[]).find((s) => s && partitionKey(s.partition) === key);
      const p = own ? model.parse((own.cursor as Obj | undefined)?.[field]) : null;
      if (p) return model.lowerBound(p, 0);
    }
    const global = state.state && typeof state.state === 'object' ? model.parse((state.state as Obj)[field]) : null;
    return global ? model.lowerBound(global, runtimeLookback) : null;
  }
  return null;
}

/** `GET https://…` of a page's request ("no request" when there was none). */
export function requestText(request: ReadRequest | null): string {
  return request ? `${request.http_method} ${request.url}` : 'no request';
}

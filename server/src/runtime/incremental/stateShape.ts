// The shape of a stream state as the CDK writes it (airbyte_cdk/sources/streams/concurrent/cursor.py), checked against the
// stream's incremental description: which keys, which types, partitions with sorted keys, parseable cursor
// values, parent_state only where the router keeps one. Pure: returns the problems found, never throws.
import type { IncrementalModel } from './incrementalStream';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether every object in `v` has its keys in sorted order (the CDK's json.dumps(sort_keys=True) round trip). */
function keysSorted(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(keysSorted);
  if (!isObj(v)) return true;
  const keys = Object.keys(v);
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return keys.every((k) => keysSorted(v[k]));
}

/** Problems of a `{cursor_field: value}` cursor object at `where`. */
function cursorObjectProblems(model: IncrementalModel, cursor: unknown, where: string): string[] {
  if (!isObj(cursor)) return [`${where} must be an object {"${model.cursorField}": value}, got ${JSON.stringify(cursor)}`];
  if (!(model.cursorField in cursor))
    return Object.keys(cursor).length ? [`${where} has no "${model.cursorField}" key (keys: ${Object.keys(cursor).join(', ')})`] : [];
  const value = cursor[model.cursorField];
  if (model.kind === 'datetime' && typeof value !== 'string')
    return [
      `${where}.${model.cursorField} is ${JSON.stringify(value)}: the CDK writes a datetime cursor value as a string formatted with ${model.datetimeFormat}`,
    ];
  if (model.parse(value) === null)
    return [
      `${where}.${model.cursorField} = ${JSON.stringify(value)} does not parse with ${model.kind === 'datetime' ? model.parseFormats.join(' or ') : 'an integer'}`,
    ];
  return [];
}

/** The ways `state` differs from what the CDK writes for this stream; [] when it has that shape. */
export function stateShapeProblems(model: IncrementalModel, state: unknown): string[] {
  if (!isObj(state)) return [`the state must be an object, got ${JSON.stringify(state)}`];
  if (model.layout === 'none') {
    return state.__ab_no_cursor_state_message === true
      ? []
      : ['a stream without incremental_sync ends with {"__ab_no_cursor_state_message": true}'];
  }
  if (model.layout === 'single') return cursorObjectProblems(model, state, 'state');
  const problems: string[] = [];
  const allowed = new Set(['use_global_cursor', 'states', 'state', 'lookback_window', 'parent_state']);
  for (const k of Object.keys(state))
    if (!allowed.has(k))
      problems.push(
        `unexpected key "${k}" in a ${model.layout === 'global' ? 'global' : 'per-partition'} state (the CDK writes use_global_cursor, states, state, lookback_window, parent_state)`,
      );
  const wantGlobal = model.layout === 'global';
  if (state.use_global_cursor !== wantGlobal)
    problems.push(
      `use_global_cursor must be ${wantGlobal}${wantGlobal ? ' (global_substream_cursor or a GroupingPartitionRouter)' : ''}, got ${JSON.stringify(state.use_global_cursor)}`,
    );
  if (typeof state.lookback_window !== 'number' || !Number.isInteger(state.lookback_window) || state.lookback_window < 0)
    problems.push(`lookback_window must be a whole number of seconds, got ${JSON.stringify(state.lookback_window)}`);
  if ('state' in state) problems.push(...cursorObjectProblems(model, state.state, 'state.state'));
  if (wantGlobal) {
    if ('states' in state) problems.push('a global state has no "states" list');
  } else if (!Array.isArray(state.states)) {
    problems.push(`states must be a list of {partition, cursor}, got ${JSON.stringify(state.states)}`);
  } else {
    const seen = new Set<string>();
    state.states.forEach((entry, i) => {
      const where = `states[${i}]`;
      if (!isObj(entry)) {
        problems.push(`${where} must be {partition, cursor}`);
        return;
      }
      if (!isObj(entry.partition)) problems.push(`${where}.partition must be an object`);
      else {
        if (!keysSorted(entry.partition))
          problems.push(`${where}.partition ${JSON.stringify(entry.partition)} has its keys out of order (the CDK sorts them)`);
        if (model.routers.includes('SubstreamPartitionRouter') && !('parent_slice' in entry.partition))
          problems.push(`${where}.partition has no parent_slice (a substream partition carries one)`);
        const key = JSON.stringify(entry.partition);
        if (seen.has(key)) problems.push(`${where}: partition ${key} appears twice`);
        seen.add(key);
      }
      problems.push(...cursorObjectProblems(model, entry.cursor, `${where}.cursor`));
    });
  }
  if (!model.hasParentState) {
    if ('parent_state' in state)
      problems.push(`parent_state is only kept for a single SubstreamPartitionRouter (this stream's routers: ${model.routers.join(', ')})`);
  } else if ('parent_state' in state) {
    const parentState = state.parent_state;
    if (!isObj(parentState))
      problems.push(`parent_state must be an object keyed by parent stream name, got ${JSON.stringify(parentState)}`);
    else {
      const names = new Set(model.parents.map((p) => p.stream));
      for (const k of Object.keys(parentState)) {
        if (!names.has(k))
          problems.push(`parent_state has "${k}", which is not an incremental_dependency parent (${[...names].join(', ') || 'none'})`);
        else if (!isObj(parentState[k])) problems.push(`parent_state.${k} must be the parent's state object`);
      }
    }
  }
  return problems;
}

// IncrementingCountCursor as the reference runs it in a test read: a concurrent cursor over integers with no
// slice boundaries (airbyte_cdk/sources/declarative/concurrent_declarative_source.py). One slice `{start: <sync start>, end: ∞}`; start_value_option
// sends the start; the state `{cursor_field: highest value read}` is emitted after the slice only when a record
// had a value, and always at the end.
import type { RequestParts } from '../types';
import { configError } from '../errors';
import { createRequestOption } from '../http/requestOption';
import { evalString, pythonStr } from '../http/interpolatedValues';
import { stateMessage, type StreamCursor } from './streamCursor';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

export type CountCursor = StreamCursor & { inject(parts: RequestParts, cursorSlice: Obj): void };

/** Python's `int(str)` on the rendered start_value; a config error names the field otherwise. */
function toInt(text: string, what: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) throw configError(`${what}: invalid literal for int() with base 10: '${text}'`);
  return Number(text);
}

const less = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? a < b : String(a) < String(b));

export function incrementingCountCursor(name: string, component: Obj, inputState: Obj | null, rc: ReadContext): CountCursor {
  const ctx = { config: rc.config, parameters: (component.$parameters as Obj) ?? {} };
  const field = component.cursor_field !== undefined ? pythonStr(evalString(component.cursor_field, ctx, rc.env)) : '';
  const start =
    component.start_value === undefined || component.start_value === null
      ? 0
      : toInt(pythonStr(evalString(String(component.start_value), ctx, rc.env)), 'IncrementingCountCursor.start_value');
  const option = component.start_value_option
    ? createRequestOption(component.start_value_option as object, rc.config, {}, rc.requestOptionCompat)
    : null;
  const legacy: Obj = inputState ? { ...inputState } : {};
  const fromState = legacy[field];
  // A state value below the start is ignored, as for datetimes.
  const syncStart = fromState !== undefined && fromState !== null && !less(fromState, start) ? fromState : start;
  let mostRecent: unknown = null;
  let latest: unknown = syncStart;
  let warned = false;
  const state = (): Obj => ({ ...legacy, [field]: latest });
  return {
    async *slices() {
      // The end is float('inf') in the reference, which its JSON output cannot show: null here.
      yield { partition: {}, cursor_slice: { start: syncStart, end: null } };
    },
    observe(_slice, record) {
      const value = record[field];
      if (value === undefined || value === null) {
        if (!warned)
          rc.log(
            'WARN',
            `Could not find cursor field \`${field}\` in record for stream ${name}. The incremental sync will assume it needs to be synced`,
          );
        warned = true;
        return;
      }
      if (mostRecent === null || less(mostRecent, value)) mostRecent = value;
    },
    close() {
      // Without slice boundaries only a slice that read a (truthy) value is recorded, and only then is a state emitted.
      if (!mostRecent) return null;
      if (less(latest, mostRecent)) latest = mostRecent;
      return stateMessage(name, state());
    },
    finish: () => stateMessage(name, state()),
    shouldBeSynced: (_slice, record) => {
      const value = record[field];
      return value === undefined || value === null || !less(value, syncStart);
    },
    current: state,
    inject(parts, cursorSlice) {
      if (option && Object.keys(cursorSlice).length) option.inject(parts, cursorSlice.start);
    },
  };
}

// DatetimeBasedCursor slices for a test read: the interval from start_datetime to end_datetime (default
// now) cut by `step`, oldest first, each slice `{start_time, end_time}` formatted with datetime_format.
// State is not kept: a test read always starts from start_datetime, like a first sync.
import type { RequestParts } from '../types';
import { configError } from '../errors';
import { createRequestOption, type RequestOption } from '../http/requestOption';
import { evalString, pythonStr } from '../http/interpolatedValues';
import { addDuration, formatDatetime, parseDatetime, parseIsoDuration, type Duration } from './datetimeFormat';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

function tryParse(text: string, formats: string[]): Date | null {
  try {
    return parseDatetime(text, formats, 'slice start');
  } catch {
    return null;
  }
}

export type DatetimeCursor = {
  slices(): Generator<Obj>;
  inject(parts: RequestParts, cursorSlice: Obj): void;
  /** The rendered cursor_field: the record key holding the cursor value. */
  cursorField: string;
  /** The cursor slice key of the range start (partition_field_start, default `start_time`). */
  startKey: string;
  /**
   * Spec §7.8 SPLIT_USING_CURSOR: `cursorSlice` narrowed to start at `record`'s cursor value, or the
   * reason it cannot be narrowed (no value, unparsable, or not after the current start).
   */
  narrow(cursorSlice: Obj, record: Obj | null): { slice: Obj } | { reason: string };
};

/** Builds the cursor's slicing; throws a config error for another incremental_sync type or a bad step. */
export function createDatetimeCursor(component: Obj, rc: ReadContext): DatetimeCursor {
  if (component.type !== 'DatetimeBasedCursor') {
    throw configError(`incremental_sync ${JSON.stringify(component.type)} is not supported by this runtime (supported: DatetimeBasedCursor).`);
  }
  const parameters = (component.$parameters as Obj) ?? {};
  const ctx = { config: rc.config, parameters };
  const format = typeof component.datetime_format === 'string' ? component.datetime_format : null;
  if (!format) throw configError('DatetimeBasedCursor requires datetime_format.');
  const inputFormats = [...((component.cursor_datetime_formats as string[]) ?? []), format];
  const now = () => rc.env.now?.() ?? new Date();

  const resolveBound = (bound: unknown, fallback: Date | null, which: string): Date => {
    if (bound === undefined || bound === null) {
      if (fallback) return fallback;
      throw configError(`DatetimeBasedCursor requires ${which}.`);
    }
    const mm = typeof bound === 'object' ? (bound as Obj) : { datetime: bound };
    const fmts = typeof mm.datetime_format === 'string' ? [mm.datetime_format, ...inputFormats] : inputFormats;
    const render = (t: unknown) => pythonStr(evalString(t, { ...ctx, parameters: (mm.$parameters as Obj) ?? parameters }, rc.env));
    let d = parseDatetime(render(mm.datetime), fmts, `DatetimeBasedCursor.${which}`);
    if (mm.min_datetime) { const min = parseDatetime(render(mm.min_datetime), fmts, `${which}.min_datetime`); if (d < min) d = min; }
    if (mm.max_datetime) { const max = parseDatetime(render(mm.max_datetime), fmts, `${which}.max_datetime`); if (d > max) d = max; }
    return d;
  };

  const step: Duration | null = component.step ? parseIsoDuration(pythonStr(evalString(component.step, ctx, rc.env))) : null;
  const granularity: Duration | null = component.cursor_granularity ? parseIsoDuration(String(component.cursor_granularity)) : null;
  if ((step === null) !== (granularity === null)) throw configError('DatetimeBasedCursor: step and cursor_granularity must be set together.');
  const startKey = component.partition_field_start ? pythonStr(evalString(component.partition_field_start, ctx, rc.env)) : 'start_time';
  const endKey = component.partition_field_end ? pythonStr(evalString(component.partition_field_end, ctx, rc.env)) : 'end_time';
  const startOption: RequestOption | null = component.start_time_option ? createRequestOption(component.start_time_option as object, rc.config, {}, rc.requestOptionCompat) : null;
  const endOption: RequestOption | null = component.end_time_option ? createRequestOption(component.end_time_option as object, rc.config, {}, rc.requestOptionCompat) : null;
  const cursorField = component.cursor_field ? pythonStr(evalString(component.cursor_field, ctx, rc.env)) : '';

  return {
    *slices() {
      const start = resolveBound(component.start_datetime, null, 'start_datetime');
      const end = resolveBound(component.end_datetime, now(), 'end_datetime');
      if (start > end) return;
      if (!step || !granularity) {
        yield { [startKey]: formatDatetime(start, format), [endKey]: formatDatetime(end, format) };
        return;
      }
      let cur = start;
      for (let i = 0; i < 100_000 && cur <= end; i++) {
        const next = addDuration(cur, step, 1);
        if (next.getTime() <= cur.getTime()) throw configError('DatetimeBasedCursor.step must be a positive duration.');
        const sliceEnd = new Date(Math.min(addDuration(next, granularity, -1).getTime(), end.getTime()));
        yield { [startKey]: formatDatetime(cur, format), [endKey]: formatDatetime(sliceEnd, format) };
        cur = next;
      }
    },
    inject(parts, cursorSlice) {
      if (startOption && cursorSlice[startKey] !== undefined) startOption.inject(parts, cursorSlice[startKey]);
      if (endOption && cursorSlice[endKey] !== undefined) endOption.inject(parts, cursorSlice[endKey]);
    },
    cursorField,
    startKey,
    narrow(cursorSlice, record) {
      if (!cursorField) return { reason: 'the DatetimeBasedCursor has no cursor_field' };
      const raw = record ? record[cursorField] : undefined;
      if (raw === undefined || raw === null || raw === '') return { reason: `no record with a value in '${cursorField}' was read in this attempt` };
      let value: Date;
      try {
        value = parseDatetime(pythonStr(raw), inputFormats, `cursor value of '${cursorField}'`);
      } catch (e) {
        return { reason: (e as Error).message };
      }
      const newStart = formatDatetime(value, format);
      const current = cursorSlice[startKey];
      const currentDate = typeof current === 'string' ? tryParse(current, [format]) : null;
      // The new range must start strictly later, or the next attempt would read the same records again.
      if (newStart === current || (currentDate && value.getTime() <= currentDate.getTime())) {
        return { reason: `the last '${cursorField}' read (${JSON.stringify(pythonStr(raw))}) does not move the slice start past ${JSON.stringify(current)}` };
      }
      return { slice: { ...cursorSlice, [startKey]: newStart } };
    },
  };
}

// DatetimeBasedCursor as the reference runs it in a test read: a concurrent cursor (airbyte_cdk/sources/declarative/incremental/
// §2, §6.3). The definition renders the manifest fields once; each cursor made from it slices its range
// into windows, observes the records of each window, keeps the closed windows as merged intervals and
// states the value it would checkpoint: the highest cursor value of the first contiguous interval.
import type { RequestParts } from '../types';
import { configError } from '../errors';
import { createRequestOption, type RequestOption } from '../http/requestOption';
import { evalString, pythonStr } from '../http/interpolatedValues';
import { PyTimedelta, type PyDateTime } from '../interpolation/datetime';
import {
  addGap,
  createClamping,
  formatCursorValue,
  maxDt,
  minDt,
  nowUtc,
  parseBound,
  parseCursorValue,
  parseGap,
  type Clamping,
  type Gap,
} from './datetimeFormat';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

/** One concurrent cursor: its windows, what it has seen, and its state. */
export type WindowCursor = {
  /** The sync start: the state value when it is not before start_datetime, else start_datetime. */
  readonly start: PyDateTime;
  /** The windows, oldest first, as cursor slices `{start_key, end_key}` of strings. */
  slices(): Generator<Obj>;
  /** Remembers the record's cursor value for the window `cursorSlice` (a record without one is logged once). */
  observe(record: Obj, cursorSlice: Obj): void;
  /** Window `cursorSlice` was read completely: it joins the synced intervals. */
  close(cursorSlice: Obj): void;
  /** The sequential state `{cursor_field: value}` (plus the other keys of an input legacy state). */
  state(): Obj;
  /** The inclusive check `start ≤ value ≤ end` of client-side incremental and data feeds (§3, §4). */
  shouldBeSynced(record: Obj): boolean;
};

/** A stream's DatetimeBasedCursor: rendered fields, request injection and the cursors made from it. */
export type DatetimeCursor = {
  /** The rendered cursor_field: the record key holding the cursor value (top level only). */
  cursorField: string;
  /** The cursor slice key of the range start (partition_field_start, default `start_time`). */
  startKey: string;
  endKey: string;
  isDataFeed: boolean;
  isClientSideIncremental: boolean;
  inject(parts: RequestParts, cursorSlice: Obj): void;
  /**
   * A cursor from a sequential input state (null for none); `runtimeLookbackSeconds` is subtracted from
   * the state value first (per-partition cursors created from a global state).
   */
  create(state: Obj | null, runtimeLookbackSeconds?: number): WindowCursor;
  /** The converter's parse_value (cursor_datetime_formats, then datetime_format); throws RangeError. */
  parse(value: unknown): PyDateTime;
  format(dt: PyDateTime): string;
  /**
   * Spec §7.8 SPLIT_USING_CURSOR: `cursorSlice` narrowed to start at `record`'s cursor value, or the
   * reason it cannot be narrowed (no value, unparsable, or not after the current start).
   */
  narrow(cursorSlice: Obj, record: Obj | null): { slice: Obj } | { reason: string };
};

type Interval = { start: PyDateTime; end: PyDateTime; mostRecent: PyDateTime | null };

/** Builds the cursor definition; throws a config error for another incremental_sync type or bad fields. */
export function createDatetimeCursor(component: Obj, rc: ReadContext, streamName = ''): DatetimeCursor {
  if (component.type !== 'DatetimeBasedCursor') {
    throw configError(
      `incremental_sync ${JSON.stringify(component.type)} is not supported by this runtime (supported: DatetimeBasedCursor).`,
    );
  }
  const parameters = (component.$parameters as Obj) ?? {};
  const ctx = { config: rc.config, parameters };
  const render = (t: unknown) => pythonStr(evalString(t, ctx, rc.env));
  const format = typeof component.datetime_format === 'string' ? component.datetime_format : null;
  if (!format) throw configError('DatetimeBasedCursor requires datetime_format.');
  const inputFormats = [...((component.cursor_datetime_formats as string[]) ?? []), format];

  // start_datetime / end_datetime: a MinMaxDatetime's own format, else the cursor's (§2.1).
  const resolveBound = (bound: unknown, which: string): PyDateTime => {
    const mm = typeof bound === 'object' && bound !== null ? (bound as Obj) : { datetime: bound };
    const fmts = typeof mm.datetime_format === 'string' && mm.datetime_format ? [mm.datetime_format] : [format];
    const renderBound = (t: unknown) =>
      pythonStr(evalString(t, { config: rc.config, parameters: (mm.$parameters as Obj) ?? parameters }, rc.env));
    const read = (text: string, field: string) =>
      parseBound(text, fmts, `DatetimeBasedCursor.${field}`, inputFormats, (m) => rc.log('WARN', m));
    let d = read(renderBound(mm.datetime), which);
    const min = mm.min_datetime ? renderBound(mm.min_datetime) : '';
    if (min) d = maxDt(d, read(min, `${which}.min_datetime`));
    const max = mm.max_datetime ? renderBound(mm.max_datetime) : '';
    if (max) d = minDt(d, read(max, `${which}.max_datetime`));
    return d;
  };

  if (component.start_datetime === undefined || component.start_datetime === null)
    throw configError('DatetimeBasedCursor requires start_datetime.');
  if (Boolean(component.step) !== Boolean(component.cursor_granularity)) {
    throw configError(
      `If step is defined, cursor_granularity should be as well and vice-versa. Right now, step is \`${component.step ?? 'None'}\` and cursor_granularity is \`${component.cursor_granularity ?? 'None'}\``,
    );
  }
  const stepText = component.step ? render(component.step) : '';
  const step: Gap | null = stepText ? parseGap(stepText, 'DatetimeBasedCursor.step') : null;
  const granularity: Gap | null = component.cursor_granularity
    ? parseGap(String(component.cursor_granularity), 'DatetimeBasedCursor.cursor_granularity')
    : null;
  const lookbackText = component.lookback_window ? render(component.lookback_window) : '';
  const lookback: Gap | null = lookbackText ? parseGap(lookbackText, 'DatetimeBasedCursor.lookback_window') : null;
  const startKey = render(component.partition_field_start ?? 'start_time');
  const endKey = render(component.partition_field_end ?? 'end_time');
  const startOption: RequestOption | null = component.start_time_option
    ? createRequestOption(component.start_time_option as object, rc.config, {}, rc.requestOptionCompat)
    : null;
  const endOption: RequestOption | null = component.end_time_option
    ? createRequestOption(component.end_time_option as object, rc.config, {}, rc.requestOptionCompat)
    : null;
  const cursorField = component.cursor_field ? render(component.cursor_field) : '';
  let clamping: Clamping | null = null;
  if (component.clamping && typeof component.clamping === 'object') {
    const c = component.clamping as Obj;
    clamping = createClamping(render(c.target), c.target_details);
  }
  // Evaluated once when the stream is built, like the reference (a bad start fails the whole read).
  const startDatetime = resolveBound(component.start_datetime, 'start_datetime');
  const endProvider = (): PyDateTime => {
    const raw =
      component.end_datetime === undefined || component.end_datetime === null
        ? nowUtc(rc.env.now?.() ?? new Date())
        : resolveBound(component.end_datetime, 'end_datetime');
    if (!clamping) return raw;
    return addGap(clamping.floor(raw), granularity ?? clamping.defaultGranularity, -1);
  };
  // Adjacent intervals merge when the next starts within one granularity (1 ms without one).
  const increment: Gap = granularity ?? new PyTimedelta(1000n);

  const parse = (value: unknown) => parseCursorValue(value, inputFormats);
  const fmt = (dt: PyDateTime) => formatCursorValue(dt, format);
  const warnMissing = () =>
    rc.log(
      'WARN',
      `Could not find cursor field \`${cursorField}\` in record for stream ${streamName}. The incremental sync will assume it needs to be synced`,
    );

  function create(inputState: Obj | null, runtimeLookbackSeconds = 0): WindowCursor {
    const legacy: Obj = inputState ? { ...inputState } : {};
    let syncStart = startDatetime;
    const stateValue = legacy[cursorField];
    if (stateValue !== undefined && stateValue !== null) {
      let fromState: PyDateTime;
      try {
        fromState = parse(stateValue);
      } catch (e) {
        throw configError(
          `The input state of stream '${streamName}' has ${cursorField} = ${JSON.stringify(stateValue)}: ${(e as Error).message}.`,
        );
      }
      if (runtimeLookbackSeconds) {
        fromState = fromState.plusMicros(-BigInt(Math.round(runtimeLookbackSeconds * 1e6)));
        legacy[cursorField] = fmt(fromState);
      }
      if (fromState.compare(startDatetime) >= 0) syncStart = fromState;
    }
    // The prior syncs' range: from start_datetime to the sync start (§2.2).
    let intervals: Interval[] = [{ start: startDatetime, end: syncStart, mostRecent: syncStart }];
    const mostRecent = new Map<string, PyDateTime>();

    const window = (lower: PyDateTime, upper: PyDateTime, reduce: boolean): Obj => ({
      [startKey]: fmt(lower),
      [endKey]: fmt(reduce && granularity ? addGap(upper, granularity, -1) : upper),
    });
    const clamp = (dt: PyDateTime) => (clamping ? clamping.ceil(dt) : dt);

    function* split(lowerIn: PyDateTime, upper: PyDateTime, upperIsEnd: boolean): Generator<Obj> {
      if (lowerIn.compare(upper) >= 0) return;
      if (upper.compare(startDatetime) < 0) return;
      const lower = maxDt(lowerIn, startDatetime);
      if (!step || addGap(lower, step, 1).compare(upper) >= 0) {
        yield window(clamp(lower), clamp(upper), !upperIsEnd);
        return;
      }
      let current = lower;
      for (let guard = 0; guard < 1_000_000; guard++) {
        const next = addGap(current, step, 1);
        if (next.compare(current) <= 0) throw configError('DatetimeBasedCursor.step must be a positive duration.');
        const currentUpper = minDt(next, upper);
        const reached = currentUpper.compare(upper) >= 0;
        const clampedUpper = currentUpper.compare(upper) !== 0 ? clamp(currentUpper) : currentUpper;
        const clampedLower = clamp(current);
        // Clamping collapsed the window: nothing left to read.
        if (clampedLower.compare(clampedUpper) >= 0) return;
        yield window(clampedLower, clampedUpper, !upperIsEnd || !reached);
        current = clampedUpper;
        if (reached) return;
      }
    }

    const merge = (list: Interval[]): Interval[] => {
      const sorted = [...list].sort((a, b) => a.start.compare(b.start) || a.end.compare(b.end));
      const out: Interval[] = [];
      for (const cur of sorted) {
        const last = out[out.length - 1];
        if (last && addGap(last.end, increment, 1).compare(cur.start) >= 0) {
          last.end = maxDt(last.end, cur.end);
          last.mostRecent =
            last.mostRecent && cur.mostRecent ? maxDt(last.mostRecent, cur.mostRecent) : (cur.mostRecent ?? last.mostRecent);
        } else {
          out.push({ ...cur });
        }
      }
      return out;
    };
    const lastLower = (end: PyDateTime) => (lookback ? addGap(end, lookback, -1) : end);
    let warned = false;
    const valueOf = (record: Obj): PyDateTime | null => {
      const raw = record[cursorField];
      if (raw === undefined || raw === null) return null;
      try {
        return parse(raw);
      } catch {
        return null;
      }
    };

    return {
      start: syncStart,
      *slices() {
        intervals = merge(intervals);
        if (startDatetime.compare(intervals[0].start) < 0) yield* split(startDatetime, intervals[0].start, false);
        for (let i = 0; i < intervals.length - 1; i++) {
          yield* split(granularity ? addGap(intervals[i].end, granularity, 1) : intervals[i].end, intervals[i + 1].start, false);
        }
        yield* split(lastLower(intervals[intervals.length - 1].end), endProvider(), true);
      },
      observe(record, cursorSlice) {
        const value = valueOf(record);
        if (!value) {
          if (!warned) warnMissing();
          warned = true;
          return;
        }
        const key = JSON.stringify(cursorSlice);
        const known = mostRecent.get(key);
        if (!known || known.compare(value) < 0) mostRecent.set(key, value);
      },
      close(cursorSlice) {
        let start: PyDateTime;
        let end: PyDateTime;
        try {
          start = parse(cursorSlice[startKey]);
          end = parse(cursorSlice[endKey]);
        } catch {
          // A window this runtime cannot read back (a directive its strptime lacks) leaves the state as it was.
          return;
        }
        intervals = merge([...intervals, { start, end, mostRecent: mostRecent.get(JSON.stringify(cursorSlice)) ?? null }]);
      },
      state() {
        const first = intervals[0];
        return { ...legacy, [cursorField]: fmt(first.mostRecent ?? first.start) };
      },
      shouldBeSynced(record) {
        const raw = record[cursorField];
        let value: PyDateTime | null = null;
        if (raw !== undefined && raw !== null) {
          try {
            value = parse(raw);
          } catch {
            value = null;
          }
        }
        if (!value) {
          if (!warned) warnMissing();
          warned = true;
          return true;
        }
        return syncStart.compare(value) <= 0 && value.compare(endProvider()) <= 0;
      },
    };
  }

  return {
    cursorField,
    startKey,
    endKey,
    isDataFeed: component.is_data_feed === true,
    isClientSideIncremental: component.is_client_side_incremental === true,
    inject(parts, cursorSlice) {
      // Spec §2.6: start first, then end; nothing for an empty slice.
      if (startOption && cursorSlice[startKey] !== undefined) startOption.inject(parts, cursorSlice[startKey]);
      if (endOption && cursorSlice[endKey] !== undefined) endOption.inject(parts, cursorSlice[endKey]);
    },
    create,
    parse,
    format: fmt,
    narrow(cursorSlice, record) {
      if (!cursorField) return { reason: 'the DatetimeBasedCursor has no cursor_field' };
      const raw = record ? record[cursorField] : undefined;
      if (raw === undefined || raw === null || raw === '')
        return { reason: `no record with a value in '${cursorField}' was read in this attempt` };
      let value: PyDateTime;
      try {
        value = parse(raw);
      } catch (e) {
        return { reason: `cannot parse ${JSON.stringify(pythonStr(raw))} in '${cursorField}' as a datetime (${(e as Error).message})` };
      }
      const newStart = fmt(value);
      const current = cursorSlice[startKey];
      let currentDate: PyDateTime | null = null;
      try {
        currentDate = typeof current === 'string' ? parse(current) : null;
      } catch {
        currentDate = null;
      }
      // The new range must start strictly later, or the next attempt would read the same records again.
      if (newStart === current || (currentDate && value.compare(currentDate) <= 0)) {
        return {
          reason: `the last '${cursorField}' read (${JSON.stringify(pythonStr(raw))}) does not move the slice start past ${JSON.stringify(current)}`,
        };
      }
      return { slice: { ...cursorSlice, [startKey]: newStart } };
    },
  };
}

// DatetimeBasedCursor values as the reference's concurrent cursor handles them: Python datetimes that
// keep microseconds and the UTC offset they were written with (interpolation/datetime.ts), the CDK's
// DatetimeParser formats (%s, %ms, %s_as_float, %epoch_microseconds, %_ms), ISO 8601 gaps, and the
// clamping strategies (airbyte_cdk/sources/streams/concurrent/clamping.py, §2.5).
import { configError } from '../errors';
import { PyDateTime, PyDuration, PyTimedelta, parseIsoDuration as parsePyDuration } from '../interpolation/datetime';
import { formatWithFormat, isoparse, parseWithFormat } from '../interpolation/datetimeFormat';

/** A step, granularity or lookback: an exact timedelta, or a calendar duration (P1M, P1Y). */
export type Gap = PyTimedelta | PyDuration;

const DAY_US = 86_400_000_000n;

/** Parses an ISO 8601 duration field (`P1D`, `PT0.000001S`, `P1M`); a config error names the field. */
export function parseGap(text: string, what: string): Gap {
  try {
    return parsePyDuration(text.trim());
  } catch {
    throw configError(`${what}: invalid ISO 8601 duration ${JSON.stringify(text)} (expected e.g. P1D, PT1H, PT0.000001S, P1M).`);
  }
}

/** `dt + sign·gap`, calendar months first (day clamped to the month's end), as isodate does. */
export function addGap(dt: PyDateTime, gap: Gap, sign: 1 | -1): PyDateTime {
  return gap instanceof PyDuration ? gap.applyTo(dt, sign) : dt.plusMicros(BigInt(sign) * gap.micros);
}

export function compareDt(a: PyDateTime, b: PyDateTime): number {
  return a.compare(b);
}
export const minDt = (a: PyDateTime, b: PyDateTime): PyDateTime => (a.compare(b) <= 0 ? a : b);
export const maxDt = (a: PyDateTime, b: PyDateTime): PyDateTime => (a.compare(b) >= 0 ? a : b);

/**
 * The converter's parse_value: each format in order (cursor_datetime_formats, then datetime_format);
 * the first that parses wins. Throws RangeError with the reference's message when none does.
 */
export function parseCursorValue(value: unknown, formats: string[]): PyDateTime {
  for (const f of formats) {
    try {
      return parseWithFormat(epochInteger(value, f), f);
    } catch {
      // next format
    }
  }
  throw new RangeError(`No format in ${pyList(formats)} matching ${String(value)}`);
}

/** `%s`, `%ms` and `%epoch_microseconds` go through Python's int(): a number is truncated, a string must be an integer. */
function epochInteger(value: unknown, format: string): unknown {
  if (format !== '%s' && format !== '%ms' && format !== '%epoch_microseconds') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : value;
  if (typeof value === 'string' && !/^\s*[+-]?\d+\s*$/.test(value))
    throw new RangeError(`invalid literal for int() with base 10: '${value}'`);
  return value;
}

/**
 * start_datetime / end_datetime / min / max, parsed with `formats` (the bound's own datetime_format, else the
 * cursor's) as the reference does. A value only the cursor's other formats or ISO 8601 can read is still
 * read, and `onLenient` is told with the reference's own error (which would fail the Builder's read).
 */
export function parseBound(
  text: string,
  formats: string[],
  what: string,
  fallbackFormats: string[] = [],
  onLenient?: (message: string) => void,
): PyDateTime {
  try {
    return parseCursorValue(text, formats);
  } catch {
    const strictError = `time data '${text}' does not match format '${formats[0]}'`;
    let found: { dt: PyDateTime; how: string } | null = null;
    for (const f of fallbackFormats.filter((x) => !formats.includes(x))) {
      try {
        found = { dt: parseWithFormat(text, f), how: `format '${f}'` };
        break;
      } catch {
        // next format
      }
    }
    if (!found) {
      try {
        const iso = isoparse(text.trim());
        found = { dt: iso.offsetMinutes === null ? iso.withOffset(0) : iso, how: 'ISO 8601' };
      } catch {
        throw configError(`${what}: ${strictError} (the Airbyte CDK fails the read here). Give a value in that format.`);
      }
    }
    onLenient?.(
      `${what}: ${strictError}. The Airbyte CDK fails the read with this error; this test read went on, reading the value as ${found.how}. Give a value in '${formats[0]}' (or set the bound's datetime_format).`,
    );
    return found.dt;
  }
}

/** The DatetimeParser's format (strings for every format, epoch ones included). */
export function formatCursorValue(dt: PyDateTime, format: string): string {
  return formatWithFormat(dt, format);
}

/** Now, as an aware UTC datetime with microseconds. */
export function nowUtc(date: Date): PyDateTime {
  return PyDateTime.fromDate(date);
}

function pyList(items: string[]): string {
  return `[${items.map((s) => `'${s}'`).join(', ')}]`;
}

/** A clamping strategy: `ceil` moves window edges, `floor` the end (§2.4). */
export type Clamping = { ceil(dt: PyDateTime): PyDateTime; floor(dt: PyDateTime): PyDateTime; defaultGranularity: Gap };

const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

function midnight(dt: PyDateTime): PyDateTime {
  return PyDateTime.of(dt.year, dt.month, dt.day, 0, 0, 0, 0, dt.offsetMinutes);
}

/** Builds the clamping of `clamping.target` (already rendered); the reference's build errors otherwise. */
export function createClamping(target: string, targetDetails: unknown): Clamping {
  switch (target) {
    case 'DAY':
      return {
        // The ceiling always adds a day, even at midnight (reference quirk, §2.4 (a)).
        ceil: (dt) => midnight(dt).plusMicros(DAY_US),
        floor: (dt) => midnight(dt),
        defaultGranularity: new PyTimedelta(1_000_000n),
      };
    case 'WEEK': {
      const weekday = targetDetails && typeof targetDetails === 'object' ? (targetDetails as Record<string, unknown>).weekday : undefined;
      if (weekday === undefined) throw configError('Given WEEK clamping, weekday needs to be provided as target_details');
      const w = WEEKDAYS.indexOf(String(weekday));
      if (w < 0) throw configError(`Unknown weekday ${String(weekday)}`);
      const toCeiling = (dt: PyDateTime) => (dt.weekday() > w ? 7 - (dt.weekday() - w) : Math.abs(dt.weekday() - w));
      return {
        ceil: (dt) => midnight(dt).plusMicros(BigInt(toCeiling(dt)) * DAY_US),
        floor: (dt) => midnight(dt).plusMicros(BigInt(toCeiling(dt) - 7) * DAY_US),
        defaultGranularity: new PyTimedelta(DAY_US),
      };
    }
    case 'MONTH':
      return {
        ceil: (dt) =>
          dt.day === 1
            ? midnight(dt)
            : PyDateTime.of(dt.month === 12 ? dt.year + 1 : dt.year, (dt.month % 12) + 1, 1, 0, 0, 0, 0, dt.offsetMinutes),
        floor: (dt) => (dt.day === 1 ? midnight(dt) : PyDateTime.of(dt.year, dt.month, 1, 0, 0, 0, 0, dt.offsetMinutes)),
        defaultGranularity: new PyTimedelta(DAY_US),
      };
    default:
      throw configError(`Invalid clamping target ${target}, expected DAY, WEEK, MONTH`);
  }
}

// Text ↔ datetime as the reference does it: C strftime/Python strptime directives, dateutil's
// strict ISO-8601 parser (isoparse), and the CDK's special formats `%s`, `%s_as_float`, `%ms`,
// `%epoch_microseconds`, `%_ms` (airbyte_cdk/sources/declarative/interpolation/macros.py).
import { PyDate, PyDateTime } from './datetime';
import { wholeMatchGroups } from './pythonRegex';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function pad(n: number, width = 2, fill = '0'): string {
  return String(n).padStart(width, fill);
}

function dayOfYear(d: PyDate): number {
  return d.ordinal() - new PyDate(d.year, 1, 1).ordinal() + 1;
}

/** strftime as glibc does it (the reference runs on Linux); unknown directives are kept verbatim. */
export function strftime(d: PyDate, format: string): string {
  const dt = d instanceof PyDateTime ? d : null;
  const h = dt?.hour ?? 0;
  const wd = d.weekday();
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch !== '%' || i + 1 >= format.length) {
      out += ch;
      continue;
    }
    const k = format[++i];
    switch (k) {
      case 'Y':
        out += String(d.year);
        break;
      case 'y':
        out += pad(d.year % 100);
        break;
      case 'C':
        out += pad(Math.floor(d.year / 100));
        break;
      case 'm':
        out += pad(d.month);
        break;
      case 'd':
        out += pad(d.day);
        break;
      case 'e':
        out += pad(d.day, 2, ' ');
        break;
      case 'H':
        out += pad(h);
        break;
      case 'I':
        out += pad(h % 12 === 0 ? 12 : h % 12);
        break;
      case 'p':
        out += h < 12 ? 'AM' : 'PM';
        break;
      case 'M':
        out += pad(dt?.minute ?? 0);
        break;
      case 'S':
        out += pad(dt?.second ?? 0);
        break;
      case 'f':
        out += pad(dt?.microsecond ?? 0, 6);
        break;
      case 'z':
        out += dt ? dt.offsetText(false) : '';
        break;
      case 'Z':
        out += dt && dt.offsetMinutes !== null ? (dt.offsetMinutes === 0 ? 'UTC' : `UTC${dt.offsetText(true)}`) : '';
        break;
      case 'a':
        out += DAYS[wd].slice(0, 3);
        break;
      case 'A':
        out += DAYS[wd];
        break;
      case 'w':
        out += String((wd + 1) % 7);
        break;
      case 'u':
        out += String(wd + 1);
        break;
      case 'b':
      case 'h':
        out += MONTHS[d.month - 1].slice(0, 3);
        break;
      case 'B':
        out += MONTHS[d.month - 1];
        break;
      case 'j':
        out += pad(dayOfYear(d), 3);
        break;
      case 'D':
        out += strftime(d, '%m/%d/%y');
        break;
      case 'F':
        out += strftime(d, '%Y-%m-%d');
        break;
      case 'T':
        out += strftime(d, '%H:%M:%S');
        break;
      case 'R':
        out += strftime(d, '%H:%M');
        break;
      case 'c':
        out += strftime(d, '%a %b %e %H:%M:%S %Y');
        break;
      case 'x':
        out += strftime(d, '%m/%d/%y');
        break;
      case 'X':
        out += strftime(d, '%H:%M:%S');
        break;
      case 's':
        out += String(Math.floor(dt ? dt.timestamp() : d.ordinal() * 86400));
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case '%':
        out += '%';
        break;
      default:
        out += `%${k}`;
    }
  }
  return out;
}

type Fields = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
  offset: number | null;
  pm: boolean | null;
  doy: number | null;
};

function parseOffset(text: string): number | null {
  if (text === 'Z' || text === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?(?::?(\d{2}))?$/.exec(text);
  if (!m) return null;
  const mins = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -mins : mins;
}

const DIRECTIVE_PATTERNS: Record<string, string> = {
  Y: '(\\d{4})',
  y: '(\\d{2})',
  m: '(\\d{1,2})',
  d: '(\\d{1,2})',
  H: '(\\d{1,2})',
  I: '(\\d{1,2})',
  M: '(\\d{1,2})',
  S: '(\\d{1,2})',
  f: '(\\d{1,6})',
  j: '(\\d{1,3})',
  p: '(AM|PM|am|pm)',
  z: '(Z|z|[+-]\\d{2}:?\\d{2}(?::?\\d{2})?)',
  Z: '(UTC|GMT|utc|gmt)?',
  a: '([A-Za-z]{3})',
  A: '([A-Za-z]+)',
  b: '([A-Za-z]{3})',
  B: '([A-Za-z]+)',
  w: '(\\d)',
  u: '(\\d)',
  s: '(\\d+)',
  '%': '%',
};

/** Longest text strptime reads (a date is short; RE2 keeps even long formats linear). */
const MAX_TIME_TEXT = 10_000;

/** Python datetime.strptime: the whole text must match; naive unless %z matched. Throws RangeError. */
export function strptime(text: string, format: string): PyDateTime {
  let pattern = '';
  const order: string[] = [];
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '%' && i + 1 < format.length) {
      const k = format[++i];
      const p = DIRECTIVE_PATTERNS[k];
      if (p === undefined) throw new RangeError(`'${k}' is a bad directive in format '%${k}'`);
      pattern += p;
      if (k !== '%') order.push(k);
    } else if (/\s/.test(ch)) {
      pattern += '\\s+';
    } else {
      pattern += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  if (text.length > MAX_TIME_TEXT)
    throw new RangeError(`time data longer than ${MAX_TIME_TEXT} characters does not match format '${format.slice(0, 40)}'`);
  const m = wholeMatchGroups(pattern, text, true);
  if (!m) throw new RangeError(`time data '${text}' does not match format '${format}'`);
  const f: Fields = { year: 1900, month: 1, day: 1, hour: 0, minute: 0, second: 0, micro: 0, offset: null, pm: null, doy: null };
  order.forEach((k, idx) => {
    const v = m[idx + 1];
    if (v === undefined || v === null) return;
    switch (k) {
      case 'Y':
        f.year = Number(v);
        break;
      case 'y':
        f.year = Number(v) < 69 ? 2000 + Number(v) : 1900 + Number(v);
        break;
      case 'm':
        f.month = Number(v);
        break;
      case 'd':
        f.day = Number(v);
        break;
      case 'H':
      case 'I':
        f.hour = Number(v);
        break;
      case 'M':
        f.minute = Number(v);
        break;
      case 'S':
        f.second = Number(v);
        break;
      case 'f':
        f.micro = Number(v.padEnd(6, '0'));
        break;
      case 'j':
        f.doy = Number(v);
        break;
      case 'p':
        f.pm = v.toUpperCase() === 'PM';
        break;
      case 'z':
        f.offset = parseOffset(v);
        break;
      case 'b':
      case 'B': {
        const idxMonth = MONTHS.findIndex((name) => (k === 'b' ? name.slice(0, 3) : name).toLowerCase() === v.toLowerCase());
        if (idxMonth < 0) throw new RangeError(`time data '${text}' does not match format '${format}'`);
        f.month = idxMonth + 1;
        break;
      }
      case 's':
        return;
    }
  });
  if (order.includes('s')) {
    const secs = Number(m[order.indexOf('s') + 1]);
    return new PyDateTime(secs * 1000, 0, null);
  }
  if (f.pm !== null && order.includes('I')) f.hour = (f.hour % 12) + (f.pm ? 12 : 0);
  if (
    f.month < 1 ||
    f.month > 12 ||
    f.day < 1 ||
    f.day > new Date(Date.UTC(f.year, f.month, 0)).getUTCDate() ||
    f.hour > 23 ||
    f.minute > 59 ||
    f.second > 61
  ) {
    throw new RangeError(`time data '${text}' does not match format '${format}'`);
  }
  if (f.doy !== null && !order.includes('m') && !order.includes('d')) {
    const base = PyDateTime.of(f.year, 1, 1, f.hour, f.minute, f.second, f.micro, f.offset);
    return base.plusMicros(BigInt(f.doy - 1) * 86_400_000_000n);
  }
  return PyDateTime.of(f.year, f.month, f.day, f.hour, f.minute, f.second, f.micro, f.offset);
}

/** dateutil's isoparse: strict ISO 8601 date, optional time after any single separator character, optional offset. */
export function isoparse(text: string): PyDateTime {
  const fail = (): never => {
    throw new RangeError(`Invalid isoformat string: '${text}'`);
  };
  const dm = /^(\d{4})(?:(-?)(\d{2})(?:\2(\d{2}))?)?/.exec(text);
  if (!dm) return fail();
  const year = Number(dm[1]);
  const month = dm[3] ? Number(dm[3]) : 1;
  const day = dm[4] ? Number(dm[4]) : 1;
  if (dm[3] && !dm[4] && dm[2] === '') return fail();
  let rest = text.slice(dm[0].length);
  let hour = 0,
    minute = 0,
    second = 0,
    micro = 0;
  let offset: number | null = null;
  if (rest.length > 0) {
    if (!dm[4]) return fail();
    rest = rest.slice(1);
    const tm = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?/.exec(rest);
    if (!tm) return fail();
    hour = Number(tm[1]);
    minute = tm[2] ? Number(tm[2]) : 0;
    second = tm[3] ? Number(tm[3]) : 0;
    micro = tm[4] ? Number(tm[4].slice(0, 6).padEnd(6, '0')) : 0;
    const tz = rest.slice(tm[0].length);
    if (tz.length > 0) {
      offset = parseOffset(tz);
      if (offset === null) return fail();
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return fail();
  if (minute > 59 || second > 59) return fail();
  if (hour === 24) {
    if (minute || second || micro) return fail();
    return PyDateTime.of(year, month, day, 0, 0, 0, 0, offset).plusMicros(86_400_000_000n);
  }
  if (hour > 23) return fail();
  return PyDateTime.of(year, month, day, hour, minute, second, micro, offset);
}

/** The CDK's DatetimeParser.parse: special epoch formats, `%_ms` as `%f`, naive → UTC. */
export function parseWithFormat(value: unknown, format: string): PyDateTime {
  const text = String(value);
  if (format === '%s') return new PyDateTime(Math.trunc(Number(requireNumber(text))) * 1000, 0, 0);
  if (format === '%s_as_float') return PyDateTime.fromDate(new Date(0)).plusMicros(BigInt(Math.round(Number(requireNumber(text)) * 1e6)));
  if (format === '%epoch_microseconds') return PyDateTime.fromDate(new Date(0)).plusMicros(BigInt(requireInt(text)));
  if (format === '%ms') return PyDateTime.fromDate(new Date(0)).plusMicros(BigInt(requireInt(text)) * 1000n);
  const parsed = strptime(text, format.replaceAll('%_ms', '%f'));
  return parsed.offsetMinutes === null ? parsed.withOffset(0) : parsed;
}

/** The CDK's DatetimeParser.format: special epoch formats and `%_ms` (3-digit milliseconds). */
export function formatWithFormat(dt: PyDateTime, format: string): string {
  if (format === '%s') return String(Math.trunc(dt.timestamp()));
  if (format === '%s_as_float') {
    const v = dt.timestamp();
    return Number.isInteger(v) ? `${v}.0` : String(v);
  }
  if (format === '%epoch_microseconds') return dt.epochMicros().toString();
  if (format === '%ms') return (dt.epochMicros() / 1000n).toString();
  if (format.includes('%_ms')) return strftime(dt, format.replaceAll('%_ms', pad(Math.floor(dt.microsecond / 1000), 3)));
  return strftime(dt, format);
}

function requireNumber(text: string): string {
  if (text.trim() === '' || Number.isNaN(Number(text))) throw new RangeError(`invalid epoch value '${text}'`);
  return text;
}

function requireInt(text: string): string {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) throw new RangeError(`invalid literal for int() with base 10: '${text}'`);
  return text.trim();
}

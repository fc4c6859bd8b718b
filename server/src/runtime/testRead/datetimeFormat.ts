// Python-style datetime formats and ISO 8601 durations for DatetimeBasedCursor slices (UTC only), with
// the CDK's special formats %s, %ms, %s_as_float and %epoch_microseconds.
import { configError } from '../errors';
import { wholeMatchGroups } from '../interpolation/pythonRegex';

export type Duration = { years: number; months: number; days: number; ms: number };

/** Parses P[nY][nM][nW][nD][T[nH][nM][nS]]. */
export function parseIsoDuration(text: string): Duration {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text.trim());
  if (!m || text.trim() === 'P' || text.trim().endsWith('T')) throw configError(`Invalid ISO 8601 duration ${JSON.stringify(text)} (expected e.g. P1D, PT1H, P1M).`);
  const n = (i: number) => Number(m[i] ?? 0);
  return { years: n(1), months: n(2), days: n(3) * 7 + n(4), ms: ((n(5) * 60 + n(6)) * 60 + n(7)) * 1000 };
}

/** Adds `sign` times a duration (calendar months/years first, as dateutil does). */
export function addDuration(d: Date, dur: Duration, sign: 1 | -1): Date {
  const r = new Date(d.getTime());
  if (dur.years || dur.months) {
    const day = r.getUTCDate();
    r.setUTCDate(1);
    r.setUTCMonth(r.getUTCMonth() + sign * (dur.years * 12 + dur.months));
    const last = new Date(Date.UTC(r.getUTCFullYear(), r.getUTCMonth() + 1, 0)).getUTCDate();
    r.setUTCDate(Math.min(day, last));
  }
  return new Date(r.getTime() + sign * (dur.days * 86_400_000 + dur.ms));
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** strftime in UTC for the common tokens, plus the CDK's whole-format specials. */
export function formatDatetime(d: Date, format: string): string {
  switch (format) {
    case '%s': return String(Math.floor(d.getTime() / 1000));
    case '%ms': return String(d.getTime());
    case '%s_as_float': return String(d.getTime() / 1000);
    case '%epoch_microseconds': return String(d.getTime() * 1000);
  }
  return format.replace(/%(_ms|[YmdHMSfzZyjbBaA%])/g, (_m, t: string) => {
    switch (t) {
      case 'Y': return pad(d.getUTCFullYear(), 4);
      case 'y': return pad(d.getUTCFullYear() % 100);
      case 'm': return pad(d.getUTCMonth() + 1);
      case 'd': return pad(d.getUTCDate());
      case 'H': return pad(d.getUTCHours());
      case 'M': return pad(d.getUTCMinutes());
      case 'S': return pad(d.getUTCSeconds());
      case 'f': return pad(d.getUTCMilliseconds() * 1000, 6);
      case '_ms': return pad(d.getUTCMilliseconds(), 3);
      case 'z': return '+0000';
      case 'Z': return 'UTC';
      case 'j': return pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3);
      case 'b': return MONTHS[d.getUTCMonth()].slice(0, 3);
      case 'B': return MONTHS[d.getUTCMonth()];
      case 'a': return DAYS[d.getUTCDay()].slice(0, 3);
      case 'A': return DAYS[d.getUTCDay()];
      default: return '%';
    }
  });
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Parses with the first matching format, then ISO 8601; throws a config error naming the field. */
export function parseDatetime(text: string, formats: string[], what: string): Date {
  for (const f of formats) {
    const d = parseWithFormat(text, f);
    if (d) return d;
  }
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.test(text.trim()) ? Date.parse(normalizeIso(text.trim())) : NaN;
  if (!Number.isNaN(iso)) return new Date(iso);
  throw configError(`${what}: cannot parse ${JSON.stringify(text)} as a datetime with format ${formats.map((f) => JSON.stringify(f)).join(' or ')}.`);
}

function normalizeIso(t: string): string {
  let s = t.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) s += 'T00:00:00';
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(s)) s += 'Z';
  return s.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

function parseWithFormat(text: string, format: string): Date | null {
  const t = text.trim();
  if (format === '%s' || format === '%s_as_float') return /^-?\d+(\.\d+)?$/.test(t) ? new Date(Number(t) * 1000) : null;
  if (format === '%ms') return /^-?\d+$/.test(t) ? new Date(Number(t)) : null;
  if (format === '%epoch_microseconds') return /^-?\d+$/.test(t) ? new Date(Number(t) / 1000) : null;
  const fields: string[] = [];
  const re = format.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%(_ms|[YmdHMSfzZy%])/g, (_m, tok: string) => {
    fields.push(tok);
    switch (tok) {
      case 'Y': return '(\\d{4})';
      case 'f': return '(\\d{1,6})';
      case '_ms': return '(\\d{3})';
      case 'z': return '(Z|[+-]\\d{2}:?\\d{2})';
      case 'Z': return '([A-Za-z]+)';
      case '%': fields.pop(); return '%';
      default: return '(\\d{1,2})';
    }
  });
  // RE2 (linear time): cursor values come from the API and must not make the format backtrack.
  const m = t.length > 10_000 ? null : wholeMatchGroups(re, t);
  if (!m) return null;
  const v: Record<string, string> = {};
  fields.forEach((f, i) => {
    const g = m[i + 1];
    if (g !== null && g !== undefined) v[f] = g;
  });
  const year = v.Y ? Number(v.Y) : v.y ? 2000 + Number(v.y) : 1900;
  const ms = v.f ? Math.floor(Number(v.f.padEnd(6, '0')) / 1000) : v._ms ? Number(v._ms) : 0;
  let time = Date.UTC(year, Number(v.m ?? 1) - 1, Number(v.d ?? 1), Number(v.H ?? 0), Number(v.M ?? 0), Number(v.S ?? 0), ms);
  if (v.z && v.z !== 'Z') {
    const zm = /([+-])(\d{2}):?(\d{2})/.exec(v.z);
    if (zm) time -= (zm[1] === '-' ? -1 : 1) * (Number(zm[2]) * 60 + Number(zm[3])) * 60_000;
  }
  return Number.isNaN(time) ? null : new Date(time);
}

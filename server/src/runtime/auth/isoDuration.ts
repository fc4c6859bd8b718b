// ISO 8601 durations of SessionTokenAuthenticator.expiration_duration (`PT1H`, `P1D`, `P1W`, `P1M`,
// `P1Y`, combinations): parsed once, added to a moment calendar-aware (months and years by the calendar).
import { configError } from '../errors';

/** A parsed duration; months and years stay calendar units. */
export type IsoDuration = { years: number; months: number; weeks: number; days: number; hours: number; minutes: number; seconds: number };

const PATTERN =
  /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Parses an ISO 8601 duration; throws a config error naming the field for anything else. */
export function parseIsoDuration(text: unknown, field: string): IsoDuration {
  const m = typeof text === 'string' ? PATTERN.exec(text.trim()) : null;
  if (!m || text === 'P' || /T$/.test(String(text))) {
    throw configError(`${field} must be an ISO 8601 duration such as PT1H, P1D or P1M; got ${JSON.stringify(text)}.`);
  }
  const n = (i: number) => (m[i] ? Number(m[i]) : 0);
  return { years: n(1), months: n(2), weeks: n(3), days: n(4), hours: n(5), minutes: n(6), seconds: n(7) };
}

/** `start` (epoch ms) plus the duration, adding years and months on the UTC calendar (day clamped to the month's end). */
export function addIsoDuration(startMs: number, d: IsoDuration): number {
  const date = new Date(startMs);
  const totalMonths = date.getUTCMonth() + Math.trunc(d.years) * 12 + Math.trunc(d.months);
  const day = date.getUTCDate();
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      totalMonths,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  const fixedMs = (((d.weeks * 7 + d.days) * 24 + d.hours) * 60 + d.minutes) * 60_000 + d.seconds * 1000;
  return target.getTime() + fixedMs;
}

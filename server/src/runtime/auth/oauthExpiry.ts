// Expiry arithmetic of OAuthAuthenticator (airbyte_cdk/sources/declarative/auth/oauth.py, §6.7.5, §6.7.7): parsing
// `expires_in` values and stored expiry dates, and writing expiries back in the reference's format.
import { configError, systemError } from '../errors';

const HOUR_MS = 3600_000;

/**
 * Parses an absolute expiry moment the way the reference's flexible parser does: all-digit values
 * (≤ 10 digits) are Unix seconds, `YYYY-MM-DD` is midnight UTC, other ISO 8601 / RFC-style date
 * texts are parsed with UTC assumed when no zone is given. Returns epoch milliseconds; throws a config error.
 */
export function parseExpiryMoment(value: unknown, what: string): number {
  if (typeof value === 'number') return unixSeconds(value, what);
  const text = String(value ?? '').trim();
  if (/^-?\d+$/.test(text)) return unixSeconds(Number(text), what, text.replace('-', '').length);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  let candidate = text;
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(candidate)) {
    candidate = candidate.replace(' ', 'T');
    // Python's parser keeps up to 6 fractional digits; JavaScript only needs milliseconds.
    candidate = candidate.replace(/(\.\d{3})\d+/, '$1');
    if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(candidate)) candidate += 'Z';
  } else if (!/(GMT|UTC|Z|[+-]\d{4})\b/i.test(candidate)) {
    candidate += ' UTC';
  }
  const ms = Date.parse(candidate);
  if (!Number.isFinite(ms))
    throw configError(`${what} '${text}' is not a date the runtime can parse (use ISO 8601, e.g. 2024-05-01T12:00:00Z).`);
  return ms;
}

function unixSeconds(seconds: number, what: string, digits = String(Math.trunc(Math.abs(seconds))).length): number {
  // Spec §6.7.5: negative or more-than-10-digit timestamps are rejected.
  if (seconds < 0 || digits > 10) throw configError(`${what} ${seconds} is not a valid Unix timestamp in seconds.`);
  return Math.trunc(seconds) * 1000;
}

/**
 * The new expiry after a token response (§6.7.5). `expiresIn` is the value found in the response;
 * `isMoment` is true when token_expiry_date_format is configured (its content is ignored).
 * `current` is the expiry held before the refresh (epoch ms).
 */
export function expiryFromResponse(expiresIn: unknown, isMoment: boolean, nowMs: number, current: number): number {
  if (expiresIn === undefined || expiresIn === null) return current > nowMs ? current : nowMs + HOUR_MS;
  if (isMoment) return parseExpiryMoment(expiresIn, 'The token expiry date of the token response');
  const seconds =
    typeof expiresIn === 'number' ? expiresIn : typeof expiresIn === 'string' && expiresIn.trim() !== '' ? Number(expiresIn) : NaN;
  if (!Number.isFinite(seconds)) {
    throw systemError(
      `Invalid expires_in value: ${typeof expiresIn === 'string' ? expiresIn : JSON.stringify(expiresIn)}. Expected number of seconds when no format specified. ` +
        `The token response gives the expiry as ${JSON.stringify(expiresIn)}, but a number of seconds was expected ` +
        'because token_expiry_date_format is not set; set token_expiry_date_format if the endpoint returns a date.',
    );
  }
  return nowMs + Math.trunc(seconds) * 1000;
}

/** ISO 8601 with `T` and `+00:00`, microseconds only when non-zero (`2024-05-01T12:00:00+00:00`), as the reference writes back. */
export function formatExpiry(ms: number): string {
  const d = new Date(ms);
  const base = d.toISOString().slice(0, 19);
  const millis = d.getUTCMilliseconds();
  return `${base}${millis ? `.${String(millis * 1000).padStart(6, '0')}` : ''}+00:00`;
}

// Response header names are kept as the server sent them (airbyte_cdk/sources/declarative/requesters/paginators/strategies/cursor_pagination_strategy.py): CursorPagination
// templates see them case-sensitively, while the error handler, wait-time-from-header and the runtime
// itself look names up case-insensitively, as `requests`' CaseInsensitiveDict does.
import { setOwn } from '../shared/safeObject';

/**
 * Builds the headers object from undici's raw `[name, value, name, value, …]` list: names keep the
 * case of their first occurrence; repeated headers (in any case) are joined with ", " as the
 * HTTP client of the reference does.
 */
export function headersFromRaw(raw: readonly (string | Buffer)[]): Record<string, string> {
  const out: Record<string, string> = {};
  const nameByLower = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]);
    const value = String(raw[i + 1]);
    const lower = name.toLowerCase();
    const existing = nameByLower.get(lower);
    if (existing === undefined) {
      nameByLower.set(lower, name);
      setOwn(out, name, value);
    } else {
      setOwn(out, existing, `${out[existing]}, ${value}`);
    }
  }
  return out;
}

/** The value of header `name`, whatever the case the server used, or undefined. */
export function headerValue(headers: Record<string, string> | null | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (Object.hasOwn(headers, name)) return headers[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) return headers[key];
  return undefined;
}

/**
 * The headers as a template sees them in an error handler: a plain mapping (names as sent, so
 * iteration and `tojson` show them unchanged) whose lookups — `headers['x-rate']`, `headers.get(…)`,
 * `'x-rate' in headers` — ignore case.
 */
export function caseInsensitiveHeaders(headers: Record<string, string>): Record<string, string> {
  const target: Record<string, string> = { ...headers };
  const actual = (key: string | symbol): string | symbol => {
    if (typeof key !== 'string' || Object.hasOwn(target, key)) return key;
    const lower = key.toLowerCase();
    return Object.keys(target).find((k) => k.toLowerCase() === lower) ?? key;
  };
  return new Proxy(target, {
    get: (t, key) => Reflect.get(t, actual(key)),
    has: (t, key) => Reflect.has(t, actual(key)),
    getOwnPropertyDescriptor: (t, key) => Reflect.getOwnPropertyDescriptor(t, actual(key)),
  });
}

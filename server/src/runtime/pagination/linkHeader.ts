// The parsed Link header the way `requests` exposes it (§7.5): links keyed by rel (or by URL when a
// link has no rel), each `{ url, rel, ...other params }`.
import { setOwn } from '../shared/safeObject';

/** Parses an RFC 8288 Link header value. Malformed parts are skipped. */
export function parseLinkHeader(value: string | undefined): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  if (!value) return out;
  for (const part of splitLinks(value)) {
    const m = /^\s*<([^>]*)>\s*(.*)$/s.exec(part);
    if (!m) continue;
    const link: Record<string, string> = { url: m[1].trim() };
    for (const param of m[2].split(';')) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const key = param.slice(0, eq).trim().toLowerCase();
      const val = param
        .slice(eq + 1)
        .trim()
        .replace(/^["']|["']$/g, '');
      if (key) setOwn(link, key, val);
    }
    setOwn(out, link.rel ?? link.url, link);
  }
  return out;
}

/** Splits on commas that start a new `<...>` link, not commas inside URLs or quoted params. */
function splitLinks(value: string): string[] {
  return value.split(/,\s*(?=<)/);
}

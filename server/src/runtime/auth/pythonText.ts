// Python-compatible text conversions used where the reference calls str() on a rendered value
// (header values, tokens, Basic credentials, injected field names). Pure functions, no I/O.

/** Python `str()` of a JSON-like value: strings unchanged, null → "None", booleans → "True"/"False". */
export function pythonStr(value: unknown): string {
  if (typeof value === 'string') return value;
  return pythonRepr(value);
}

/** Python `repr()` of a JSON-like value (dicts and lists as Python prints them). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return String(value);
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

/**
 * Form encoding with the reference HTTP library's rules (§4.3): keys in insertion order, a list
 * repeats its key, null values are omitted, booleans become True/False, spaces become `+`.
 */
export function encodeForm(fields: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === null || v === undefined) continue;
      pairs.push(`${quotePlus(key)}=${quotePlus(pythonStr(v))}`);
    }
  }
  return pairs.join('&');
}

/** Python `urllib.parse.quote_plus`: only letters, digits and `_.-~` stay unescaped. */
export function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Python `json.dumps` with default separators (`, ` and `: `), non-ASCII escaped as \uXXXX. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value > 0 ? 'Infinity' : '-Infinity';
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`);
  return `{${entries.join(', ')}}`;
}

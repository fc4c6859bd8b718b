// Python-compatible text conversions used where the reference calls str() on a rendered value
// (header values, tokens, Basic credentials, injected field names, page sizes and offsets). Pure
// functions, no I/O, imported by auth/, http/, pagination/ and testRead/ alike. (Form and JSON
// serialisation, the requester's rules, are http/requestOptions.ts.)

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

// The keys found at a path in captured values (response bodies, records, headers, slices): each
// with the JSON type and a sample from the latest value that has it. Completion lists them.

/** A path step: a key, an index (negative counts from the end) or `*` (every element, as in field_path). */
export type KeyStep = string | number;

/** A key found in captured values. */
export type CapturedKey = { key: string; type: string; sample: unknown };

/** The JSON type of a value as a completion detail says it. */
export function jsonType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `array (${v.length})`;
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** A value as short inline text (long values cut), for completion details and hovers. */
export function shortValue(v: unknown, max = 40): string {
  let text: string;
  try {
    text = v === undefined ? 'undefined' : typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    text = String(v);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The values at `path` in `value`; `*` fans out over array elements and mapping values. */
export function valuesAt(value: unknown, path: readonly KeyStep[], wildcard = false): unknown[] {
  let current: unknown[] = [value];
  for (const step of path) {
    const next: unknown[] = [];
    for (const v of current) {
      if (wildcard && step === '*') {
        if (Array.isArray(v)) next.push(...v);
        else if (v !== null && typeof v === 'object') next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        const i = typeof step === 'number' ? step : /^-?\d+$/.test(step) ? Number(step) : NaN;
        if (Number.isInteger(i)) {
          const item = v[i < 0 ? v.length + i : i];
          if (item !== undefined) next.push(item);
        }
      } else if (v !== null && typeof v === 'object' && Object.hasOwn(v, String(step))) {
        next.push((v as Record<string, unknown>)[String(step)]);
      }
    }
    current = next;
    if (!current.length) break;
  }
  return current;
}

/**
 * The keys of the mappings at `path` across `values`, ordered as in the first value that has them
 * (callers pass the latest page first, so samples come from the latest page). Stops after
 * `maxValues` mappings (a page of records is enough to know their keys).
 */
export function keysAt(
  values: readonly unknown[],
  path: readonly KeyStep[],
  options: { wildcard?: boolean; maxValues?: number } = {},
): { keys: CapturedKey[]; arrays: number } {
  const found = new Map<string, CapturedKey>();
  let arrays = 0;
  let seen = 0;
  const max = options.maxValues ?? 2000;
  for (const value of values) {
    for (const v of valuesAt(value, path, options.wildcard)) {
      if (seen++ >= max) return { keys: [...found.values()], arrays };
      if (Array.isArray(v)) {
        arrays++;
        continue;
      }
      if (v === null || typeof v !== 'object') continue;
      for (const [key, sample] of Object.entries(v)) {
        const known = found.get(key);
        // A null sample is replaced by the first value that says more.
        if (!known) found.set(key, { key, type: jsonType(sample), sample });
        else if (known.sample === null && sample !== null) found.set(key, { key, type: jsonType(sample), sample });
      }
    }
  }
  return { keys: [...found.values()], arrays };
}

// The one way to write into objects built from untrusted data (manifests, API records, configs,
// cassettes). A key such as `__proto__`, `constructor` or `prototype` in such data is a plain own
// property here: reads see only own properties, writes never reach a prototype, and a write *path*
// from a manifest with such a segment is refused (it could only ever reach a shared prototype).
// Pure (imports nothing): the client uses it too. The throwing path writer is runtime/safePath.ts.

/** Path segments that could reach a prototype when walked with `obj[segment]`. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

type Bag = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isMapping(v: unknown): v is Bag {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The own property `key` of `obj`, or undefined: never an inherited value such as `Object.prototype`. */
export function getOwn(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== 'object') return undefined;
  return Object.hasOwn(obj, key) ? (obj as Bag)[key] : undefined;
}

/**
 * Writes the own property `key` of `obj`. `obj.__proto__ = v` would replace the object's prototype
 * instead of storing a value, so that key is defined as a data property (as JSON.parse does).
 */
export function setOwn(obj: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else (obj as Bag)[key] = value;
}

/** The message of a refused path (also used by the manifest rule, so editor and runtime agree). */
export function prototypePathMessage(what: string, path: readonly string[], segment: number): string {
  return (
    `${what}: the path segment "${path[segment]}" is not allowed (segment ${segment + 1} of ${JSON.stringify(path)}). ` +
    '`__proto__`, `constructor` and `prototype` could reach the shared prototype of every object; rename the field.'
  );
}

/** Index of the first prototype segment of `path`, or -1. */
export function prototypeSegment(path: readonly unknown[]): number {
  return path.findIndex((s) => typeof s === 'string' && PROTOTYPE_KEYS.has(s));
}

/** A shallow copy with own properties only (`{...obj}` is safe too; this names the intent). */
export function copyOwn<T extends object>(obj: T): T {
  const out = {} as T;
  for (const k of Object.keys(obj)) setOwn(out, k, (obj as Bag)[k]);
  return out;
}

/**
 * Deep merge of JSON-like mappings: `update` wins, nested mappings merge. Keys are own properties
 * only, so a `__proto__` key in either side is data, never a prototype.
 */
export function deepMergeOwn(base: Bag, update: Bag): Bag {
  const out = copyOwn(base);
  for (const key of Object.keys(update)) {
    const prev = getOwn(out, key);
    const value = update[key];
    setOwn(out, key, isMapping(prev) && isMapping(value) ? deepMergeOwn(prev, value) : value);
  }
  return out;
}

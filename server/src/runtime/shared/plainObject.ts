// Whether a value is a plain mapping (an object literal or a parsed YAML/JSON mapping): the test the
// resolver, the schema walk and validation share. Pure, imports nothing.

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  // A mapping, not a YAML `!!binary` (Uint8Array, whose millions of indexes are not keys to resolve).
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

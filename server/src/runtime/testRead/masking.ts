// Secret masking of test-read output (§11): values of config fields marked airbyte_secret in the spec
// and tokens obtained while reading are replaced by `****` wherever they appear.

const MASK = '****';

/** Collects secret values and masks them in text and in JSON-like values. */
export class SecretMasker {
  private readonly secrets: string[] = [];

  /** Adds a value to mask; empty and very short values are ignored (they would mask unrelated text). */
  add(value: unknown): void {
    if (value === null || value === undefined) return;
    const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
    if (text.length < 3 || this.secrets.includes(text)) return;
    this.secrets.push(text);
    // Longer secrets first so that a secret containing another is masked whole.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  /** Adds every config value whose spec property has airbyte_secret: true. */
  addFromSpec(spec: unknown, config: unknown): void {
    const connection = (spec as Record<string, unknown> | undefined)?.connection_specification;
    for (const path of secretPaths(connection, [])) {
      for (const v of valuesAt(config, path)) this.add(v);
    }
  }

  /** Replaces every secret in a string. */
  maskText(text: string): string {
    if (this.secrets.length === 0) return text;
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(MASK);
    // JSON text escapes some characters; also mask the JSON-escaped form of each secret.
    for (const s of this.secrets) {
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s && out.includes(escaped)) out = out.split(escaped).join(MASK);
    }
    return out;
  }

  /** A copy of a JSON-like value with every string masked (the value itself when there is nothing to mask). */
  maskValue<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    if (typeof value === 'string') return this.maskText(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[this.maskText(k)] = this.maskValue(v);
      return out as T;
    }
    return value;
  }
}

/** Config paths of secret properties: walks `properties` and `oneOf`/`anyOf`/`allOf` levels of a JSON schema. */
function secretPaths(schema: unknown, prefix: string[]): string[][] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const out: string[][] = [];
  if (s.airbyte_secret === true && prefix.length > 0) out.push(prefix);
  const props = s.properties as Record<string, unknown> | undefined;
  if (props && typeof props === 'object') for (const [k, v] of Object.entries(props)) out.push(...secretPaths(v, [...prefix, k]));
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const list = s[key];
    if (Array.isArray(list)) for (const item of list) out.push(...secretPaths(item, prefix));
  }
  if (s.items && typeof s.items === 'object') out.push(...secretPaths(s.items, prefix));
  return out;
}

function valuesAt(config: unknown, path: string[]): unknown[] {
  let level: unknown[] = [config];
  for (const seg of path) {
    const next: unknown[] = [];
    for (const node of level) {
      if (Array.isArray(node)) for (const item of node) { if (item && typeof item === 'object' && seg in item) next.push((item as Record<string, unknown>)[seg]); }
      else if (node && typeof node === 'object' && seg in node) next.push((node as Record<string, unknown>)[seg]);
    }
    level = next;
  }
  return level.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

// Config keys declared by spec.connection_specification: lookup of a key path (nested objects,
// oneOf/anyOf/allOf branches) and "did you mean" suggestions. Unknown shapes are never reported:
// only a key missing from an object that lists its properties is a finding.

/** A JSON-schema-like object (spec.connection_specification or a nested property). */
export type ConfigSpec = Record<string, unknown>;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Properties declared by a schema node, merged over its branches; null when the node does not list them all. */
export function declaredProperties(schema: unknown): Map<string, unknown> | null {
  if (!isObject(schema)) return null;
  const out = new Map<string, unknown>();
  let closed = false;
  if (isObject(schema.properties)) {
    closed = true;
    for (const [k, v] of Object.entries(schema.properties)) out.set(k, v);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    for (const b of branches) {
      const props = declaredProperties(b);
      // A branch without a property list could hold anything: the node is open.
      if (!props) return null;
      closed = true;
      for (const [k, v] of props) if (!out.has(k)) out.set(k, v);
    }
  }
  if (schema.additionalProperties === true || isObject(schema.additionalProperties) || isObject(schema.patternProperties)) return null;
  return closed ? out : null;
}

/** Levenshtein distance, bounded for short keys. */
function distance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/** The closest declared name, when one is close enough to be a likely typo. */
export function didYouMean(name: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestScore = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === name.toLowerCase() ? 0 : distance(name, c);
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  return best !== null && bestScore <= Math.max(2, Math.floor(name.length / 4)) ? best : null;
}

/** A warning message when `path` (config keys) leaves the declared spec; null when declared or unknowable. */
export function undeclaredConfigKey(spec: ConfigSpec, path: readonly string[], tolerant = false): string | null {
  let node: unknown = spec;
  for (let i = 0; i < path.length; i++) {
    const props = declaredProperties(node);
    if (!props) return null;
    if (!props.has(path[i])) {
      const where = i === 0 ? 'spec.connection_specification' : `config.${path.slice(0, i).join('.')}`;
      const hint = didYouMean(path[i], props.keys());
      // `config.get('x', ...)` on the last key deliberately tolerates absence: only a likely typo is worth a warning.
      if (tolerant && i === path.length - 1 && !hint) return null;
      return `Config key '${path[i]}' is not declared in ${where}.${hint ? ` Did you mean '${hint}'?` : ''}`;
    }
    node = props.get(path[i]);
  }
  return null;
}

/** The declared property at a key path (for hover and go-to-definition), or undefined. */
export function configProperty(spec: ConfigSpec, path: readonly string[]): Record<string, unknown> | undefined {
  let node: unknown = spec;
  for (const key of path) {
    const props = declaredProperties(node);
    if (!props || !props.has(key)) return undefined;
    node = props.get(key);
  }
  return isObject(node) ? node : undefined;
}

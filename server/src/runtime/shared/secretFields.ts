// The one answer to "which config values are secret": every value whose JSON-schema property says
// `airbyte_secret: true`, found through properties, additionalProperties, array items and every
// oneOf/anyOf/allOf branch. Runtime masking and the client's "Export testing values without secrets"
// both use it. Pure (imports only the pure safeObject), so the client may import it too (see ARCHITECTURE.md).
import { setOwn } from './safeObject';

/** One step of a path into a config: a property name, or `*` for every key of a map. */
export type SecretPath = string[];

const ANY_KEY = '*';
const MAX_DEPTH = 32;

/** The config paths of the secret properties of a JSON schema (a connection specification). */
export function secretPaths(schema: unknown): SecretPath[] {
  const out: SecretPath[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, prefix: SecretPath, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, prefix, depth + 1);
      return;
    }
    const s = node as Record<string, unknown>;
    if (s.airbyte_secret === true && prefix.length > 0) {
      const key = JSON.stringify(prefix);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(prefix);
      }
    }
    const props = s.properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      for (const [k, v] of Object.entries(props as Record<string, unknown>)) visit(v, [...prefix, k], depth + 1);
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object')
      visit(s.additionalProperties, [...prefix, ANY_KEY], depth + 1);
    if (s.patternProperties && typeof s.patternProperties === 'object') {
      for (const v of Object.values(s.patternProperties as Record<string, unknown>)) visit(v, [...prefix, ANY_KEY], depth + 1);
    }
    // Array items keep the path: values are looked up through arrays at every level.
    for (const key of ['items', 'prefixItems', 'additionalItems', 'oneOf', 'anyOf', 'allOf', 'then', 'else'])
      visit(s[key], prefix, depth + 1);
  };
  visit(schema, [], 0);
  return out;
}

/** Every value at one path of a config, looking through arrays at every level. */
function valuesAt(config: unknown, path: SecretPath): unknown[] {
  let level: unknown[] = [config];
  for (const seg of path) {
    const next: unknown[] = [];
    const take = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const item of node) take(item);
        return;
      }
      const rec = node as Record<string, unknown>;
      if (seg === ANY_KEY) next.push(...Object.values(rec));
      else if (Object.hasOwn(rec, seg)) next.push(rec[seg]);
    };
    for (const node of level) take(node);
    level = next;
  }
  return level;
}

/** The secret leaf values of a config (strings and numbers; arrays and objects under a secret property are opened). */
export function secretValues(schema: unknown, config: unknown): Array<string | number> {
  const out: Array<string | number> = [];
  const leaves = (v: unknown, depth: number): void => {
    if (typeof v === 'string' || typeof v === 'number') out.push(v);
    else if (v && typeof v === 'object' && depth < MAX_DEPTH)
      for (const x of Object.values(v as Record<string, unknown>)) leaves(x, depth + 1);
  };
  for (const path of secretPaths(schema)) for (const v of valuesAt(config, path)) leaves(v, 0);
  return out;
}

/** A copy of `config` without any value at a secret path (the input is not modified). */
export function withoutSecrets(schema: unknown, config: unknown): unknown {
  const paths = secretPaths(schema);
  const strip = (node: unknown, remaining: SecretPath[]): unknown => {
    if (!node || typeof node !== 'object' || remaining.length === 0) return node;
    if (Array.isArray(node)) return node.map((item) => strip(item, remaining));
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const matching = remaining.filter((p) => p[0] === key || p[0] === ANY_KEY);
      if (matching.some((p) => p.length === 1)) continue;
      setOwn(
        out,
        key,
        strip(
          value,
          matching.map((p) => p.slice(1)),
        ),
      );
    }
    return out;
  };
  return strip(config, paths);
}

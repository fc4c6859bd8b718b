// Config keys declared by spec.connection_specification: lookup of a key path (nested objects,
// oneOf/anyOf/allOf branches), where each property is written, and the finding for an undeclared
// key. Declared properties count whether or not the schema is open (`additionalProperties: true`,
// which the Connector Builder writes into almost every spec, or no `additionalProperties` at all):
// openness only changes how an undeclared key is reported, never which keys are known.
import type { Severity } from '../problems';

/** A JSON-schema-like object (spec.connection_specification or a nested property). */
export type ConfigSpec = Record<string, unknown>;

/** One declared property of a schema node. */
export interface DeclaredProperty {
  /** The property's own schema (`{}` when it is not an object). */
  schema: Record<string, unknown>;
  /** Where the property's schema sits under the node, e.g. `['oneOf', 1, 'properties', 'key_id']`. */
  at: (string | number)[];
  /** Titles of the `oneOf`/`anyOf` options that declare it; empty when the node declares it itself. */
  options: string[];
}

/** The keys a schema node declares, and whether it accepts others. */
export interface DeclaredKeys {
  properties: Map<string, DeclaredProperty>;
  /** Undeclared keys are allowed: JSON schema allows them unless `additionalProperties: false` (or a branch lists no properties). */
  open: boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const MAX_DEPTH = 32;

/** The properties a schema node declares (merged over its branches); null when it lists none at all. */
export function declaredKeys(schema: unknown, depth = 0): DeclaredKeys | null {
  if (!isObject(schema) || depth > MAX_DEPTH) return null;
  const properties = new Map<string, DeclaredProperty>();
  let listed = false;
  let open = schema.additionalProperties !== false;
  if (isObject(schema.properties)) {
    listed = true;
    for (const [k, v] of Object.entries(schema.properties))
      properties.set(k, { schema: isObject(v) ? v : {}, at: ['properties', k], options: [] });
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    branches.forEach((branch, i) => {
      const inner = declaredKeys(branch, depth + 1);
      // A branch without a property list could hold anything.
      if (!inner) {
        open = true;
        return;
      }
      listed = true;
      open ||= inner.open;
      const option = key === 'allOf' ? null : optionTitle(branch, i);
      for (const [k, p] of inner.properties) {
        const known = properties.get(k);
        const options = option === null ? p.options : [option, ...p.options];
        if (!known) properties.set(k, { schema: p.schema, at: [key, i, ...p.at], options });
        // Declared by several options: keep the first place, name every option (a key declared unconditionally stays so).
        else if (known.options.length > 0 && options.length > 0) known.options.push(...options.filter((o) => !known.options.includes(o)));
        else if (options.length === 0) known.options = [];
      }
    });
  }
  return listed ? { properties, open } : null;
}

/** How an option of a `oneOf` is named in completion and hover: its title, else its constant discriminator, else its position. */
function optionTitle(branch: unknown, i: number): string {
  if (isObject(branch)) {
    if (typeof branch.title === 'string' && branch.title.trim()) return branch.title;
    if (isObject(branch.properties)) {
      for (const p of Object.values(branch.properties)) if (isObject(p) && typeof p.const === 'string') return p.const;
    }
  }
  return `option ${i + 1}`;
}

/** Levenshtein distance. */
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

/** A finding about a config key the spec does not declare. */
export interface UndeclaredKeyFinding {
  message: string;
  /** `warning` for a likely typo or a closed schema; `information` for an extra key an open schema allows. */
  severity: Severity;
}

/**
 * The finding when `path` (config keys) leaves the declared spec; null when declared or unknowable.
 * `tolerant`: the last key is read with `.get(...)`, so its absence is expected unless it looks like a typo.
 */
export function undeclaredConfigKey(spec: ConfigSpec, path: readonly string[], tolerant = false): UndeclaredKeyFinding | null {
  // The same access is written in many templates (`config['start_date']`): answered once per spec
  // object (a did-you-mean search over the declared keys is the costly part).
  let answers = FINDINGS_BY_SPEC.get(spec);
  if (!answers) FINDINGS_BY_SPEC.set(spec, (answers = new Map()));
  const key = `${tolerant ? 't' : 's'}${JSON.stringify(path)}`;
  let found = answers.get(key);
  if (found === undefined) {
    found = findUndeclared(spec, path, tolerant);
    answers.set(key, found);
  }
  return found;
}

const FINDINGS_BY_SPEC = new WeakMap<ConfigSpec, Map<string, UndeclaredKeyFinding | null>>();

function findUndeclared(spec: ConfigSpec, path: readonly string[], tolerant: boolean): UndeclaredKeyFinding | null {
  let node: unknown = spec;
  for (let i = 0; i < path.length; i++) {
    const keys = declaredKeys(node);
    if (!keys) return null;
    const prop = keys.properties.get(path[i]);
    if (prop) {
      node = prop.schema;
      continue;
    }
    const where = i === 0 ? 'spec.connection_specification' : `config.${path.slice(0, i).join('.')}`;
    const hint = didYouMean(path[i], keys.properties.keys());
    if (hint) return { severity: 'warning', message: `Config key '${path[i]}' is not declared in ${where}. Did you mean '${hint}'?` };
    if (tolerant && i === path.length - 1) return null;
    // An open schema accepts extra keys (config migrations add some): worth a note, not a warning.
    if (keys.open)
      return {
        severity: 'information',
        message: `Config key '${path[i]}' is not declared in ${where}; the spec allows extra keys, so it may come from a config migration or the user.`,
      };
    return {
      severity: 'warning',
      message: `Config key '${path[i]}' is not declared in ${where}, which allows no other keys (additionalProperties: false).`,
    };
  }
  return null;
}

/** A declared property reached by a key path: its schema, the options that declare it, and its path in the spec. */
export interface ResolvedConfigProperty {
  schema: Record<string, unknown>;
  options: string[];
  /** Path from spec.connection_specification to the property's schema (`properties`, `oneOf`, indexes, keys). */
  specPath: (string | number)[];
}

/** The declared property at a key path (for hover, go-to-definition and references), or undefined. */
export function resolveConfigProperty(spec: ConfigSpec, path: readonly string[]): ResolvedConfigProperty | undefined {
  let node: unknown = spec;
  let found: ResolvedConfigProperty | undefined;
  const specPath: (string | number)[] = [];
  for (const key of path) {
    const prop = declaredKeys(node)?.properties.get(key);
    if (!prop) return undefined;
    specPath.push(...prop.at);
    found = { schema: prop.schema, options: prop.options, specPath: [...specPath] };
    node = prop.schema;
  }
  return found;
}

/** The declared property schema at a key path, or undefined. */
export function configProperty(spec: ConfigSpec, path: readonly string[]): Record<string, unknown> | undefined {
  return resolveConfigProperty(spec, path)?.schema;
}

/**
 * The config key path a spec location stands for: `['properties', 'credentials', 'oneOf', 0,
 * 'properties', 'client_id']` → `['credentials', 'client_id']`; null when the location is not a
 * property (or inside one).
 */
export function configKeyPathOf(specPath: readonly (string | number)[]): string[] | null {
  const keys: string[] = [];
  let i = 0;
  while (i < specPath.length) {
    const s = specPath[i];
    if (s === 'properties' && typeof specPath[i + 1] === 'string') {
      keys.push(specPath[i + 1] as string);
      i += 2;
    } else if ((s === 'oneOf' || s === 'anyOf' || s === 'allOf') && typeof specPath[i + 1] === 'number') {
      i += 2;
    } else break;
  }
  return keys.length ? keys : null;
}

// Finds the secret fields of a connector config from its spec (`airbyte_secret: true`), walking
// properties and oneOf/anyOf branches the way the reference collects secrets (Spec §11).

type Config = Record<string, unknown>;

/** Removes every value whose spec property is `airbyte_secret: true` (walking properties and oneOf branches). */
export function withoutSecrets(spec: unknown, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !spec || typeof spec !== 'object') return value;
  const s = spec as { properties?: Record<string, unknown>; oneOf?: unknown[]; anyOf?: unknown[] };
  const out: Config = { ...(value as Config) };
  const shapes = [s, ...((s.oneOf ?? s.anyOf ?? []) as typeof s[])];
  for (const shape of shapes) {
    for (const [key, prop] of Object.entries(shape?.properties ?? {})) {
      if (!(key in out)) continue;
      if ((prop as { airbyte_secret?: boolean }).airbyte_secret) delete out[key];
      else out[key] = withoutSecrets(prop, out[key]);
    }
  }
  return out;
}

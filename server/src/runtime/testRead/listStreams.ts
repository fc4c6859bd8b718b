// The streams a test read can target: the static `streams`, then those the `dynamic_streams`
// definitions resolve to with this config (reading the API for HttpComponentsResolver). Used by the
// CLI's `streams` command and the editor's "Resolve streams…" code lens.
import type { TestReadEnv, TestReadLimits } from '../types';
import { configError, RuntimeError } from '../errors';
import { resolveManifest } from '../manifest/resolve';
import { parseVersion } from '../schema/versions';
import { resolveDynamicStreams } from './dynamicStreams';
import { SecretMasker } from './masking';
import type { ReadContext } from './readContext';
import { DEFAULT_TEST_READ_LIMITS } from './testRead';
import { normalizeConfig } from '../config/configNormalization';
import { streamDefinitions } from './streamDefinitions';

/** One stream: its name and, for a resolved dynamic stream, the definition and resolver behind it. */
export type StreamListing = { name: string; dynamic: boolean; definition?: string; resolver?: string };

/**
 * Lists the streams of `manifest` for `config`. Throws RuntimeError (secrets masked) when the
 * manifest cannot be resolved or a dynamic definition cannot be resolved (e.g. its API fails).
 * Warnings met on the way (deprecated fields of a resolver's requester, …) go to `onLog`.
 */
export async function listStreams(
  manifest: object,
  config: object,
  limits: TestReadLimits = {},
  env: TestReadEnv = {},
  onLog?: (level: string, message: string) => void,
): Promise<StreamListing[]> {
  const resolved = resolveManifest(manifest);
  const broken = resolved.problems.filter((p) => p.severity === 'error');
  if (broken.length)
    throw configError(
      `The manifest cannot be resolved: ${broken
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}`,
    );
  const root = resolved.value as Record<string, unknown>;
  // As the reference: the config after the spec's migrations and transformations, and the streams of
  // ConditionalStreams entries whose condition holds for it.
  const cfg = normalizeConfig(root.spec, config as Record<string, unknown>, env).config;
  const masker = new SecretMasker();
  masker.addFromManifest(root, cfg);
  const statics: StreamListing[] = streamDefinitions(root, cfg, env)
    .streams.map((d) => d.stream)
    .filter((s) => s && typeof s.name === 'string')
    .map((s) => ({ name: s.name as string, dynamic: false }));
  if (!Array.isArray(root.dynamic_streams) || root.dynamic_streams.length === 0) return statics;
  const rc: ReadContext = {
    manifest: root,
    config: cfg,
    env,
    limits: { ...DEFAULT_TEST_READ_LIMITS, ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) },
    masker,
    requestOptionCompat: { manifestVersion: parseVersion(root.version) },
    aux: () => {},
    log: (level, message) => onLog?.(level, masker.maskText(message)),
  };
  try {
    const dynamic = await resolveDynamicStreams(root, rc);
    // A name built from an API answer may echo a credential: it is shown masked like every other API text.
    return [
      ...statics,
      ...dynamic.map((d) => ({ name: masker.maskText(d.name), dynamic: true, definition: d.definition, resolver: d.resolver })),
    ];
  } catch (e) {
    if (e instanceof RuntimeError)
      throw new RuntimeError(masker.maskText(e.message), e.failureType, e.status !== undefined ? { status: e.status } : {});
    throw new RuntimeError(masker.maskText((e as Error)?.message ?? String(e)), 'system_error');
  }
}

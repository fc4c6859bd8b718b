// Serves `airbyte/getSpec`: the manifest's connection specification and advanced_auth with every
// reference resolved, so the client can build the testing-values form without parsing YAML, and the
// config paths used as credentials, so the client masks its views as the runtime does.
import type { GetSpecResult } from '../protocol';
import type { ManifestDocument } from '../documents';
import { followReference, resolveDeep } from './references';
import { resolveManifest } from '../runtime';
import { credentialConfigPaths } from '../runtime';

/** The spec of `doc`; members are null when absent or not an object. Never throws. */
export function provideSpec(doc: ManifestDocument): GetSpecResult {
  const root = doc.model.value;
  const spec = root && typeof root === 'object' ? followReference(root, (root as Record<string, unknown>).spec) : null;
  const pick = (key: string): Record<string, unknown> | null => {
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return null;
    const value = resolveDeep(root, (spec as Record<string, unknown>)[key]);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  };
  // The client masks its views with these too (its second line of defence), as the runtime does.
  const resolved = root && typeof root === 'object' && !Array.isArray(root) ? resolveManifest(root as Record<string, unknown>).value : null;
  return {
    connectionSpecification: pick('connection_specification'),
    advancedAuth: pick('advanced_auth'),
    credentialPaths: credentialConfigPaths(resolved),
  };
}

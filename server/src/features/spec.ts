// Serves `airbyte/getSpec`: the manifest's connection specification and advanced_auth with every
// reference resolved, so the client can build the testing-values form without parsing YAML.
import type { GetSpecResult } from '../protocol';
import type { ManifestDocument } from '../documents';
import { followReference, resolveDeep } from './references';

/** The spec of `doc`; members are null when absent or not an object. Never throws. */
export function provideSpec(doc: ManifestDocument): GetSpecResult {
  const root = doc.model.value;
  const spec = root && typeof root === 'object' ? followReference(root, (root as Record<string, unknown>).spec) : null;
  const pick = (key: string): Record<string, unknown> | null => {
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return null;
    const value = resolveDeep(root, (spec as Record<string, unknown>)[key]);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  };
  return { connectionSpecification: pick('connection_specification'), advancedAuth: pick('advanced_auth') };
}

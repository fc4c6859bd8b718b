// "Show resolved manifest": the manifest as the CDK processes it (§1: references resolved, `$parameters`
// propagated, default component types inserted), printed as YAML for reading. Authors use it to see what a
// `$ref` merge or a parameter actually produced.
import { stringify } from 'yaml';
import type { ManifestDocument } from '../documents';
import { resolveManifest } from '../runtime';
import type { ResolvedManifestResult } from '../protocol';

/** The resolved manifest of `doc` as YAML text, headed by a comment that says what it is. Never throws. */
export function provideResolvedManifest(doc: ManifestDocument): ResolvedManifestResult {
  const parsed = doc.parsed;
  const name = doc.uri.slice(doc.uri.lastIndexOf('/') + 1);
  if (parsed.value === null || parsed.value === undefined)
    return { text: `# ${name} is empty: there is nothing to resolve.\n`, problems: 0 };
  const resolved = resolveManifest(parsed.value, { parsed });
  const header = [
    `# ${name} as the Airbyte CDK reads it: references resolved, $parameters propagated, default types inserted.`,
    '# Read-only view; edit the manifest itself.',
    ...(resolved.problems.length ? [`# ${resolved.problems.length} reference problem(s) remain: see the manifest's diagnostics.`] : []),
  ];
  // Shared definitions appear in full wherever they are used (no YAML aliases), as the CDK sees them.
  const body = stringify(resolved.value, { aliasDuplicateObjects: false, lineWidth: 0 });
  return { text: `${header.join('\n')}\n${body}`, problems: resolved.problems.length };
}

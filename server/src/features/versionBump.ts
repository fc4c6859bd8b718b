// "Bump the CDK version": a source action that sets the manifest's `version:` to the latest CDK version the
// catalog knows and writes, above it, the behaviour changes between the declared and the new version that
// touch this manifest (which of its components or templates each one concerns). The list comes from
// runtime/schema/behaviourChanges.ts; nothing is offered when the declared version is not older.
import { CodeActionKind, type CodeAction } from 'vscode-languageserver';
import { spanEditsToWorkspaceEdit } from '../convert';
import type { ManifestDocument } from '../documents';
import { behaviourChangesBetween, compareVersions, parseVersion, resolveManifest, type TouchedBehaviourChange } from '../runtime';
import { knownCdkVersions } from './manifestSkeleton';
import type { SpanEdit } from './yamlText';

/** Under `source` so that "Source Action…" and `editor.action.codeAction` find it. */
export const VERSION_BUMP_KIND = `${CodeActionKind.Source}.airbyte.versionBump`;

/** At most this many places are named per change; the rest are counted. */
const PLACES_SHOWN = 4;

/** The comment lines written above `version:` (without a trailing newline). */
export function behaviourChangeComment(declared: string, target: string, changes: TouchedBehaviourChange[]): string[] {
  if (!changes.length) return [];
  const lines = [`# CDK version bumped from ${declared} to ${target}. Behaviour changes in between that touch this manifest:`];
  for (const c of changes) {
    lines.push(`# - ${c.version}: ${c.summary} (${c.source})`);
    const shown = c.where.slice(0, PLACES_SHOWN).join('; ');
    const more = c.where.length > PLACES_SHOWN ? `; and ${c.where.length - PLACES_SHOWN} more` : '';
    lines.push(`#   here: ${shown}${more}`);
  }
  return lines;
}

/** The source action, or none when the manifest has no readable top-level `version:` older than the target. */
export function provideVersionBumpActions(doc: ManifestDocument): CodeAction[] {
  const target = knownCdkVersions()[0];
  const m = /^version[ \t]*:[ \t]*(["']?)([^"'\n#]*?)\1[ \t]*(?:#.*)?$/m.exec(doc.text);
  if (!target || !m) return [];
  const declared = m[2].trim();
  const from = parseVersion(declared);
  if (!from || compareVersions(from, parseVersion(target)!) >= 0) return [];
  const resolved = resolveManifest(doc.parsed.value).value;
  const changes = behaviourChangesBetween(resolved, declared, target);
  const lineStart = m.index;
  const valueStart = lineStart + m[0].indexOf(m[1] + m[2], m[0].indexOf(':') + 1);
  const edits: SpanEdit[] = [];
  const comment = behaviourChangeComment(declared, target, changes);
  if (comment.length) edits.push({ span: { start: lineStart, end: lineStart }, newText: `${comment.join('\n')}\n` });
  edits.push({ span: { start: valueStart, end: valueStart + m[1].length * 2 + m[2].length }, newText: `${m[1]}${target}${m[1]}` });
  const count =
    changes.length === 0
      ? 'no behaviour change touches this manifest'
      : `${changes.length} behaviour change${changes.length === 1 ? '' : 's'} touch${changes.length === 1 ? 'es' : ''} this manifest, listed above \`version\``;
  return [
    {
      title: `Bump CDK version ${declared} → ${target} (${count})`,
      kind: VERSION_BUMP_KIND,
      edit: spanEditsToWorkspaceEdit(doc.textDocument, edits),
    },
  ];
}

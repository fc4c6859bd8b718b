// "Apply all CDK migrations": one source action that applies, in one edit, every migration of the CDK's
// manifest-migration registry (airbyte_cdk/manifest_migrations, pinned commit) that the editor can apply to
// the manifest's text: `url_base` + `path` → `url` (http_requester_url_base_to_url, http_requester_path_to_url)
// and `request_body_json` / `request_body_data` → `request_body` (http_requester_request_body_json_data_to_request_body).
// The places come from the deprecation diagnostics (each carries its typed fix), so the action and the
// quick fixes can never disagree. A requester whose fields are not written out in one mapping (a `$ref`
// base with the path elsewhere) keeps its diagnostic: the action's title says how many are left.
import { CodeActionKind, type CodeAction } from 'vscode-languageserver';
import { spanEditsToWorkspaceEdit } from '../convert';
import type { ManifestDocument } from '../documents';
import { documentValidation } from '../documentValidation';
import type { Problem } from '../runtime';
import { migrationEdits, parameterKeys } from './codeActions';
import type { SpanEdit } from './yamlText';

/** The kind of the action, under `source` so that "Source Action…" and `editor.action.codeAction` find it. */
export const APPLY_CDK_MIGRATIONS_KIND = `${CodeActionKind.Source}.airbyte.cdkMigrations`;

/** Every migration edit of the document (non-overlapping, in text order) and what is left. */
export function planCdkMigrations(
  doc: ManifestDocument,
  problems: Problem[],
  parameters: Set<string>,
): { edits: SpanEdit[]; applied: number; left: number } {
  const edits: SpanEdit[] = [];
  let applied = 0;
  let left = 0;
  const migratable = problems.filter(
    (p) => p.code === 'deprecated' && (p.fix?.kind === 'merge-url-base-and-path' || p.fix?.kind === 'migrate-request-body'),
  );
  for (const p of migratable) {
    const m = migrationEdits(doc, p.fix!, p.span.start, parameters);
    if (!m) {
      left++;
      continue;
    }
    // `url_base` and `path` each carry the same merge: one application is enough.
    if (m.edits.every((e) => edits.some((x) => x.span.start === e.span.start && x.span.end === e.span.end))) continue;
    if (m.edits.some((e) => edits.some((x) => e.span.start < x.span.end && x.span.start < e.span.end))) {
      left++;
      continue;
    }
    edits.push(...m.edits);
    applied++;
  }
  edits.sort((a, b) => a.span.start - b.span.start);
  return { edits, applied, left };
}

/** The source action, or none when nothing can be migrated. */
export function provideMigrationActions(doc: ManifestDocument): CodeAction[] {
  const details = documentValidation(doc);
  const plan = planCdkMigrations(doc, details.problems, parameterKeys(doc.parsed.value));
  if (plan.applied === 0) return [];
  const rest = plan.left ? `; ${plan.left} deprecated field${plan.left === 1 ? '' : 's'} left to migrate by hand` : '';
  return [
    {
      title: `Apply all CDK migrations (${plan.applied} change${plan.applied === 1 ? '' : 's'}${rest})`,
      kind: APPLY_CDK_MIGRATIONS_KIND,
      edit: spanEditsToWorkspaceEdit(doc.textDocument, plan.edits),
    },
  ];
}

// Diagnostics of a manifest document: every problem the runtime's checkers report (YAML, references,
// schema, semantic rules; runtime/manifest/validateManifest.ts), as LSP diagnostics.
import type { Diagnostic } from 'vscode-languageserver';
import { problemsToDiagnostics } from '../convert';
import type { ManifestDocument } from '../documents';
import { validateManifestDetailed } from '../runtime/manifest/validateManifest';
import { rememberTemplates } from './jinjaDocument';

/** All diagnostics of `doc` at its current version. Never throws. */
export function provideDiagnostics(doc: ManifestDocument): Diagnostic[] {
  const details = validateManifestDetailed(doc.parsed);
  // Validation found every template of this version: completion and hover inside templates reuse
  // them instead of resolving the manifest again on their first request.
  if (details.resolved && details.templates) rememberTemplates(doc, details.resolved, details.templates);
  return problemsToDiagnostics(doc.textDocument, details.problems);
}

// Diagnostics of a manifest document: every problem the runtime's checkers report (YAML, references,
// schema, semantic rules; runtime/manifest/validateManifest.ts), as LSP diagnostics.
import type { Diagnostic } from 'vscode-languageserver';
import { problemToDiagnostic } from '../convert';
import type { ManifestDocument } from '../documents';
import { validateManifest } from '../runtime/manifest/validateManifest';

/** All diagnostics of `doc` at its current version. Never throws. */
export function provideDiagnostics(doc: ManifestDocument): Diagnostic[] {
  return validateManifest(doc.parsed).map((p) => problemToDiagnostic(doc.textDocument, p));
}

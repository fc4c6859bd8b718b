// Diagnostics of a manifest document: every problem the runtime's checkers report, as LSP diagnostics.
import type { Diagnostic } from 'vscode-languageserver';
import { problemToDiagnostic } from '../convert';
import type { ManifestDocument } from '../documents';

/** All diagnostics of `doc` at its current version. Never throws. */
export function provideDiagnostics(doc: ManifestDocument): Diagnostic[] {
  return doc.parsed.problems.map((p) => problemToDiagnostic(doc.textDocument, p));
}

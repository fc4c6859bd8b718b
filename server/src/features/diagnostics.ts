// Diagnostics of a manifest document: every problem the runtime's checkers report (YAML, references,
// schema, semantic rules; runtime/validation/validateManifest.ts), as LSP diagnostics. At most
// MAX_DIAGNOSTICS per document, errors first, plus one summary saying how many more there are: a
// hostile document with 150,000 undefined names must not flood the protocol and the editor.
import type { Diagnostic } from 'vscode-languageserver';
import { problemsToDiagnostics } from '../convert';
import type { ManifestDocument } from '../documents';
import type { Problem } from '../runtime';
import { documentValidation } from '../documentValidation';
import { MAX_LINE_LENGTH } from '../longLines';

/** Diagnostics published per document; the largest real manifest has 552. */
export const MAX_DIAGNOSTICS = 1000;

const RANK: Record<string, number> = { error: 0, warning: 1, information: 2, info: 2, hint: 3 };

/**
 * The problems shown: all of them when there are at most `max`, else the `max` most severe (the
 * earliest first within a severity), in document order, and the number left out.
 */
export function capProblems(problems: readonly Problem[], max = MAX_DIAGNOSTICS): { shown: Problem[]; omitted: number } {
  if (problems.length <= max) return { shown: [...problems], omitted: 0 };
  const ranked = problems.map((p, i) => ({ p, i })).sort((a, b) => (RANK[a.p.severity] ?? 4) - (RANK[b.p.severity] ?? 4) || a.i - b.i);
  const shown = ranked
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.p);
  return { shown, omitted: problems.length - max };
}

/** All diagnostics of `doc` at its current version (capped, see above). Never throws. */
export function provideDiagnostics(doc: ManifestDocument): Diagnostic[] {
  // Kept per version: template completion and hover reuse the templates it found (documentValidation.ts).
  const details = documentValidation(doc);
  // Lines too long to analyse were read as comments (documents.ts): each gets an error saying so.
  const overlong: Problem[] = doc.overlongLines.map((l) => ({
    code: 'line-too-long',
    severity: 'error',
    message: `This line has ${l.length.toLocaleString('en-US')} characters, more than the ${MAX_LINE_LENGTH.toLocaleString('en-US')} the language server reads: it is ignored (read as a comment). Split it across lines.`,
    span: { start: l.start, end: l.start + 1 },
  }));
  const { shown, omitted } = capProblems(
    overlong.length ? [...overlong, ...details.problems].sort((a, b) => a.span.start - b.span.start) : details.problems,
  );
  if (omitted > 0) {
    shown.unshift({
      code: 'too-many-problems',
      severity: 'warning',
      message: `${omitted.toLocaleString('en-US')} more problems are not shown: at most ${MAX_DIAGNOSTICS.toLocaleString('en-US')} are listed per document (errors first). Fix these and the next ones appear.`,
      span: { start: 0, end: 0 },
    });
  }
  // The locator's line index (built with indexOf) on open or for many problems; after an edit the
  // editor's own document keeps its index up to date incrementally, which is cheaper.
  const lineStarts = doc.isFirstVersion || shown.length >= 64 ? () => doc.locator.lineStartOffsets : undefined;
  const diagnostics = problemsToDiagnostics(doc.textDocument, shown, lineStarts);
  return diagnostics;
}

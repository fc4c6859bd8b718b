// Offset spans ↔ LSP ranges and runtime Problems → LSP Diagnostics. The only place where offsets
// become line/character positions.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type Position, type Range, type WorkspaceEdit } from 'vscode-languageserver';
import type { Problem, Severity } from './runtime/problems';
import type { Span } from './runtime/types';

export function spanToRange(doc: TextDocument, span: Span): Range {
  return { start: doc.positionAt(span.start), end: doc.positionAt(span.end) };
}

export function rangeToSpan(doc: TextDocument, range: Range): Span {
  return { start: doc.offsetAt(range.start), end: doc.offsetAt(range.end) };
}

export function positionToOffset(doc: TextDocument, position: Position): number {
  return doc.offsetAt(position);
}

/** The 1-based line number of an offset, as people read it (messages, hovers). */
export function lineNumberAt(doc: TextDocument, offset: number): number {
  return doc.positionAt(offset).line + 1;
}

/** Offset edits of one document as a WorkspaceEdit. */
export function spanEditsToWorkspaceEdit(doc: TextDocument, edits: ReadonlyArray<{ span: Span; newText: string }>): WorkspaceEdit {
  return { changes: { [doc.uri]: edits.map((e) => ({ range: spanToRange(doc, e.span), newText: e.newText })) } };
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function problemToDiagnostic(doc: TextDocument, problem: Problem): Diagnostic {
  const diagnostic: Diagnostic = {
    range: spanToRange(doc, problem.span),
    severity: SEVERITY[problem.severity],
    source: 'airbyte',
    code: problem.code,
    message: problem.message,
  };
  // Quick fixes read what they need from here, never from the message.
  if (problem.fix) diagnostic.data = problem.fix;
  // Editors strike deprecated text through.
  if (problem.code === 'deprecated') diagnostic.tags = [DiagnosticTag.Deprecated];
  if (problem.related?.length) {
    diagnostic.relatedInformation = problem.related.map((r) => ({
      message: r.message,
      location: { uri: doc.uri, range: spanToRange(doc, r.span) },
    }));
  }
  return diagnostic;
}

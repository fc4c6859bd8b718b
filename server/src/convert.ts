// Offset spans ↔ LSP ranges and runtime Problems → LSP Diagnostics. The only place where offsets
// become line/character positions.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type Position, type Range, type WorkspaceEdit } from 'vscode-languageserver';
import { lineColIn, type Problem, type Severity } from './runtime';
import type { Span } from './runtime';

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

/** "line L, column C" (both 1-based) of an offset, as people read it in messages. */
export function lineColumnAt(doc: TextDocument, offset: number): string {
  const p = doc.positionAt(offset);
  return `line ${p.line + 1}, column ${p.character + 1}`;
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

/** An offset → position function over one document version. */
type PositionAt = (offset: number) => Position;

/**
 * The diagnostics of one version's problems. `lineStarts` (the offsets where the version's lines
 * start, as its locator indexed them with `indexOf`) spares the document's own index, a per-character
 * loop that cost 11 ms on the first open of a 56,000-line manifest. Positions are exactly the
 * document's (`positionAt`); text with a carriage return, or no `lineStarts`, uses the document's index.
 */
export function problemsToDiagnostics(doc: TextDocument, problems: readonly Problem[], lineStarts?: () => readonly number[]): Diagnostic[] {
  const text = lineStarts && problems.length ? doc.getText() : '';
  const positionAt: PositionAt = text && !text.includes('\r') ? newlinePositions(text, lineStarts!()) : (offset) => doc.positionAt(offset);
  return problems.map((p) => toDiagnostic(doc, p, positionAt));
}

/** positionAt over text whose only line break is `\n`, from its line starts. */
function newlinePositions(text: string, starts: readonly number[]): PositionAt {
  return (at) => {
    const { line, col } = lineColIn(starts, Math.max(Math.min(at, text.length), 0));
    return { line: line - 1, character: col - 1 };
  };
}

export function problemToDiagnostic(doc: TextDocument, problem: Problem): Diagnostic {
  return toDiagnostic(doc, problem, (offset) => doc.positionAt(offset));
}

function toDiagnostic(doc: TextDocument, problem: Problem, positionAt: PositionAt): Diagnostic {
  const range = (span: Span): Range => ({ start: positionAt(span.start), end: positionAt(span.end) });
  const diagnostic: Diagnostic = {
    range: range(problem.span),
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
      location: { uri: doc.uri, range: range(r.span) },
    }));
  }
  return diagnostic;
}

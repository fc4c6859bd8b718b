// Refactor "Inline reference": a `"#/…"` reference string or a `$ref` mapping is replaced by the
// text of its target, so what the CDK reads is unchanged (Spec §1.1): a reference string or a
// mapping holding only `$ref` becomes the target's value; a `$ref` beside local keys becomes the
// target's entries that the local keys do not override (the CDK's shallow merge, written out).
// The target itself stays where it is (other places may still use it).
import { CodeActionKind, type CodeAction } from 'vscode-languageserver';
import { isScalar } from 'yaml';
import { spanEditsToWorkspaceEdit } from '../convert';
import type { ManifestDocument } from '../documents';
import type { Segment } from '../model/manifestModel';
import { nextLineStart, type Span } from '../runtime';
import { findReferenceTarget, referencePath, valueAt } from './references';
import { indentStep, reindent, replaceValueEdit, valueText, type SpanEdit } from './yamlText';

/** The inline action for the reference under `span.start`, if there is one. Never throws. */
export function provideInlineActions(doc: ManifestDocument, span: Span): CodeAction[] {
  const model = doc.model;
  const at = doc.locator.nodeAt(span.start);
  if (!at || at.path.includes('config_overrides')) return [];
  const root = model.value;
  let holderPath: Segment[];
  if (at.path[at.path.length - 1] === '$ref') holderPath = at.path.slice(0, -1);
  else if (!at.onKey && isScalar(at.node) && referencePath(at.node.value) !== null) holderPath = at.path;
  else if (at.onKey) holderPath = at.path;
  else return [];
  const holder = valueAt(root, holderPath);
  const reference = typeof holder === 'string' ? holder : isPlainMap(holder) ? holder.$ref : undefined;
  const refPath = referencePath(reference);
  if (refPath === null) return [];
  const edit = inlineEdit(doc, holderPath, holder, refPath);
  if (!edit) return [];
  return [
    {
      title: `Inline reference \`${String(reference)}\``,
      kind: CodeActionKind.RefactorInline,
      edit: spanEditsToWorkspaceEdit(doc.textDocument, [edit]),
    },
  ];
}

function inlineEdit(doc: ManifestDocument, holderPath: Segment[], holder: unknown, refPath: string): SpanEdit | null {
  const text = doc.text;
  const model = doc.model;
  const root = model.value;
  const target = findReferenceTarget(root, refPath);
  if (!target) return null;
  const targetLocation = doc.locator.locate(target);
  const holderLocation = doc.locator.locate(holderPath);
  if (!targetLocation || !holderLocation) return null;
  const written = valueText(doc, targetLocation);
  if (!written) return null;
  const targetValue = valueAt(root, target);
  const locals = isPlainMap(holder) ? Object.keys(holder).filter((k) => k !== '$ref') : [];
  const childIndent =
    (holderLocation.keySpan ? doc.locator.column(holderLocation.keySpan.start) : doc.locator.column(holderLocation.valueSpan.start)) +
    indentStep(doc, targetLocation);
  // Spec §1.1: a target that is not a mapping replaces the holder; its local keys are dropped.
  if (locals.length === 0 || !isPlainMap(targetValue)) return replaceValueEdit(doc, holderLocation, written, childIndent);
  if (!written.block) return null;
  // The target's entries that no local key overrides, as lines at the target's entry indentation.
  const lines: string[] = [];
  for (const key of Object.keys(targetValue)) {
    if (locals.includes(key)) continue;
    const entry = doc.locator.locate([...target, key]);
    if (!entry?.keySpan) return null;
    const end = doc.locator.lineEnd(Math.max(entry.keySpan.end, trimmedEnd(text, entry.valueSpan.end)) - 1);
    const entryLines = text
      .slice(entry.keySpan.start, end)
      .split('\n')
      .map((l) => l.replace(/\r$/, ''));
    entryLines[0] = ' '.repeat(doc.locator.column(entry.keySpan.start)) + entryLines[0];
    lines.push(...entryLines);
  }
  const ref = doc.locator.locate([...holderPath, '$ref']);
  if (!ref?.keySpan) return null;
  // `$ref` must be a block entry alone on its line(s) for its lines to be replaced.
  if (doc.locator.lineStart(ref.keySpan.start) === doc.locator.lineStart(holderLocation.keySpan?.start ?? -1)) return null;
  const refEnd = doc.locator.lineEnd(Math.max(ref.keySpan.end, trimmedEnd(text, ref.valueSpan.end)) - 1);
  if (lines.length === 0) {
    // Every target key is overridden: only the `$ref` line goes.
    const lineStart = doc.locator.lineStart(ref.keySpan.start);
    if (text.slice(lineStart, ref.keySpan.start).trim() !== '') return null;
    return { span: { start: lineStart, end: nextLineStart(text, refEnd) }, newText: '' };
  }
  const moved = reindent(lines, written.indent, doc.locator.column(ref.keySpan.start));
  return { span: { start: ref.keySpan.start, end: refEnd }, newText: [moved[0].trimStart(), ...moved.slice(1)].join(doc.locator.eol) };
}

function trimmedEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && /\s/.test(text[e - 1])) e--;
  return e;
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

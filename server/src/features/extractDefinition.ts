// Refactor "Extract to definitions": an authenticator, requester, paginator or record selector
// written in place becomes an entry of `definitions`, and the place that held it a
// `$ref: "#/definitions/<name>"` (Spec §1.1: the CDK replaces the mapping by its target, so what
// it reads is unchanged). When other places hold an identical component, a second action shares
// one entry among all of them ("Share authenticator with 3 streams").
import { CodeActionKind, type CodeAction } from 'vscode-languageserver';
import { spanEditsToWorkspaceEdit } from '../convert';
import type { ManifestDocument } from '../documents';
import type { Location, Segment } from '../model/manifestModel';
import type { Span } from '../runtime';
import { valueAt } from './references';
import { indentStep, reindent, replaceValueEdit, valueText, type SpanEdit, type ValueText } from './yamlText';

/** The fields whose component can be extracted, with the words a title uses for it. */
const EXTRACTABLE: Record<string, string> = {
  authenticator: 'authenticator',
  requester: 'requester',
  paginator: 'paginator',
  record_selector: 'record selector',
};

/** At most this many enclosing components get an action (an authenticator inside a requester: both). */
const MAX_ENCLOSING = 2;

/** Extract (and share) actions for the components enclosing `span.start`. Never throws. */
export function provideExtractActions(doc: ManifestDocument, span: Span): CodeAction[] {
  const model = doc.model;
  const at = doc.locator.nodeAt(span.start);
  if (!at) return [];
  const root = model.value;
  const actions: CodeAction[] = [];
  let enclosing = 0;
  for (let k = at.path.length; k >= 1 && enclosing < MAX_ENCLOSING; k--) {
    const key = at.path[k - 1];
    if (typeof key !== 'string' || !Object.hasOwn(EXTRACTABLE, key)) continue;
    const path = at.path.slice(0, k);
    // A `definitions` entry is already shared.
    if (path[0] === 'definitions' && path.length === 2) continue;
    const value = valueAt(root, path);
    if (!isPlainMap(value) || isReferenceOnly(value)) continue;
    enclosing++;
    const label = EXTRACTABLE[key];
    const single = extractEdits(doc, key, value, [path]);
    if (single) actions.push(refactor(doc, `Extract ${label} to definitions`, single));
    const identical = findIdentical(root, key, value);
    if (identical.length > 1) {
      const shared = extractEdits(doc, key, value, identical);
      if (shared) actions.push(refactor(doc, `Share ${label} with ${placesTitle(root, identical)}`, shared));
    }
  }
  return actions;
}

function refactor(doc: ManifestDocument, title: string, edits: SpanEdit[]): CodeAction {
  return { title, kind: CodeActionKind.RefactorExtract, edit: spanEditsToWorkspaceEdit(doc.textDocument, edits) };
}

/**
 * "3 streams" when every place is inside one of two or more streams (counted by name: the Connector
 * Builder writes a stream both under `definitions.streams` and in `streams`), else "4 places".
 */
function placesTitle(root: unknown, paths: Segment[][]): string {
  const streams = new Set<string>();
  for (const p of paths) {
    let streamPath: Segment[] | null = null;
    if (p[0] === 'streams' && p.length > 2) streamPath = p.slice(0, 2);
    else if (p[0] === 'definitions' && p[1] === 'streams' && p.length > 3) streamPath = p.slice(0, 3);
    if (!streamPath) return `${paths.length} places`;
    const stream = valueAt(root, streamPath);
    const params = isPlainMap(stream) && isPlainMap(stream.$parameters) ? stream.$parameters : {};
    const name =
      isPlainMap(stream) && typeof stream.name === 'string'
        ? stream.name
        : typeof params.name === 'string'
          ? params.name
          : streamPath.join('/');
    streams.add(name);
  }
  return streams.size >= 2 ? `${streams.size} streams` : `${paths.length} places`;
}

/** Every place outside the `definitions` entries themselves where field `key` holds a value equal to `value`. */
function findIdentical(root: unknown, key: string, value: unknown): Segment[][] {
  const out: Segment[][] = [];
  const walk = (node: unknown, path: Segment[]) => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, [...path, i]));
      return;
    }
    if (!isPlainMap(node)) return;
    for (const [k, child] of Object.entries(node)) {
      const at = [...path, k];
      if (k === key && !(at[0] === 'definitions' && at.length === 2) && deepEqual(child, value)) out.push(at);
      else if (k !== 'config_overrides') walk(child, at);
    }
  };
  walk(root, []);
  return out;
}

/**
 * The edits that move the component at each of `paths` (all equal to `value`) into one
 * `definitions` entry, or null when one of them is not written as movable text.
 */
function extractEdits(doc: ManifestDocument, key: string, value: unknown, paths: Segment[][]): SpanEdit[] | null {
  const model = doc.model;
  const root = model.value as Record<string, unknown>;
  const definitions = isPlainMap(root.definitions) ? root.definitions : null;
  // An identical entry already in `definitions` is referenced as it is.
  const existing = definitions ? Object.keys(definitions).find((name) => deepEqual(definitions[name], value)) : undefined;
  const name = existing ?? freeName(definitions, key);
  const reference = `$ref: "#/definitions/${name}"`;
  const edits: SpanEdit[] = [];
  let moved: { holder: Location; text: ValueText } | null = null;
  for (const path of paths) {
    const holder = doc.locator.locate(path);
    const written = holder ? valueText(doc, holder) : null;
    if (!holder || !written) return null;
    moved ??= { holder, text: written };
    const replacement: ValueText = written.block
      ? { block: true, lines: [' '.repeat(written.indent) + reference], indent: written.indent, span: written.span }
      : { block: false, lines: [`{ ${reference} }`], indent: 0, span: written.span };
    edits.push(replaceValueEdit(doc, holder, replacement, written.indent));
  }
  if (!moved) return null;
  if (existing === undefined) {
    const insertion = definitionInsertion(doc, name, moved.text, indentStep(doc, moved.holder));
    if (!insertion) return null;
    edits.push(insertion);
  }
  return mergeTouching(edits);
}

/** `key`, or `key_2`, `key_3`… when `definitions` has it already. */
function freeName(definitions: Record<string, unknown> | null, key: string): string {
  if (!definitions || !Object.hasOwn(definitions, key)) return key;
  let n = 2;
  while (Object.hasOwn(definitions, `${key}_${n}`)) n++;
  return `${key}_${n}`;
}

/**
 * The edit that adds `name: <component>` to `definitions`: after its last entry when it is a
 * block mapping, as its first entry when it is empty, or as a new section before `streams`.
 */
function definitionInsertion(doc: ManifestDocument, name: string, component: ValueText, step: number): SpanEdit | null {
  const text = doc.text;
  const eol = doc.locator.eol;
  const entry = (indent: number) =>
    component.block
      ? [`${' '.repeat(indent)}${name}:`, ...reindent(component.lines, component.indent, indent + step)]
      : [`${' '.repeat(indent)}${name}: ${component.lines[0].trimStart()}`];
  const root = doc.model.value as Record<string, unknown>;
  const location = doc.locator.locate(['definitions']);
  if (location && Object.hasOwn(root, 'definitions')) {
    const current = root.definitions;
    const written = valueText(doc, location);
    if (written?.block && isPlainMap(current)) {
      return { span: { start: written.span.end, end: written.span.end }, newText: eol + entry(written.indent).join(eol) };
    }
    const empty = current === null || (isPlainMap(current) && Object.keys(current).length === 0);
    if (!empty || !location.keySpan) return null;
    const colon = text.indexOf(':', location.keySpan.end);
    return {
      span: { start: colon + 1, end: doc.locator.lineEnd(colon) },
      newText: eol + entry(doc.locator.column(location.keySpan.start) + step).join(eol),
    };
  }
  const section = [`definitions:`, ...entry(step)];
  const streams = doc.locator.locate(['streams']);
  if (streams?.keySpan && doc.locator.column(streams.keySpan.start) === 0) {
    return { span: { start: streams.keySpan.start, end: streams.keySpan.start }, newText: section.join(eol) + eol };
  }
  const atEnd = text.length === 0 || text.endsWith('\n') ? '' : eol;
  return { span: { start: text.length, end: text.length }, newText: atEnd + section.join(eol) + eol };
}

/** An insertion at the very end of another edit joins that edit (LSP edits must not overlap). */
function mergeTouching(edits: SpanEdit[]): SpanEdit[] {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const out: SpanEdit[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.span.start === e.span.end && e.span.start === last.span.end) {
      out[out.length - 1] = { span: last.span, newText: last.newText + e.newText };
    } else out.push(e);
  }
  return out;
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isReferenceOnly(v: Record<string, unknown>): boolean {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '$ref';
}

/** Structural equality of plain YAML values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (!isPlainMap(a) || !isPlainMap(b) || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

// Quick fixes for this server's own diagnostics: take the "Did you mean" suggestion of a misspelt
// type, field, enum value or template name; add a missing required field; turn a requester's
// deprecated `url_base` + `path` into one `url`. Each fix edits only the text the diagnostic covers
// or the lines next to it, and is offered only when the text looks exactly as the fix expects.
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import type { ManifestDocument } from '../documents';

const SUGGESTION = /Did you mean `([^`]+)`\?/;
const MISSING = /^(\w+): missing required field `([^`]+)`\.$/;

/** Quick fixes for the diagnostics in `params.context`. Never throws. */
export function provideCodeActions(doc: ManifestDocument, params: CodeActionParams): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.source !== 'airbyte') continue;
    const message = typeof d.message === 'string' ? d.message : '';
    const suggestion = SUGGESTION.exec(message)?.[1];
    if (suggestion) actions.push(fix(doc, d, `Change to \`${suggestion}\``, [{ range: d.range, newText: suggestion }], true));
    const missing = MISSING.exec(message);
    if (missing) {
      const edit = insertField(doc, d, missing[2]);
      if (edit) actions.push(fix(doc, d, `Add required field \`${missing[2]}\` to ${missing[1]}`, [edit], true));
    }
    if (d.code === 'deprecated' && /`HttpRequester\.(url_base|path)`/.test(message)) {
      const edits = mergeIntoUrl(doc, d.range.start.line);
      if (edits) actions.push(fix(doc, d, 'Replace `url_base` and `path` with `url`', edits, false));
    }
  }
  return actions;
}

function fix(doc: ManifestDocument, d: Diagnostic, title: string, edits: TextEdit[], preferred: boolean): CodeAction {
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: preferred, edit: { changes: { [doc.uri]: edits } } };
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const isBlank = (line: string) => line.trim() === '' || line.trimStart().startsWith('#');

/**
 * A new `field: ` line at the top of the component whose key the diagnostic covers, indented like
 * its other fields. Only for block-style components (a key alone on its line, fields below it).
 */
function insertField(doc: ManifestDocument, d: Diagnostic, field: string): TextEdit | null {
  const lines = doc.text.split('\n');
  const keyLine = d.range.start.line;
  const line = lines[keyLine] ?? '';
  // The component is the value of the key on this line (`authenticator:`), or a sequence item (`- type: X`).
  const item = /^(\s*)- (\S)/.exec(line);
  let indent: number;
  let after: number;
  if (item) {
    indent = item[1].length + 2;
    after = keyLine;
  } else {
    if (!/:\s*(#.*)?$/.test(line)) return null;
    let next = keyLine + 1;
    while (next < lines.length && isBlank(lines[next])) next++;
    if (next >= lines.length || indentOf(lines[next]) <= indentOf(line)) return null;
    indent = indentOf(lines[next]) + (lines[next].trimStart().startsWith('- ') ? 2 : 0);
    if (lines[next].trimStart().startsWith('- ')) return null;
    after = next - 1;
  }
  const eol = lines[after].endsWith('\r') ? '\r\n' : '\n';
  const position = { line: after, character: lines[after].replace(/\r$/, '').length };
  return { range: { start: position, end: position }, newText: `${eol}${' '.repeat(indent)}${field}: ` };
}

/**
 * `url_base: B` and `path: P` written as plain one-line values in the same mapping become
 * `url: B/P` (§4.2: the path's leading slashes are dropped and joined with one `/`).
 */
function mergeIntoUrl(doc: ManifestDocument, line: number): TextEdit[] | null {
  const lines = doc.text.split('\n');
  const indent = indentOf(lines[line] ?? '');
  // The mapping's lines at this indentation, up and down until a shallower line.
  let first = line;
  while (first > 0 && (isBlank(lines[first - 1]) || indentOf(lines[first - 1]) >= indent)) first--;
  let last = line;
  while (last + 1 < lines.length && (isBlank(lines[last + 1]) || indentOf(lines[last + 1]) >= indent)) last++;
  const entry = (key: string) => {
    for (let i = first; i <= last; i++) {
      if (indentOf(lines[i]) !== indent) continue;
      // `(.*)` then trimEnd: a lazy `(.*?)` followed by `\s*$` is quadratic on a long line of spaces.
      const m = new RegExp(`^\\s*(?:- )?${key}:[ ]+(.*)$`).exec(lines[i].replace(/\r$/, ''));
      if (m) return { line: i, value: m[1].trimEnd() };
    }
    return null;
  };
  const base = entry('url_base');
  const path = entry('path');
  if (!base || !path || entry('url')) return null;
  const plain = (v: string) => unquote(v);
  const b = plain(base.value);
  const p = plain(path.value);
  if (b === null || p === null) return null;
  const joined = p.replace(/^\/+/, '') === '' ? b : `${b.endsWith('/') ? b : `${b}/`}${p.replace(/^\/+/, '')}`;
  const keyStart = lines[base.line].indexOf('url_base');
  const baseEnd = lines[base.line].replace(/\r$/, '').length;
  const edits: TextEdit[] = [
    { range: { start: { line: base.line, character: keyStart }, end: { line: base.line, character: baseEnd } }, newText: `url: ${quoteIfNeeded(joined)}` },
    // The whole `path` line goes, line break included.
    { range: { start: { line: path.line, character: 0 }, end: { line: path.line + 1, character: 0 } }, newText: '' },
  ];
  return edits;
}

/** The text of a one-line scalar, or null for anything else (comments, flow collections, block scalars). */
function unquote(v: string): string | null {
  if (/^"([^"\\]*)"$/.test(v)) return v.slice(1, -1);
  if (/^'([^']*)'$/.test(v)) return v.slice(1, -1);
  if (/^[^\s"'#&*!|>{[][^#]*$/.test(v) && !/\s#/.test(v)) return v;
  return null;
}

function quoteIfNeeded(v: string): string {
  return /^[\w:/.?=&%-]+$/.test(v) && !/^[-?:]/.test(v) ? v : JSON.stringify(v);
}

// Quick fixes for this server's own diagnostics: take the "Did you mean" suggestion of a misspelt
// type, field, enum value or template name; add a missing required field; turn a requester's
// deprecated `url_base` + `path` into one `url`. What to do comes from the diagnostic's typed
// `data` (the runtime's ProblemFix), never from its message, so rewording a message cannot disable
// a fix. Each fix edits only the text the diagnostic covers or the lines next to it, and is offered
// only when the text looks exactly as the fix expects.
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic } from 'vscode-languageserver';
import { rangeToSpan, spanEditsToWorkspaceEdit } from '../convert';
import type { ManifestDocument } from '../documents';
import { endsWithKey, indentOf, isBlankOrComment, itemContentColumn, keyLine, type ProblemFix } from '../runtime';
import type { SpanEdit } from './yamlText';

/** Quick fixes for the diagnostics in `params.context`. Never throws. */
export function provideCodeActions(doc: ManifestDocument, params: CodeActionParams): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.source !== 'airbyte') continue;
    const data = problemFixOf(d.data);
    if (!data) continue;
    const span = rangeToSpan(doc.textDocument, d.range);
    if (data.kind === 'replace') {
      actions.push(quickFix(doc, d, `Change to \`${data.text}\``, [{ span, newText: data.text }], true));
    } else if (data.kind === 'add-field') {
      const edit = insertField(doc, span.start, data.field);
      if (edit) actions.push(quickFix(doc, d, `Add required field \`${data.field}\` to ${data.component}`, [edit], true));
    } else {
      const migration = migrationEdits(doc, data, span.start, parameterKeys(doc.parsed.value));
      if (migration) actions.push(quickFix(doc, d, migration.title, migration.edits, false));
    }
  }
  return actions;
}

/** The ProblemFix carried in a diagnostic's `data` (it comes back from the client: checked, not trusted). */
function problemFixOf(data: unknown): ProblemFix | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (d.kind === 'replace' && typeof d.text === 'string' && d.text !== '') return { kind: 'replace', text: d.text };
  if (d.kind === 'add-field' && typeof d.component === 'string' && typeof d.field === 'string' && /^[\w$-]+$/.test(d.field)) {
    return { kind: 'add-field', component: d.component, field: d.field };
  }
  if (d.kind === 'merge-url-base-and-path') return { kind: 'merge-url-base-and-path' };
  if (d.kind === 'migrate-request-body') return { kind: 'migrate-request-body' };
  return undefined;
}

/** The edits of one CDK manifest migration at the key at `offset` (cdkMigrations.ts applies them all at once). */
export function migrationEdits(
  doc: ManifestDocument,
  fix: ProblemFix,
  offset: number,
  parameters: Set<string>,
): { title: string; edits: SpanEdit[] } | null {
  if (fix.kind === 'merge-url-base-and-path') {
    // A removed field that some `$parameters` also names would come back by propagation (the CDK copies a
    // parameter into every component lacking that field) and change the URL: such a requester stays as it is.
    if (parameters.has('path') || parameters.has('url_base')) return null;
    const edits = mergeIntoUrl(doc, offset);
    return edits ? { title: 'Replace `url_base` and `path` with `url`', edits } : null;
  }
  if (fix.kind === 'migrate-request-body') {
    if (parameters.has('request_body_json') || parameters.has('request_body_data')) return null;
    const m = requestBody(doc, offset);
    return m ? { title: `Replace \`${m.key}\` with \`request_body\` (${m.type})`, edits: m.edits } : null;
  }
  return null;
}

/** The keys of every `$parameters` mapping of the manifest. */
export function parameterKeys(value: unknown): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object' || seen.has(v) || depth > 100) return;
    seen.add(v);
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    for (const [k, x] of Object.entries(v)) {
      if (k === '$parameters' && x !== null && typeof x === 'object' && !Array.isArray(x)) Object.keys(x).forEach((p) => keys.add(p));
      walk(x, depth + 1);
    }
  };
  walk(value, 0);
  return keys;
}

function quickFix(doc: ManifestDocument, d: Diagnostic, title: string, edits: SpanEdit[], preferred: boolean): CodeAction {
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    isPreferred: preferred,
    edit: spanEditsToWorkspaceEdit(doc.textDocument, edits),
  };
}

/** A line of the document: the offset it starts at and its text (line break and `\r` excluded). */
type Line = { text: string; start: number };

/** The document's lines, positioned by the version's locator and read from the editor's text. */
function linesOf(doc: ManifestDocument): Line[] {
  const { locator, text } = doc;
  return Array.from({ length: locator.lineCount }, (_, i) => {
    const { start, end } = locator.line(i);
    return { text: text.slice(start, end), start };
  });
}

/**
 * A new `field: ` line at the top of the component whose key is at `offset`, indented like its
 * other fields. Only for block-style components (a key alone on its line, fields below it).
 */
function insertField(doc: ManifestDocument, offset: number, field: string): SpanEdit | null {
  const { locator } = doc;
  const lines = linesOf(doc);
  const keyLine = locator.lineIndex(offset);
  const line = lines[keyLine].text;
  // The component is the value of the key on this line (`authenticator:`), or a sequence item (`- type: X`).
  const item = itemContentColumn(line);
  let indent: number;
  let after: number;
  if (item !== null) {
    indent = item;
    after = keyLine;
  } else {
    if (!endsWithKey(line)) return null;
    let next = keyLine + 1;
    while (next < lines.length && isBlankOrComment(lines[next].text)) next++;
    if (next >= lines.length || indentOf(lines[next].text) <= indentOf(line)) return null;
    if (lines[next].text.trimStart().startsWith('- ')) return null;
    indent = indentOf(lines[next].text);
    after = next - 1;
  }
  const eol = locator.eol;
  const end = lines[after].start + lines[after].text.length;
  return { span: { start: end, end }, newText: `${eol}${' '.repeat(indent)}${field}: ` };
}

/**
 * `url_base: B` and `path: P` written as plain one-line values in the same mapping (the one with a
 * key at `offset`) become `url: B/P` (§4.2: the path's leading slashes are dropped and joined with one `/`).
 */
function mergeIntoUrl(doc: ManifestDocument, offset: number): SpanEdit[] | null {
  const { text, locator } = doc;
  const lines = linesOf(doc);
  const line = locator.lineIndex(offset);
  const indent = indentOf(lines[line].text);
  // The mapping's lines at this indentation, up and down until a shallower line.
  let first = line;
  while (first > 0 && (isBlankOrComment(lines[first - 1].text) || indentOf(lines[first - 1].text) >= indent)) first--;
  let last = line;
  while (last + 1 < lines.length && (isBlankOrComment(lines[last + 1].text) || indentOf(lines[last + 1].text) >= indent)) last++;
  const entry = (key: string) => {
    for (let i = first; i <= last; i++) {
      if (indentOf(lines[i].text) !== indent) continue;
      // `rest` then trimEnd: a lazy match followed by `\s*$` is quadratic on a long line of spaces.
      const m = keyLine(lines[i].text, [key]);
      if (m && m.rest !== undefined) return { line: lines[i], value: m.rest.trimEnd() };
    }
    return null;
  };
  const base = entry('url_base');
  const path = entry('path');
  if (!base || !path || entry('url')) return null;
  const b = unquote(base.value);
  const p = unquote(path.value);
  if (b === null || p === null) return null;
  const joined = p.replace(/^\/+/, '') === '' ? b : `${b.endsWith('/') ? b : `${b}/`}${p.replace(/^\/+/, '')}`;
  const keyStart = base.line.start + base.line.text.indexOf('url_base');
  const pathLineEnd =
    path.line.start === locator.line(locator.lineCount - 1).start
      ? text.length
      : locator.line(locator.lineIndex(path.line.start) + 1).start;
  return [
    { span: { start: keyStart, end: base.line.start + base.line.text.length }, newText: `url: ${quoteIfNeeded(joined)}` },
    // The whole `path` line goes, line break included.
    { span: { start: path.line.start, end: pathLineEnd }, newText: '' },
  ];
}

/**
 * The CDK's `http_requester_request_body_json_data_to_request_body` migration at the key at `offset`:
 * `request_body_json: V` becomes `request_body: {type: RequestBodyJsonObject, value: V}` (RequestBodyGraphQL when
 * V has a string `query`) and `request_body_data: V` becomes a RequestBodyUrlEncodedForm. As in the CDK, a string
 * `request_body_json` (a template) is left alone; so is a string `request_body_data`, which the CDK would wrap
 * into a form its own schema refuses (docs/fidelity.md).
 */
function requestBody(doc: ManifestDocument, offset: number): { key: string; type: string; edits: SpanEdit[] } | null {
  const { locator } = doc;
  const lines = linesOf(doc);
  const at = locator.lineIndex(offset);
  const m = keyLine(lines[at].text, ['request_body_json', 'request_body_data']);
  if (!m) return null;
  const { lead, key } = m;
  const inline = (m.rest ?? '').trimEnd();
  const keyIndent = lead.length;
  const childIndent = ' '.repeat(keyIndent + 2);
  const eol = locator.eol;
  const keyStart = lines[at].start + lead.length;
  const lineEnd = lines[at].start + lines[at].text.length;
  if (inline !== '' && !inline.startsWith('#')) {
    // A one-line value: only a flow mapping is an object; anything else is a string (or a list, which the CDK's schema refuses).
    if (!/^\{.*\}$/.test(inline)) return null;
    const type =
      key === 'request_body_data'
        ? 'RequestBodyUrlEncodedForm'
        : /(^|[{,]\s*)["']?query["']?\s*:\s*["']/.test(inline)
          ? 'RequestBodyGraphQL'
          : 'RequestBodyJsonObject';
    return {
      key,
      type,
      edits: [
        {
          span: { start: keyStart, end: lineEnd },
          newText: `request_body:${eol}${childIndent}type: ${type}${eol}${childIndent}value: ${inline}`,
        },
      ],
    };
  }
  // A block mapping below the key: its lines move under `value:`, two spaces deeper.
  let last = at;
  let valueIndent = -1;
  for (let i = at + 1; i < lines.length; i++) {
    if (isBlankOrComment(lines[i].text)) continue;
    const ind = indentOf(lines[i].text);
    if (ind <= keyIndent) break;
    if (valueIndent < 0) valueIndent = ind;
    last = i;
  }
  if (valueIndent < 0 || lines[at + 1] === undefined) return null;
  const body = lines.slice(at + 1, last + 1);
  const first = body.find((l) => !isBlankOrComment(l.text));
  if (!first || first.text.trimStart().startsWith('- ') || /^\s*[|>]/.test(first.text)) return null;
  const hasQuery = body.some((l) => {
    if (indentOf(l.text) !== valueIndent) return false;
    // A `query` entry of the mapping itself (not an item) with a scalar value on its line.
    const q = keyLine(l.text, ['query'], true);
    return q !== null && q.lead.trim() === '' && !!q.rest && !/^[{[]/.test(q.rest);
  });
  const type = key === 'request_body_data' ? 'RequestBodyUrlEncodedForm' : hasQuery ? 'RequestBodyGraphQL' : 'RequestBodyJsonObject';
  const moved = body.map((l) => (l.text.trim() === '' ? l.text : `  ${l.text}`)).join(eol);
  const end = lines[last].start + lines[last].text.length;
  return {
    key,
    type,
    edits: [
      { span: { start: keyStart, end }, newText: `request_body:${eol}${childIndent}type: ${type}${eol}${childIndent}value:${eol}${moved}` },
    ],
  };
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

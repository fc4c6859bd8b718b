// Runs one feature case against the real language server (over stdio) and returns what the server
// answered, rendered as the case's sections, plus the problems the driver finds on its own: a
// multi-line completion whose document no longer parses, two clients that get different documents,
// a refactor that changes what the CDK reads or leaves an error behind.
import { parseDocument, parse } from 'yaml';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  InsertReplaceEdit,
  Location,
  LocationLink,
  Range,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LspTestClient } from '../lspClient';
import { CURSOR, type CaseFile } from './caseFile';
import { acceptCompletion } from './acceptCompletion';
import {
  inDisplayOrder,
  offsetAt,
  positionAt,
  renderActions,
  renderDiagnostics,
  renderDocumentation,
  renderHover,
  renderItems,
  renderRange,
} from './render';

/** The servers a case talks to: one per way a client inserts multi-line completions. */
export type CaseClients = {
  /** Announces `insertTextMode: asIs`, as vscode-languageclient does. */
  asIs: LspTestClient;
  /** Announces nothing: VS Code adjusts the indentation of lines 2+ itself. */
  adjust: LspTestClient;
};

export type CaseResult = { actual: Map<string, string>; problems: string[] };

/** The sections each feature can produce; a case lists the ones it asserts. */
export const SECTIONS: Record<CaseFile['header']['feature'], string[]> = {
  completion: ['items', 'documentation', 'document'],
  hover: ['hover'],
  diagnostics: ['diagnostics'],
  quickfix: ['actions', 'document', 'diagnostics'],
  refactor: ['actions', 'document'],
  rename: ['prepare', 'document', 'error'],
  definition: ['definition'],
  references: ['references'],
};

let opened = 0;
function uriOf(c: CaseFile, client: string): string {
  const name = c.path
    .split(/[\\/]/)
    .slice(-2)
    .join('/')
    .replace(/\.case$/, '');
  return `file:///w/cases/${client}/${++opened}/${name}.yaml`;
}

const SEVERITIES = ['error', 'warning', 'information', 'hint'];

/** The diagnostics a case looks at: `codes:` (a list) and `severity:` (the least severe kept). */
function selected(c: CaseFile, diagnostics: Diagnostic[]): Diagnostic[] {
  const codes = c.header.codes as string[] | undefined;
  const least = c.header.severity === undefined ? 4 : SEVERITIES.indexOf(String(c.header.severity)) + 1;
  if (least === 0) throw new Error(`${c.path}: severity must be one of ${SEVERITIES.join(', ')}`);
  return diagnostics.filter((d) => (!codes || codes.includes(String(d.code))) && (d.severity ?? 1) <= least);
}

function requireCursor(c: CaseFile): { line: number; character: number } {
  if (c.cursor < 0) throw new Error(`${c.path}: the manifest needs a ${CURSOR} cursor for a ${c.header.feature} case`);
  return positionAt(c.text, c.cursor);
}

function yamlError(text: string): string | null {
  const doc = parseDocument(text);
  return doc.errors.length ? doc.errors[0].message.split('\n')[0] : null;
}

/** VS Code ignores an item whose edit range spans lines or does not contain the cursor; null when the range is fine. */
function editRangeProblem(item: CompletionItem, cursor: { line: number; character: number }): string | null {
  const e = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
  if (!e) return null;
  for (const [what, r] of ('range' in e
    ? [['range', e.range]]
    : [
        ['insert range', e.insert],
        ['replace range', e.replace],
      ]) as Array<[string, Range]>) {
    const show = `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
    if (r.start.line !== r.end.line) return `its ${what} ${show} is not on one line`;
    if (r.start.line !== cursor.line || r.start.character > cursor.character || r.end.character < cursor.character)
      return `its ${what} ${show} does not contain the cursor ${cursor.line}:${cursor.character}`;
  }
  return null;
}

/** What the user typed that the item replaces: from its edit's start to the cursor. */
function typedWord(text: string, cursor: number, item: CompletionItem): string {
  const e = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
  if (!e) return /[\w$-]*$/.exec(text.slice(0, cursor))![0];
  return text.slice(offsetAt(text, 'range' in e ? e.range.start : e.insert.start), cursor);
}

/** VS Code shows an item only when the typed word matches its filter text; a case-insensitive subsequence is the lenient form of its fuzzy match. */
function fuzzyMatches(typed: string, filter: string): boolean {
  let i = 0;
  const f = filter.toLowerCase();
  for (const ch of typed.toLowerCase()) {
    i = f.indexOf(ch, i);
    if (i < 0) return false;
    i++;
  }
  return true;
}

async function completion(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const actual = new Map<string, string>();
  const problems: string[] = [];
  const position = requireCursor(c);
  const label = c.header.item as string | undefined;
  const documents: Array<[string, string]> = [];
  for (const [mode, client] of [
    ['adjust', clients.adjust],
    ['asIs', clients.asIs],
  ] as const) {
    const uri = uriOf(c, mode);
    await client.open(uri, c.text);
    const items = await client.completion(uri, position);
    if (mode === 'adjust') actual.set('items', renderItems(items));
    // VS Code drops an item with a bad range without a word: check every item, not only the accepted one.
    for (const other of items) {
      const bad = editRangeProblem(other, position);
      if (bad) problems.push(`VS Code rejects ${JSON.stringify(other.label)} (client: ${mode}): ${bad}`);
    }
    if (label === undefined) continue;
    const item = inDisplayOrder(items).find((i) => i.label === label);
    if (!item) {
      problems.push(`no item labelled ${JSON.stringify(label)} (client: ${mode}); the items are:\n${renderItems(items)}`);
      continue;
    }
    if (mode === 'adjust') actual.set('documentation', renderDocumentation(item));
    const typed = typedWord(c.text, c.cursor, item);
    if (!fuzzyMatches(typed, item.filterText ?? item.label))
      problems.push(
        `VS Code would hide ${JSON.stringify(label)}: the typed ${JSON.stringify(typed)} does not match its filter text ${JSON.stringify(item.filterText ?? item.label)}`,
      );
    const accepted = acceptCompletion(c.text, c.cursor, item);
    documents.push([mode, accepted.marked]);
    if (mode === 'adjust') actual.set('document', accepted.marked);
    // A document that parsed before the item was accepted must parse after it (issue #19's double indent did not).
    const word = /[\w$-]*$/.exec(c.text.slice(0, c.cursor))![0].length;
    const before = yamlError(c.text.slice(0, c.cursor - word) + c.text.slice(c.cursor));
    const after = yamlError(accepted.text);
    if (before === null && after !== null)
      problems.push(
        `after accepting ${JSON.stringify(label)} (client: ${mode}) the document has a YAML error: ${after}\n${accepted.marked}`,
      );
  }
  if (documents.length === 2 && documents[0][1] !== documents[1][1]) {
    problems.push(
      `the two clients get different documents:\n--- adjustIndentation ---\n${documents[0][1]}--- asIs ---\n${documents[1][1]}`,
    );
  }
  return { actual, problems };
}

async function hover(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const uri = uriOf(c, 'hover');
  await clients.asIs.open(uri, c.text);
  const result = await clients.asIs.hover(uri, requireCursor(c));
  return { actual: new Map([['hover', renderHover(c.text, result)]]), problems: [] };
}

async function diagnostics(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const published = await clients.asIs.open(uriOf(c, 'diagnostics'), c.text);
  return { actual: new Map([['diagnostics', renderDiagnostics(c.text, selected(c, published.diagnostics))]]), problems: [] };
}

/** The text of `uri` after `edit` (its `changes` or its `documentChanges` for that document). */
function applyWorkspaceEdit(uri: string, text: string, edit: WorkspaceEdit | undefined): string {
  const edits: TextEdit[] = [...(edit?.changes?.[uri] ?? [])];
  for (const change of edit?.documentChanges ?? []) {
    if ('textDocument' in change && change.textDocument.uri === uri) edits.push(...(change.edits as TextEdit[]));
  }
  if (edits.length === 0) throw new Error(`the edit changes nothing in ${uri}: ${JSON.stringify(edit)}`);
  return TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, text), edits);
}

const overlaps = (a: Range, b: Range) =>
  !(
    a.end.line < b.start.line ||
    (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line ||
    (b.end.line === a.start.line && b.end.character < a.start.character)
  );

function pickAction(c: CaseFile, actions: CodeAction[]): CodeAction | undefined {
  const title = c.header.action as string | undefined;
  return title === undefined ? actions[0] : actions.find((a) => a.title === title);
}

async function quickfix(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const client = clients.asIs;
  const uri = uriOf(c, 'quickfix');
  const published = (await client.open(uri, c.text)).diagnostics;
  const code = c.header.code as string | undefined;
  const candidates = published.filter((d) => code === undefined || d.code === code);
  const cursor = c.cursor >= 0 ? positionAt(c.text, c.cursor) : null;
  const target = cursor ? candidates.find((d) => overlaps(d.range, { start: cursor, end: cursor })) : candidates[0];
  if (!target)
    return {
      actual: new Map(),
      problems: [`no ${code ?? ''} diagnostic${cursor ? ' at the cursor' : ''}; published:\n${renderDiagnostics(c.text, published)}`],
    };
  // VS Code sends the diagnostics that touch the range. Their messages are reworded first: a fix must read the typed `data`, never the wording.
  const context = published
    .filter((d) => overlaps(d.range, target.range))
    .map((d) => ({ ...d, message: `reworded ${String(d.message).length}` }));
  const actions =
    (await client.request<CodeAction[] | null>('textDocument/codeAction', {
      textDocument: { uri },
      range: target.range,
      context: { diagnostics: context, only: ['quickfix'] },
    })) ?? [];
  const actual = new Map([['actions', renderActions(actions)]]);
  const action = pickAction(c, actions);
  if (!action)
    return { actual, problems: [`no action ${JSON.stringify(c.header.action ?? '(any)')} for ${renderRange(c.text, target.range)}`] };
  const fixed = applyWorkspaceEdit(uri, c.text, action.edit);
  actual.set('document', fixed);
  const after = await client.change(uri, fixed, 2);
  actual.set('diagnostics', renderDiagnostics(fixed, selected(c, after.diagnostics)));
  return { actual, problems: [] };
}

type Resolved = { text: string; problems: number };

/** What the CDK reads: the resolved streams and check (airbyte/resolvedManifest). */
async function readsOf(client: LspTestClient, uri: string): Promise<unknown> {
  const result = await client.request<Resolved>('airbyte/resolvedManifest', { uri });
  const value = parse(result.text) as { streams?: unknown; check?: unknown } | null;
  // Key order does not change what the CDK reads: compare with sorted keys.
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sorted({ problems: result.problems, streams: value?.streams, check: value?.check }));
}

/** Checks an edited document: valid before and after, and (unless `same-resolved: false`) the same resolved streams. */
async function checkRefactored(
  client: LspTestClient,
  c: CaseFile,
  uri: string,
  changed: string,
  before: { errors: Diagnostic[]; reads: unknown },
): Promise<string[]> {
  const problems: string[] = [];
  // A refactor starts from a valid manifest and must leave one.
  if (before.errors.length) problems.push(`the case's manifest has errors before the edit:\n${renderDiagnostics(c.text, before.errors)}`);
  const after = await client.change(uri, changed, 2);
  const errors = after.diagnostics.filter((d) => d.severity === 1);
  if (errors.length) problems.push(`the edit leaves errors:\n${renderDiagnostics(changed, errors)}`);
  if (c.header['same-resolved'] !== false) {
    const reads = await readsOf(client, uri);
    if (reads !== before.reads)
      problems.push(`the edit changes what the CDK reads:\n--- before ---\n${before.reads}\n--- after ---\n${reads}`);
  }
  return problems;
}

async function refactor(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const client = clients.asIs;
  const uri = uriOf(c, 'refactor');
  const published = (await client.open(uri, c.text)).diagnostics;
  const before = { errors: published.filter((d) => d.severity === 1), reads: await readsOf(client, uri) };
  const at = requireCursor(c);
  const only = c.header.only === undefined ? {} : { only: [c.header.only as string] };
  const actions =
    (await client.request<CodeAction[] | null>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: at, end: at },
      context: { diagnostics: [], ...only },
    })) ?? [];
  const actual = new Map([['actions', renderActions(actions)]]);
  const action = pickAction(c, actions);
  if (!action)
    return {
      actual,
      problems: c.expected.has('document') ? [`no action ${JSON.stringify(c.header.action ?? '(any)')} at the cursor`] : [],
    };
  const changed = applyWorkspaceEdit(uri, c.text, action.edit);
  actual.set('document', changed);
  return { actual, problems: await checkRefactored(client, c, uri, changed, before) };
}

async function rename(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const client = clients.asIs;
  const uri = uriOf(c, 'rename');
  const published = (await client.open(uri, c.text)).diagnostics;
  const before = { errors: published.filter((d) => d.severity === 1), reads: await readsOf(client, uri) };
  const position = requireCursor(c);
  const prepared = await client.request<{ range: Range; placeholder: string } | Range | null>('textDocument/prepareRename', {
    textDocument: { uri },
    position,
  });
  const actual = new Map<string, string>();
  if (!prepared) actual.set('prepare', '(cannot rename here)\n');
  else if ('placeholder' in prepared)
    actual.set('prepare', `range ${renderRange(c.text, prepared.range)} placeholder ${JSON.stringify(prepared.placeholder)}\n`);
  else actual.set('prepare', `range ${renderRange(c.text, prepared)}\n`);
  if (c.header['new-name'] === undefined) return { actual, problems: [] };
  let edit: WorkspaceEdit | null;
  try {
    edit = await client.request<WorkspaceEdit | null>('textDocument/rename', {
      textDocument: { uri },
      position,
      newName: String(c.header['new-name']),
    });
  } catch (err) {
    actual.set('error', `${(err as Error).message}\n`);
    return { actual, problems: [] };
  }
  actual.set('error', '(no error)\n');
  if (!edit) return { actual, problems: [] };
  const changed = applyWorkspaceEdit(uri, c.text, edit);
  actual.set('document', changed);
  return { actual, problems: await checkRefactored(client, c, uri, changed, before) };
}

async function definition(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const uri = uriOf(c, 'definition');
  await clients.asIs.open(uri, c.text);
  const result = await clients.asIs.request<Array<LocationLink | Location> | Location | null>('textDocument/definition', {
    textDocument: { uri },
    position: requireCursor(c),
  });
  const links = result === null ? [] : Array.isArray(result) ? result : [result];
  const lines = links.map((l) => {
    if ('targetUri' in l) {
      const other = l.targetUri === uri ? '' : ` in ${l.targetUri}`;
      return `target ${renderRange(c.text, l.targetSelectionRange)}${other}${l.originSelectionRange ? ` from ${renderRange(c.text, l.originSelectionRange)}` : ''}\n`;
    }
    return `target ${renderRange(c.text, l.range)}${l.uri === uri ? '' : ` in ${l.uri}`}\n`;
  });
  return { actual: new Map([['definition', lines.join('') || '(no definition)\n']]), problems: [] };
}

async function references(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const uri = uriOf(c, 'references');
  await clients.asIs.open(uri, c.text);
  const includeDeclaration = c.header['include-declaration'] === true;
  const result =
    (await clients.asIs.request<Location[] | null>('textDocument/references', {
      textDocument: { uri },
      position: requireCursor(c),
      context: { includeDeclaration },
    })) ?? [];
  const lines = result.map((l) => `${renderRange(c.text, l.range)}${l.uri === uri ? '' : ` in ${l.uri}`}\n`);
  return { actual: new Map([['references', lines.join('') || '(no references)\n']]), problems: [] };
}

export async function runCase(clients: CaseClients, c: CaseFile): Promise<CaseResult> {
  const runners = { completion, hover, diagnostics, quickfix, refactor, rename, definition, references };
  const run = runners[c.header.feature];
  if (!run) throw new Error(`${c.path}: unknown feature ${JSON.stringify(c.header.feature)} (one of ${Object.keys(runners).join(', ')})`);
  for (const name of c.expected.keys()) {
    if (!SECTIONS[c.header.feature].includes(name))
      throw new Error(`${c.path}: a ${c.header.feature} case has no section "${name}" (it has ${SECTIONS[c.header.feature].join(', ')})`);
  }
  return run(clients, c);
}

// How the feature cases write a server's answer as reviewable text: ranges as 0-based LSP
// `line:character-line:character` followed by the text they cover, one item / diagnostic / action
// per line, in the order the user sees them. Every rendering ends with a newline.
import type { CodeAction, CompletionItem, Diagnostic, Hover, MarkupContent, Range } from 'vscode-languageserver-protocol';

export function offsetAt(text: string, pos: { line: number; character: number }): number {
  let offset = 0;
  for (let l = 0; l < pos.line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset + pos.character;
}

export function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** `4:8-4:16 "url_base"`: the range and the text it covers (shortened past 60 characters). */
export function renderRange(text: string, range: Range): string {
  const covered = text.slice(offsetAt(text, range.start), offsetAt(text, range.end));
  const shown = covered.length > 60 ? `${covered.slice(0, 57)}...` : covered;
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character} ${JSON.stringify(shown)}`;
}

/** The order VS Code lists items in before the user types a filter: by sortText, else label. */
export function inDisplayOrder(items: CompletionItem[]): CompletionItem[] {
  return items.slice().sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label) || a.label.localeCompare(b.label));
}

/** One line per item: label, then its detail and a deprecated tag when it has them. */
export function renderItems(items: CompletionItem[]): string {
  if (items.length === 0) return '(no items)\n';
  return inDisplayOrder(items)
    .map((i) => {
      const deprecated = i.tags?.includes(1) || i.deprecated ? ' [deprecated]' : '';
      return `${i.label}${i.detail ? ` — ${i.detail}` : ''}${deprecated}\n`;
    })
    .join('');
}

function markdownOf(contents: Hover['contents'] | CompletionItem['documentation']): string {
  if (contents === undefined) return '';
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n\n');
  return (contents as MarkupContent).value;
}

export function renderDocumentation(item: CompletionItem): string {
  const doc = markdownOf(item.documentation);
  return `${doc || '(no documentation)'}\n`;
}

export function renderHover(text: string, hover: Hover | null): string {
  if (!hover) return '(no hover)\n';
  const range = hover.range ? `range ${renderRange(text, hover.range)}` : 'range (none)';
  return `${range}\n\n${markdownOf(hover.contents).replace(/\n+$/, '')}\n`;
}

const SEVERITY = ['', 'error', 'warning', 'information', 'hint'];

/** One line per diagnostic, by position: range, severity, code, the source unless it is `airbyte`, tags, then the message (line breaks as ⏎). */
export function renderDiagnostics(text: string, diagnostics: Diagnostic[]): string {
  if (diagnostics.length === 0) return '(no diagnostics)\n';
  const sorted = diagnostics
    .slice()
    .sort(
      (a, b) =>
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character ||
        String(a.code).localeCompare(String(b.code)),
    );
  return sorted
    .map((d) => {
      const tags = d.tags?.length
        ? ` [${d.tags.map((t) => (t === 1 ? 'unnecessary' : t === 2 ? 'deprecated' : String(t))).join(', ')}]`
        : '';
      const source = d.source === 'airbyte' ? '' : ` (source ${d.source ?? 'none'})`;
      return `${renderRange(text, d.range)} ${SEVERITY[d.severity ?? 1]} ${d.code ?? '(no code)'}${source}${tags}: ${String(d.message).replace(/\r?\n/g, '⏎')}\n`;
    })
    .join('');
}

/** One line per action: title, kind, and `preferred` when the action says so. */
export function renderActions(actions: CodeAction[]): string {
  if (actions.length === 0) return '(no actions)\n';
  return actions.map((a) => `${a.title} [${a.kind ?? 'no kind'}]${a.isPreferred ? ' preferred' : ''}\n`).join('');
}

// How a multi-line completion's lines are indented for the client. An item's text is built with
// lines 2+ relative to the column of its first key. VS Code, by default
// (InsertTextMode.adjustIndentation), prefixes every later line with the leading whitespace of the
// line the edit starts on; so either the item says `asIs` (when the client announced it supports
// that mode in `initialize`) and carries absolute indentation, or it carries only the indentation
// beyond that leading whitespace. Both give the same document.
import { InsertTextMode, type CompletionItem } from 'vscode-languageserver';
import { lineStartIn } from '../runtime';

/** What the client said it supports, read once from `initialize`. */
export type InsertionSupport = { asIs: boolean };

/** True when the client's `initialize` capabilities announce `InsertTextMode.asIs` for completion items. */
export function clientSupportsAsIs(capabilities: unknown): boolean {
  const modes = (
    capabilities as { textDocument?: { completion?: { completionItem?: { insertTextModeSupport?: { valueSet?: unknown } } } } } | undefined
  )?.textDocument?.completion?.completionItem?.insertTextModeSupport?.valueSet;
  return Array.isArray(modes) && modes.includes(InsertTextMode.asIs);
}

/**
 * Places `lines` (relative to column 0) for an edit that starts at `editStart` of `text`, where the
 * first key goes at column `keyColumn`. Returns the edit's text and the item fields to set.
 */
export function layOut(
  lines: readonly string[],
  text: string,
  editStart: number,
  keyColumn: number,
  support: InsertionSupport,
): { newText: string; mode: Pick<CompletionItem, 'insertTextMode'> } {
  if (lines.length <= 1) return { newText: lines.join(''), mode: {} };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lineStart = lineStartIn(text, editStart);
  // The whitespace VS Code repeats: the line's leading spaces/tabs, up to where the edit starts.
  const leading = /^[ \t]*/.exec(text.slice(lineStart, editStart))![0].length;
  const base = support.asIs ? keyColumn : Math.max(0, keyColumn - leading);
  const pad = ' '.repeat(base);
  const newText = lines.map((l, i) => (i === 0 || l === '' ? l : pad + l)).join(eol);
  return { newText, mode: support.asIs ? { insertTextMode: InsertTextMode.asIs } : {} };
}

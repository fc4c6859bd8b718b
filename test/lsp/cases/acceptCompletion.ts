// Accepts a completion item the way VS Code does (see vscodeInsertion.ts for the snippet and
// indentation rules): the item's textEdit (or its insertText over the word before the cursor),
// expanded when it is a snippet, lines 2+ prefixed with the start line's leading whitespace unless
// the item is `insertTextMode: asIs`, applied together with its additionalTextEdits. The result
// marks where the cursor lands: `$0`, or `${0:text}` when the first tab stop selects `text`.
import {
  InsertTextFormat,
  InsertTextMode,
  type CompletionItem,
  type InsertReplaceEdit,
  type TextEdit,
} from 'vscode-languageserver-protocol';
import { expandSnippetMarked } from '../vscodeInsertion';
import { offsetAt } from './render';

const OPEN = '\uE000';
const CLOSE = '\uE001';

export type Accepted = {
  /** The document after insertion, as plain text. */
  text: string;
  /** The same with the cursor (and any selected placeholder text) marked. */
  marked: string;
};

/** VS Code's default word at the cursor for a YAML document: letters, digits, `_`, `-`, `$`. */
function wordBefore(text: string, cursor: number): number {
  let start = cursor;
  while (start > 0 && /[\w$-]/.test(text[start - 1])) start--;
  return start;
}

export function acceptCompletion(text: string, cursor: number, item: CompletionItem): Accepted {
  const e = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
  // VS Code's default `editor.suggest.insertMode` is `insert`: an insert/replace edit uses its insert range.
  const start = e ? offsetAt(text, 'range' in e ? e.range.start : e.insert.start) : wordBefore(text, cursor);
  const end = e ? offsetAt(text, 'range' in e ? e.range.end : e.insert.end) : cursor;
  const newText = e ? e.newText : (item.insertText ?? item.label);
  let inserted = item.insertTextFormat === InsertTextFormat.Snippet ? expandSnippetMarked(newText, OPEN, CLOSE) : newText;
  // Plain text, or a snippet without tab stops: the cursor ends after the insertion.
  if (!inserted.includes(OPEN)) inserted += OPEN + CLOSE;
  if (item.insertTextMode !== InsertTextMode.asIs) {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const leading = /^[ \t]*/.exec(text.slice(lineStart, start))![0];
    inserted = inserted
      .split(/\r\n|\r|\n/)
      .map((l, i) => (i === 0 ? l : leading + l))
      .join(text.includes('\r\n') ? '\r\n' : '\n');
  }
  const edits = [
    { start, end, text: inserted },
    ...(item.additionalTextEdits ?? []).map((a) => ({
      start: offsetAt(text, a.range.start),
      end: offsetAt(text, a.range.end),
      text: a.newText,
    })),
  ];
  edits.sort((a, b) => b.start - a.start);
  for (let i = 1; i < edits.length; i++) {
    if (edits[i].end > edits[i - 1].start)
      throw new Error(`item ${item.label}: its additionalTextEdits overlap its edit (VS Code rejects that)`);
  }
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  const open = out.indexOf(OPEN);
  const close = out.indexOf(CLOSE);
  const selected = out.slice(open + 1, close);
  const plain = out.slice(0, open) + selected + out.slice(close + 1);
  const marked = out.slice(0, open) + (selected ? `\${0:${selected}}` : '$0') + out.slice(close + 1);
  return { text: plain, marked };
}

// Test helper: applies a completion item to a document the way VS Code does when the item is
// accepted. The item's text edit goes through VS Code's snippet insertion (SnippetSession): the
// snippet is expanded (a placeholder becomes its default text, a choice its first option, a tab
// stop the text of the placeholder with the same number, else nothing), and unless the item is
// `insertTextMode: asIs` (VS Code's `keepWhitespace`), every line after the first is prefixed with
// the leading whitespace of the line the edit starts on, up to where it starts
// (SnippetSession.adjustWhitespace). Plain-text items are inserted as escaped snippets, so they get
// the same indentation treatment.
import {
  InsertTextFormat,
  InsertTextMode,
  type CompletionItem,
  type TextEdit,
  type InsertReplaceEdit,
} from 'vscode-languageserver-protocol';

type Node = { text: string } | { stop: number; children: Node[] } | { stop: number; choice: string[] };

/** Parses VS Code snippet syntax into text, tab stops, placeholders and choices. */
function parseSnippet(s: string): Node[] {
  let i = 0;
  const parse = (inside: boolean): Node[] => {
    const out: Node[] = [];
    let text = '';
    const flush = () => {
      if (text) out.push({ text });
      text = '';
    };
    while (i < s.length) {
      const ch = s[i];
      if (ch === '\\' && i + 1 < s.length && '$}\\'.includes(s[i + 1])) {
        text += s[i + 1];
        i += 2;
      } else if (inside && ch === '}') {
        break;
      } else if (ch === '$' && /\d/.test(s[i + 1] ?? '')) {
        const m = /^\d+/.exec(s.slice(i + 1))!;
        flush();
        out.push({ stop: Number(m[0]), children: [] });
        i += 1 + m[0].length;
      } else if (ch === '$' && s[i + 1] === '{' && /\d/.test(s[i + 2] ?? '')) {
        const m = /^\d+/.exec(s.slice(i + 2))!;
        const stop = Number(m[0]);
        i += 2 + m[0].length;
        flush();
        if (s[i] === '}') {
          out.push({ stop, children: [] });
          i++;
        } else if (s[i] === ':') {
          i++;
          const children = parse(true);
          if (s[i] !== '}') throw new Error(`unclosed placeholder in snippet: ${s}`);
          i++;
          out.push({ stop, children });
        } else if (s[i] === '|') {
          i++;
          const options: string[] = [];
          let option = '';
          while (i < s.length && !(s[i] === '|' && s[i + 1] === '}')) {
            if (s[i] === '\\' && i + 1 < s.length) {
              option += s[i + 1];
              i += 2;
            } else if (s[i] === ',') {
              options.push(option);
              option = '';
              i++;
            } else option += s[i++];
          }
          options.push(option);
          if (s[i] !== '|') throw new Error(`unclosed choice in snippet: ${s}`);
          i += 2;
          out.push({ stop, choice: options });
        } else throw new Error(`bad snippet syntax at ${i}: ${s}`);
      } else {
        text += ch;
        i++;
      }
    }
    flush();
    return out;
  };
  const nodes = parse(false);
  if (i < s.length) throw new Error(`unbalanced } in snippet: ${s}`);
  return nodes;
}

/** The text VS Code puts in the document for a snippet before the author types anything. */
export function expandSnippet(snippet: string): string {
  const nodes = parseSnippet(snippet);
  const defaults = new Map<number, Node[] | string>();
  const collect = (list: Node[]) => {
    for (const n of list) {
      if ('choice' in n) defaults.set(n.stop, n.choice[0] ?? '');
      else if ('children' in n) {
        if (n.children.length && !defaults.has(n.stop)) defaults.set(n.stop, n.children);
        collect(n.children);
      }
    }
  };
  collect(nodes);
  const render = (list: Node[]): string =>
    list
      .map((n) => {
        if ('text' in n) return n.text;
        if ('choice' in n) return n.choice[0] ?? '';
        const content = n.children.length ? n.children : defaults.get(n.stop);
        return content === undefined ? '' : typeof content === 'string' ? content : render(content);
      })
      .join('');
  return render(nodes);
}

/**
 * Like expandSnippet, and the first tab stop VS Code selects after insertion (the lowest numbered
 * stop above 0, else `$0`) wrapped in `open` … `close`: the caller finds the cursor and the selected
 * placeholder text by those marks after any further edits. Without a tab stop, nothing is marked.
 */
export function expandSnippetMarked(snippet: string, open: string, close: string): string {
  const nodes = parseSnippet(snippet);
  const stops: number[] = [];
  const gather = (list: Node[]) => {
    for (const n of list) {
      if ('stop' in n) stops.push(n.stop);
      if ('children' in n) gather(n.children);
    }
  };
  gather(nodes);
  const positive = stops.filter((s) => s > 0);
  const first = positive.length ? Math.min(...positive) : stops.includes(0) ? 0 : -1;
  const defaults = new Map<number, Node[] | string>();
  const collect = (list: Node[]) => {
    for (const n of list) {
      if ('choice' in n) defaults.set(n.stop, n.choice[0] ?? '');
      else if ('children' in n) {
        if (n.children.length && !defaults.has(n.stop)) defaults.set(n.stop, n.children);
        collect(n.children);
      }
    }
  };
  collect(nodes);
  let marked = false;
  const render = (list: Node[]): string =>
    list
      .map((n) => {
        if ('text' in n) return n.text;
        let out: string;
        if ('choice' in n) out = n.choice[0] ?? '';
        else {
          const content = n.children.length ? n.children : defaults.get(n.stop);
          out = content === undefined ? '' : typeof content === 'string' ? content : render(content);
        }
        if (n.stop === first && !marked) {
          marked = true;
          return open + out + close;
        }
        return out;
      })
      .join('');
  return render(nodes);
}

function offsetAt(text: string, pos: { line: number; character: number }): number {
  let offset = 0;
  for (let l = 0; l < pos.line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + pos.character;
}

/** The edit of an item (its `textEdit`; for an insert/replace edit, the replace range as VS Code's default `editor.suggest.insertMode: insert` would only differ after the cursor). */
function editOf(item: CompletionItem): TextEdit {
  const e = item.textEdit as TextEdit | InsertReplaceEdit | undefined;
  if (!e) throw new Error(`item ${item.label} has no textEdit`);
  return 'range' in e ? e : { range: e.insert, newText: e.newText };
}

/** The document after VS Code accepts `item`, and the text the item inserted. */
export function applyAsVsCode(text: string, item: CompletionItem): { text: string; inserted: string; start: number } {
  const edit = editOf(item);
  const start = offsetAt(text, edit.range.start);
  const end = offsetAt(text, edit.range.end);
  let inserted = item.insertTextFormat === InsertTextFormat.Snippet ? expandSnippet(edit.newText) : edit.newText;
  if (item.insertTextMode !== InsertTextMode.asIs) {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const leading = /^[ \t]*/.exec(text.slice(lineStart, start))![0];
    inserted = inserted
      .split(/\r\n|\r|\n/)
      .map((l, i) => (i === 0 ? l : leading + l))
      .join(text.includes('\r\n') ? '\r\n' : '\n');
  }
  return { text: text.slice(0, start) + inserted + text.slice(end), inserted, start };
}

// Locates a key path in block-style YAML by indentation alone, without building a `yaml` Document
// (which costs ~1/3 s per 20k lines). Manifests are almost entirely block style, so this answers most
// lookups; whenever the text along the path is anything else (flow collections, anchors, tags, complex
// keys, tabs, a value on the key's line where the path goes deeper) it returns null and the caller
// uses the exact parser. test/unit/manifest/quickLocate.test.ts checks it against the parser.
import type { Span } from '../../types';
import type { JsonPath } from '../origins';

/** The style of a scalar value written on its key's line. */
export type QuickScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';

/**
 * Where a key path is written: its key, and its value when that is a one-line scalar on the key's
 * line (quotes included in the span). `valueStart` is where the value starts on the key's line (the
 * line's end when it starts on a later line) and `column` the key's column, so a caller can read a
 * value written over several lines (quickScalar.ts).
 */
export type QuickLocation = {
  keySpan: Span;
  valueSpan: Span | null;
  valueStyle: QuickScalarStyle | null;
  valueStart: number;
  column: number;
};

/** A content line; `next` is the index of the first later line indented no deeper (its subtree ends there). */
type Line = { start: number; indent: number; content: number; end: number; next: number };

type Entry = { line: number; keySpan: Span; valueStart: number };

/** The line index of one text, and the mapping entries of each region looked up so far. */
type TextIndex = { text: string; lines: Line[]; entries: Map<string, Map<string, Entry> | null> };

/** Lines that carry content (not blank, not comments), with their indentation. */
function contentLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let i = start;
    while (i < end && text.charCodeAt(i) === 32) i++;
    const c = text[i];
    if (i < end && c !== '#' && !(c === '\r' && i + 1 === end))
      lines.push({ start, indent: i - start, content: i, end: text[end - 1] === '\r' ? end - 1 : end, next: 0 });
    start = end + 1;
  }
  // Subtree ends, so scanning the entries of a collection skips their contents in one step.
  const open: number[] = [];
  lines.forEach((l, i) => {
    while (open.length && lines[open[open.length - 1]].indent >= l.indent) lines[open.pop()!].next = i;
    open.push(i);
  });
  for (const i of open) lines[i].next = lines.length;
  return lines;
}

// A plain or simply quoted mapping key followed by `:` and a space or the end of the line.
const KEY = /^(?:"([^"\\]*)"|'([^']*)'|([^\s#'"&*!|>%@`{}[\],?:-][^#\n]*?|-[^\s#\n][^#\n]*?))[ ]*:(?=[ ]|$)/;

/** Turned off by corpus checks to compare against the parser-only path (bench/lspModelConsistency.ts). */
export const quickLocateSwitch = { enabled: true };

/**
 * The key written at `path` in `text`, or null when the layout is not plain block style along the
 * way: a lookup function with its own index of `text`, made once per text by its owner (the
 * manifest's locator, locator.ts; the language server's model keeps one per block, so an unchanged
 * block answers from its cache and no edit re-indexes the whole file).
 */
export function quickLocatorFor(text: string): (path: JsonPath) => QuickLocation | null {
  let index: TextIndex | null = null;
  return (path) => {
    if (!quickLocateSwitch.enabled) return null;
    index ??= { text, lines: contentLines(text), entries: new Map() };
    return locateIn(index, path);
  };
}

function locateIn(index: TextIndex, path: JsonPath): QuickLocation | null {
  const { text, lines } = index;
  // The region being searched: lines [lo, hi) of the collection, whose entries start at column `col`
  // of line `lo` (a virtual column for the first line of a sequence item: `- key: value`).
  let lo = 0;
  let hi = lines.length;
  let firstCol = lines.length ? lines[0].content - lines[0].start : 0;
  if (lines.length === 0 || path.length === 0) return null;
  if (text.slice(lines[0].content, lines[0].content + 3) === '---' || text.startsWith('%', lines[0].content)) return null;
  let found: QuickLocation | null = null;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth];
    const col = firstCol;
    if (typeof segment === 'number') {
      // Sequence items: lines at `col` starting with `- `.
      let n = -1;
      let at = -1;
      for (let i = lo; i < hi; i = i === lo ? i + 1 : lines[i].next) {
        const l = lines[i];
        if (i !== lo) {
          if (l.indent < col) return null;
          if (l.indent > col) continue;
        }
        const pos = i === lo ? l.start + col : l.content;
        if (text[pos] !== '-' || !(text[pos + 1] === ' ' || pos + 1 === l.end)) return null;
        if (++n === segment) {
          at = i;
          break;
        }
      }
      if (at < 0) return null;
      // The item's content starts after `- ` on the same line, or on the next deeper line.
      const dash = at === lo ? lines[at].start + col : lines[at].content;
      let after = dash + 1;
      while (after < lines[at].end && text.charCodeAt(after) === 32) after++;
      // The item's lines: its subtree when its dash starts the line (precomputed), else scanned.
      let end = at + 1;
      if (lines[at].indent === col) end = Math.min(lines[at].next, hi);
      else while (end < hi && lines[end].indent > col) end++;
      if (depth === path.length - 1) return null; // a whole item is not a key: leave it to the parser
      if (after < lines[at].end) {
        lo = at;
        firstCol = after - lines[at].start;
      } else {
        if (end === at + 1) return null;
        lo = at + 1;
        firstCol = lines[lo].indent;
      }
      hi = end;
      continue;
    }
    // Mapping entries: lines at `col`, indexed once per region and text.
    const entries = mappingEntries(index, lo, hi, col);
    if (!entries) return null;
    const entry = entries.get(String(segment));
    if (!entry) return null;
    const { line: match, keySpan: matchKey, valueStart } = entry;
    const l = lines[match];
    let v = valueStart;
    while (v < l.end && text.charCodeAt(v) === 32) v++;
    const inline = v < l.end && text[v] !== '#';
    if (depth === path.length - 1) {
      // Deeper lines after a value on the key's line continue that scalar over several lines.
      const continued = match + 1 < hi && lines[match + 1].indent > col;
      let valueSpan: Span | null = null;
      let valueStyle: QuickScalarStyle | null = null;
      if (inline && !continued) {
        const q = text[v];
        if (q === '"' || q === "'") {
          const close = closingQuote(text, v, l.end);
          // Only a comment may follow the closing quote.
          if (close > 0 && /^[ ]*(?:#.*)?$/.test(text.slice(close + 1, l.end))) {
            valueSpan = { start: v, end: close + 1 };
            valueStyle = q === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE';
          }
        } else if (/[^\s&*!|>{[%@`]/.test(q)) {
          // A plain scalar: up to a comment or the end of the line.
          const hash = text.slice(v, l.end).search(/\s#/);
          let e = hash >= 0 ? v + hash : l.end;
          while (e > v && text.charCodeAt(e - 1) === 32) e--;
          valueSpan = { start: v, end: e };
          valueStyle = 'PLAIN';
        }
      }
      found = { keySpan: matchKey, valueSpan, valueStyle, valueStart: v, column: col };
      break;
    }
    if (inline) return null; // the path goes into a value written on the key's line (flow style)
    let end = match + 1;
    const next = lines[end];
    if (!next) return null;
    // Children are deeper, or a sequence at the key's own indentation.
    const indentless = next.indent === col && text[next.content] === '-';
    if (next.indent <= col && !indentless) return null;
    // The key's subtree: precomputed when the key starts its line and its children are deeper.
    if (!indentless && l.indent === col) end = Math.max(end, Math.min(l.next, hi));
    else
      while (end < hi && (lines[end].indent > col || (indentless && lines[end].indent === col && text[lines[end].content] === '-'))) end++;
    lo = match + 1;
    hi = end;
    firstCol = lines[lo].indent;
  }
  return found;
}

/**
 * Offset of the quote closing the quoted scalar opened at `open`, searched up to `limit` (the line's
 * end for a one-line scalar, the text's end for one that may go on over lines), or -1.
 */
export function closingQuote(text: string, open: number, limit = text.length): number {
  const q = text[open];
  for (let i = open + 1; i < limit; i++) {
    const c = text[i];
    if (q === '"' && c === '\\') {
      i++;
      continue;
    }
    if (c === q) {
      if (q === "'" && text[i + 1] === "'") {
        i++;
        continue;
      }
      return i;
    }
  }
  return -1;
}

/** The keys of the block mapping in lines [lo, hi) at column `col`; null when an entry is not a plain or simply quoted key. */
function mappingEntries(index: TextIndex, lo: number, hi: number, col: number): Map<string, Entry> | null {
  const { text, lines, entries: cachedEntries } = index;
  const id = `${lo}:${hi}:${col}`;
  const cached = cachedEntries.get(id);
  if (cached !== undefined) return cached;
  let out: Map<string, Entry> | null = new Map();
  for (let i = lo; i < hi; i = i === lo ? i + 1 : lines[i].next) {
    const l = lines[i];
    const pos = i === lo ? l.start + col : l.content;
    if (i !== lo) {
      if (l.indent < col) {
        out = null;
        break;
      }
      if (l.indent > col) continue;
    }
    const rest = text.slice(pos, l.end);
    // A block sequence may sit at the indentation of its parent key: it belongs to the previous key.
    if (rest.startsWith('- ') || rest === '-') continue;
    const m = KEY.exec(rest);
    if (!m) {
      out = null;
      break;
    }
    const key = m[1] ?? m[2] ?? m[3];
    // The later duplicate wins, as in the loaded value. A quoted key's range includes its quotes.
    out.set(key, { line: i, keySpan: { start: pos, end: pos + key.length + (m[3] !== undefined ? 0 : 2) }, valueStart: pos + m[0].length });
  }
  cachedEntries.set(id, out);
  return out;
}

// The locator's answer to "what is the cursor on" (locator.ts `contextAt`, asked by completion, hover
// and definitions): a key, a value, a blank place where a key may go, the path of the enclosing
// mapping, and whether it sits inside a template. Read from the text's indentation, so it works
// while the YAML is half typed (when the parsed nodes say nothing yet).

import { editedRegion, lineColIn, lineStartsIn } from './lineText';

/** One step of a path: a map key or a sequence index. */
type Segment = string | number;

/** Where the cursor is, structurally. Offsets are UTF-16 offsets into the document text. */
export type CursorContext = {
  /** `key`: on a key or where a new key may be typed; `value`: after `key:` on the same line. */
  position: 'key' | 'value';
  /** Path of the mapping that holds the key (for `value`: the mapping that holds `field`). */
  mapPath: Segment[];
  /** For `value`: the key whose value is under the cursor. */
  field: string | null;
  /** The text typed so far that a completion replaces: its span and content. */
  prefix: { start: number; end: number; text: string };
  /** For `key`: the whole key word under the cursor (for hover), which may extend past the cursor. */
  word: { start: number; end: number; text: string } | null;
  /** True when the key is the first key of a new sequence item (`- ` before it on the line). */
  inNewItem: boolean;
  /** Column at which the key starts (for indenting snippets). */
  keyColumn: number;
  /** A `{{ … }}` or `{% … %}` template around the cursor on this line, or null. */
  template: { start: number; end: number } | null;
  /**
   * The one-line scalar value under the cursor (after `key: `, or a sequence item), unquoted, with
   * the span of its source text; null when the value is not a scalar written on this line.
   */
  scalar: { start: number; end: number; text: string } | null;
};

const KEY_VALUE = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[][^#]*?)\s*:(?:\s+(.*))?$/;

/** The cursor context at `offset` of `text`. Never throws; null when no mapping can hold the cursor. */
export function cursorContextAt(text: string, offset: number): CursorContext | null {
  const lineStart = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0; // lastIndexOf from -1 would still look at index 0
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  const before = line.slice(0, offset - lineStart);
  const shape = /^( *)((?:- +)*)(.*)$/.exec(before)!;
  const keyColumn = shape[1].length + shape[2].length;
  const rest = shape[3];
  if (rest.trimStart().startsWith('#')) return null;
  const template = templateAround(line, offset - lineStart, lineStart);
  const lines = new LineReader(text, lineStart);
  const lineIndex = lines.cursorLine;
  const inNewItem = shape[2].length > 0;
  const mapPath = inNewItem ? itemPath(lines, lineIndex, shape[2]) : mapPathAt(lines, lineIndex, keyColumn);
  if (!mapPath) return null;
  const kv = KEY_VALUE.exec(rest);
  const contentStart = lineStart + keyColumn;
  const fullKv = KEY_VALUE.exec(line.slice(keyColumn));
  if (kv && kv[2] !== undefined) {
    const valueText = kv[2];
    const valueStart = offset - valueText.length;
    return {
      position: 'value',
      mapPath,
      field: unquote(kv[1]),
      prefix: { start: offset - valueText.length, end: offset, text: valueText },
      word: null,
      inNewItem,
      keyColumn,
      template,
      scalar: fullKv && fullKv[2] !== undefined ? scalarAt(line, valueStart - lineStart, lineStart) : null,
    };
  }
  const keyStart = lineStart + keyColumn;
  const after = line.slice(offset - lineStart);
  const tail = /^[^\s:#]*/.exec(after)![0];
  const wordText = rest + tail;
  return {
    position: 'key',
    mapPath,
    field: null,
    prefix: { start: keyStart, end: offset, text: rest },
    word: wordText.trim() === '' ? null : { start: keyStart, end: offset + tail.length, text: unquote(wordText.replace(/:.*$/, '')) },
    inNewItem,
    keyColumn,
    template,
    scalar: inNewItem && !fullKv ? scalarAt(line, contentStart - lineStart, lineStart) : null,
  };
}

/** The scalar written from column `col` of `line` to the end of the line (a comment aside). */
function scalarAt(line: string, col: number, lineStart: number): { start: number; end: number; text: string } | null {
  const raw = line.slice(col);
  const q = raw[0];
  if (q === '"' || q === "'") {
    const close = q === '"' ? /^"((?:[^"\\]|\\.)*)"/.exec(raw) : /^'((?:[^']|'')*)'/.exec(raw);
    if (!close) return null;
    const text = q === '"' ? close[1].replace(/\\(.)/g, '$1') : close[1].replace(/''/g, "'");
    return { start: lineStart + col, end: lineStart + col + close[0].length, text };
  }
  if (raw === '' || /^[[{|>&*!%@`]/.test(raw)) return null;
  const text = raw.replace(/\s+#.*$/, '').trimEnd();
  return { start: lineStart + col, end: lineStart + col + text.length, text };
}

/** Finds `{{ … }}` / `{% … %}` around column `col` of `line`; offsets are absolute. */
function templateAround(line: string, col: number, lineStart: number): { start: number; end: number } | null {
  const open = Math.max(line.lastIndexOf('{{', col - 1), line.lastIndexOf('{%', col - 1));
  if (open < 0) return null;
  const closer = line[open + 1] === '{' ? '}}' : '%}';
  const closedBefore = line.indexOf(closer, open + 2);
  if (closedBefore >= 0 && closedBefore + 2 <= col) return null;
  return { start: lineStart + open, end: lineStart + (closedBefore >= 0 ? closedBefore + 2 : line.length) };
}

function unquote(key: string): string {
  const k = key.trim();
  if (k.startsWith('"') && k.endsWith('"') && k.length >= 2) return k.slice(1, -1).replace(/\\(.)/g, '$1');
  if (k.startsWith("'") && k.endsWith("'") && k.length >= 2) return k.slice(1, -1).replace(/''/g, "'");
  return k;
}

/**
 * The text's lines as the scan upward from the cursor reads them, by absolute line index. A cursor
 * deep in a long list (tens of thousands of lines on the largest manifests) would otherwise walk
 * up through every earlier item: the table (typed arrays, updated from the previous version's
 * table for the edited lines only) holds for each line the earlier lines the scans stop at, so a
 * scan takes one step per level of nesting (quickbooks' first completion at line 14,545: 14-17 ms
 * of line walking → see docs/editor.md).
 */
class LineReader {
  readonly table: LineTable;
  readonly cursorLine: number;
  constructor(
    readonly text: string,
    cursorLineStart: number,
  ) {
    this.table = tableOf(text);
    this.cursorLine = lineColIn(this.table.starts, cursorLineStart).line - 1;
  }
  keyOf(i: number): string | null {
    const start = this.table.starts[i];
    const nl = this.text.indexOf('\n', start);
    const end = nl < 0 ? this.text.length : nl;
    const kv = KEY_VALUE.exec(this.text.slice(start + this.table.content[i], end).replace(/\r$/, ''));
    return kv ? unquote(kv[1]) : null;
  }
}

/**
 * The line index of a text (the last one read). Per line: its shape (indentation, a leading `- `,
 * where the content starts, blank or comment-only) and the earlier lines a scan upward stops at.
 * Blank and comment-only lines are never stopped at, so every link skips them.
 */
type LineTable = {
  text: string;
  /** Offset where each line starts (as lineStartsIn: a text ending in a line break has an empty last line). */
  starts: Int32Array;
  /** Leading spaces. */
  indent: Int32Array;
  /** Column of a leading `- ` (the line's indentation), or -1. */
  dash: Int32Array;
  /** Column where the content starts (after a leading `- `). */
  content: Int32Array;
  /** 1 for a blank or comment-only line. */
  blank: Uint8Array;
  /** The last non-blank line before this one, or -1. */
  prevNonBlank: Int32Array;
  /** Non-blank lines: the last earlier non-blank line indented less, or -1. */
  prevShallower: Int32Array;
  /** Lines starting with `- `: how many items of the same sequence come before (0 for its first). */
  itemIndex: Int32Array;
  /** Lines starting with `- `: the line above the sequence's first item that holds the sequence (its key), or -1. */
  seqOwner: Int32Array;
};
let lastTable: LineTable | null = null;

/** The table of `text`: the last one, updated for what changed since when it was another version's. */
function tableOf(text: string): LineTable {
  if (lastTable?.text !== text) lastTable = lastTable ? updatedTable(lastTable, text) : builtTable(text);
  return lastTable;
}

function emptyTable(text: string, starts: Int32Array): LineTable {
  const n = starts.length;
  return {
    text,
    starts,
    indent: new Int32Array(n),
    dash: new Int32Array(n),
    content: new Int32Array(n),
    blank: new Uint8Array(n),
    prevNonBlank: new Int32Array(n),
    prevShallower: new Int32Array(n),
    itemIndex: new Int32Array(n),
    seqOwner: new Int32Array(n),
  };
}

function builtTable(text: string): LineTable {
  const t = emptyTable(text, Int32Array.from(lineStartsIn(text)));
  readShapes(t, 0, t.starts.length);
  linkLines(t, 0);
  return t;
}

/**
 * The table of `text` from the table of another version: lines before the edited region keep their
 * shape and links, lines after it their shape (moved by the edit's length), the lines between are
 * read again, and the links are made again from the first edited line on (each depends only on the
 * lines above it).
 */
function updatedTable(old: LineTable, text: string): LineTable {
  const { prefix, suffix, delta, oldLength } = editedRegion(old.text, text);
  const oldStarts = old.starts;
  const oldCount = oldStarts.length;
  // First line touched by the edit: the last one starting at or before its first character.
  const first = lineColIn(oldStarts, prefix).line - 1;
  // First line after the edit: its start (and so the line break before it) lies in the shared suffix.
  let after = first + 1;
  let hi = oldCount;
  while (after < hi) {
    const mid = (after + hi) >> 1;
    if (oldStarts[mid] > oldLength - suffix) hi = mid;
    else after = mid + 1;
  }
  // A different text altogether (another document): read it whole.
  if (after - first > oldCount / 2) return builtTable(text);
  const stop = after < oldCount ? oldStarts[after] + delta : -1;
  const middle: number[] = [];
  for (let s = oldStarts[first]; ; ) {
    middle.push(s);
    const nl = text.indexOf('\n', s);
    if (nl === -1) break;
    s = nl + 1;
    if (s === stop) break;
  }
  const tail = first + middle.length;
  const starts = new Int32Array(tail + oldCount - after);
  starts.set(oldStarts.subarray(0, first), 0);
  starts.set(middle, first);
  for (let l = after; l < oldCount; l++) starts[tail + l - after] = oldStarts[l] + delta;
  const t = emptyTable(text, starts);
  for (const key of ['indent', 'dash', 'content', 'blank'] as const) {
    t[key].set(old[key].subarray(0, first), 0);
    t[key].set(old[key].subarray(after), tail);
  }
  for (const key of ['prevNonBlank', 'prevShallower', 'itemIndex', 'seqOwner'] as const) t[key].set(old[key].subarray(0, first), 0);
  readShapes(t, first, tail);
  linkLines(t, first);
  return t;
}

/** Reads the shape of lines `from` to `to` (exclusive). */
function readShapes(t: LineTable, from: number, to: number): void {
  const { text, starts } = t;
  const length = text.length;
  for (let i = from; i < to; i++) {
    const start = starts[i];
    let p = start;
    while (text.charCodeAt(p) === 32) p++;
    const indent = p - start;
    t.indent[i] = indent;
    if (text.charCodeAt(p) === 45 /* - */ && text.charCodeAt(p + 1) === 32) {
      p += 1;
      while (text.charCodeAt(p) === 32) p++;
      t.dash[i] = indent;
      t.content[i] = p - start;
      t.blank[i] = 0;
    } else {
      t.dash[i] = -1;
      t.content[i] = indent;
      // Blank: nothing but whitespace before the line break; a comment: `#` first after whitespace.
      let q = p;
      while (q < length && isSpaceBeforeBreak(text.charCodeAt(q))) q++;
      t.blank[i] = q >= length || text.charCodeAt(q) === 10 || text.charCodeAt(q) === 35 /* # */ ? 1 : 0;
    }
  }
}

/** Makes the links of every line from `from` on, the lines above it being linked already. */
function linkLines(t: LineTable, from: number): void {
  const n = t.starts.length;
  // The earlier non-blank lines not yet closed by a line indented less, one per indentation,
  // shallowest first: the top is the last earlier line indented no deeper than the current one. At
  // `from` they are the last non-blank line above it and the chain of lines each indented less.
  const open = new Int32Array(n);
  let depth = 0;
  let lastNonBlank = from === 0 ? -1 : t.blank[from - 1] ? t.prevNonBlank[from - 1] : from - 1;
  for (let j = lastNonBlank; j >= 0; j = t.prevShallower[j]) depth++;
  for (let j = lastNonBlank, k = depth - 1; j >= 0; j = t.prevShallower[j], k--) open[k] = j;
  for (let i = from; i < n; i++) {
    t.prevNonBlank[i] = lastNonBlank;
    t.prevShallower[i] = -1;
    t.itemIndex[i] = 0;
    t.seqOwner[i] = -1;
    if (t.blank[i]) continue;
    const indent = t.indent[i];
    while (depth > 0 && t.indent[open[depth - 1]] > indent) depth--;
    const above = depth > 0 ? open[depth - 1] : -1;
    if (above >= 0 && t.indent[above] === indent) {
      t.prevShallower[i] = depth > 1 ? open[depth - 2] : -1;
      open[depth - 1] = i;
    } else {
      t.prevShallower[i] = above;
      open[depth++] = i;
    }
    if (t.dash[i] >= 0) {
      // The line above at this indentation or less: an earlier item of the same sequence, or what holds it.
      const sibling = above >= 0 && t.dash[above] === indent;
      t.itemIndex[i] = sibling ? t.itemIndex[above] + 1 : 0;
      t.seqOwner[i] = sibling ? t.seqOwner[above] : above;
    }
    lastNonBlank = i;
  }
}

/** Whitespace other than a line feed, as `/\s/` reads it (a comment's `#` and content end the run). */
function isSpaceBeforeBreak(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 13 ||
    c === 11 ||
    c === 12 ||
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Path of the mapping in which a key at column `col` on line `i` lives (the line's own dash aside). */
function mapPathAt(lines: LineReader, i: number, col: number): Segment[] | null {
  const t = lines.table;
  // The first earlier non-blank line indented less than `col`: each step skips a run indented deeper.
  let j = t.prevNonBlank[i];
  while (j >= 0 && t.indent[j] >= col) j = t.prevShallower[j];
  if (j < 0) return col === 0 ? [] : null;
  const dashCol = t.dash[j];
  // The key continues the map of a sequence item that started on line j.
  if (dashCol >= 0 && dashCol < col && t.content[j] === col) return itemOwner(lines, j);
  const key = lines.keyOf(j);
  if (key === null) return null;
  const parent = dashCol >= 0 ? itemOwner(lines, j) : mapPathAt(lines, j, t.content[j]);
  return parent ? [...parent, key] : null;
}

/** For a line j starting with `- `: the path of that item's map. */
function itemOwner(lines: LineReader, j: number): Segment[] | null {
  const seq = seqPath(lines, j);
  return seq ? [...seq, lines.table.itemIndex[j]] : null;
}

/** Path of the map of a new item on line i (dashes: the `- ` run before the cursor). */
function itemPath(lines: LineReader, i: number, dashes: string): Segment[] | null {
  if (dashes.trim().split(/\s+/).length > 1) return null;
  return itemOwner(lines, i);
}

/** Path of the sequence that holds the item starting on line i (a line starting with `- `). */
function seqPath(lines: LineReader, i: number): Segment[] | null {
  const t = lines.table;
  const owner = t.seqOwner[i];
  if (owner < 0) return null;
  const key = lines.keyOf(owner);
  if (key === null) return null;
  const parent = t.dash[owner] >= 0 ? itemOwner(lines, owner) : mapPathAt(lines, owner, t.content[owner]);
  return parent ? [...parent, key] : null;
}

// The locator's answer to "what is the cursor on" (locator.ts `contextAt`, asked by completion, hover
// and definitions): a key, a value, a blank place where a key may go, the path of the enclosing
// mapping, and whether it sits inside a template. Read from the text's indentation, so it works
// while the YAML is half typed (when the parsed nodes say nothing yet).

import { lineColIn, lineStartsIn } from './lineText';

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
export function cursorContextAt(text: string, offset: number, lineStarts?: () => readonly number[]): CursorContext | null {
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
  const lines = new LineReader(text, lineStart, lineStarts);
  const lineIndex = lines.cursorLine;
  const inNewItem = shape[2].length > 0;
  const mapPath = inNewItem ? itemPath(lines, lineIndex, shape[1].length, shape[2]) : mapPathAt(lines, lineIndex, keyColumn);
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
 * Line access for the scan upward from the cursor, by absolute line index. The scans walk up through
 * every earlier item of a long list (tens of thousands of lines on the largest manifests): the line
 * starts of a text are indexed once (with `indexOf`) and each line's shape is read once into typed
 * arrays shared by every request on that text, so a step of a scan is a few array reads (quickbooks'
 * completion and hover p95: 14-17 ms → see docs/editor.md).
 */
class LineReader {
  private readonly table: LineTable;
  readonly cursorLine: number;
  constructor(
    readonly text: string,
    cursorLineStart: number,
    lineStarts?: () => readonly number[],
  ) {
    this.table = tableOf(text, lineStarts);
    this.cursorLine = lineColIn(this.table.starts, cursorLineStart).line - 1;
  }
  /** True when line `i` exists. */
  has(i: number): boolean {
    return i >= 0;
  }
  private read(i: number): void {
    const t = this.table;
    if (t.known[i]) return;
    const start = t.starts[i];
    let p = start;
    const text = this.text;
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
      // Blank: nothing but whitespace before the line break; a comment: `#` first after whitespace.
      let q = p;
      while (q < text.length && text[q] !== '\n' && /\s/.test(text[q])) q++;
      t.dash[i] = -1;
      t.content[i] = indent;
      t.blank[i] = q >= text.length || text[q] === '\n' || text[q] === '#' ? 1 : 0;
    }
    t.known[i] = 1;
  }
  /** Indentation of line `i` (as `/^( *)((?:- +)?)(.*)$/` reads it). */
  indent(i: number): number {
    this.read(i);
    return this.table.indent[i];
  }
  /** Column of the line's leading `- `, or -1. */
  dashCol(i: number): number {
    this.read(i);
    return this.table.dash[i];
  }
  /** Column where the line's content starts (after a leading `- `). */
  contentCol(i: number): number {
    this.read(i);
    return this.table.content[i];
  }
  /** True for a blank or comment-only line. */
  blank(i: number): boolean {
    this.read(i);
    return this.table.blank[i] === 1;
  }
  keyOf(i: number): string | null {
    const start = this.table.starts[i];
    const nl = this.text.indexOf('\n', start);
    const end = nl < 0 ? this.text.length : nl;
    const kv = KEY_VALUE.exec(this.text.slice(start + this.contentCol(i), end).replace(/\r$/, ''));
    return kv ? unquote(kv[1]) : null;
  }
}

/** The line index of a text (the last one read): line starts, and each line's shape once read. */
type LineTable = {
  text: string;
  starts: readonly number[];
  indent: Int32Array;
  dash: Int32Array;
  content: Int32Array;
  blank: Uint8Array;
  known: Uint8Array;
};
let lastTable: LineTable | null = null;

/** The table of `text`; `lineStarts` gives its line starts when the caller has them indexed already. */
function tableOf(text: string, lineStarts?: () => readonly number[]): LineTable {
  if (lastTable?.text !== text) {
    const starts = lineStarts ? lineStarts() : lineStartsIn(text);
    const n = starts.length;
    lastTable = {
      text,
      starts,
      indent: new Int32Array(n),
      dash: new Int32Array(n),
      content: new Int32Array(n),
      blank: new Uint8Array(n),
      known: new Uint8Array(n),
    };
  }
  return lastTable;
}

/** Path of the mapping in which a key at column `col` on line `i` lives (the line's own dash aside). */
function mapPathAt(lines: LineReader, i: number, col: number): Segment[] | null {
  for (let j = i - 1; lines.has(j); j--) {
    if (lines.blank(j)) continue;
    const dashCol = lines.dashCol(j);
    if (dashCol >= 0 && dashCol < col && lines.contentCol(j) === col) {
      // The key continues the map of a sequence item that started on line j.
      const seq = seqPathAt(lines, j, dashCol);
      return seq ? [...seq, itemIndex(lines, j, dashCol)] : null;
    }
    if (lines.indent(j) < col) {
      const key = lines.keyOf(j);
      if (key === null) return null;
      const parent = dashCol >= 0 ? itemOwner(lines, j) : mapPathAt(lines, j, lines.contentCol(j));
      return parent ? [...parent, key] : null;
    }
  }
  return col === 0 ? [] : null;
}

/** For a key on a dash line j: the map of that item. */
function itemOwner(lines: LineReader, j: number): Segment[] | null {
  const dashCol = lines.dashCol(j);
  const seq = seqPathAt(lines, j, dashCol);
  return seq ? [...seq, itemIndex(lines, j, dashCol)] : null;
}

/** Path of the map of a new item on line i whose dash is at `dashCol` (dashes: the `- ` run). */
function itemPath(lines: LineReader, i: number, dashCol: number, dashes: string): Segment[] | null {
  if (dashes.trim().split(/\s+/).length > 1) return null;
  const seq = seqPathAt(lines, i, dashCol);
  return seq ? [...seq, itemIndex(lines, i, dashCol)] : null;
}

/** Path of the sequence whose items have their dash at `dashCol`, the item on line i being one. */
function seqPathAt(lines: LineReader, i: number, dashCol: number): Segment[] | null {
  for (let j = i - 1; lines.has(j); j--) {
    if (lines.blank(j)) continue;
    const dash = lines.dashCol(j);
    if (dash === dashCol) continue;
    const indent = lines.indent(j);
    if (indent < dashCol || (indent === dashCol && dash < 0)) {
      const key = lines.keyOf(j);
      if (key === null) return null;
      const parent = dash >= 0 ? itemOwner(lines, j) : mapPathAt(lines, j, lines.contentCol(j));
      return parent ? [...parent, key] : null;
    }
  }
  return null;
}

/** Index of the item starting on line i among the dashes at `dashCol` of its sequence. */
function itemIndex(lines: LineReader, i: number, dashCol: number): number {
  let index = 0;
  for (let j = i - 1; lines.has(j); j--) {
    if (lines.blank(j)) continue;
    const dash = lines.dashCol(j);
    if (dash === dashCol) index++;
    else {
      const indent = lines.indent(j);
      if (indent < dashCol || (indent === dashCol && dash < 0)) break;
    }
  }
  return index;
}

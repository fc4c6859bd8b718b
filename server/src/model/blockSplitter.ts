// Splits manifest text into a tree of indentation blocks (map entries and sequence items) without
// parsing it, so that each small block can be parsed on its own and reused across edits. Offsets
// only; no LSP types. When the text does not have the plain block shape this relies on, the
// splitter declines (returns null) and the caller parses the whole text at once.

/** A block of lines that holds exactly one map entry or one sequence item. */
export type Block = {
  kind: 'entry' | 'item';
  /** Offset of the start of the block's first line. */
  lineStart: number;
  /** Offset of the block's first significant character (the key, or the `-` of an item). */
  start: number;
  /** Offset just past the block (its last line and line break included). */
  end: number;
  /** Sub-blocks of the block's value, or null when the block is parsed as one leaf. */
  children: Block[] | null;
};

/** Blocks with more lines than this are split into their children when their shape allows it. */
export const LEAF_MAX_LINES = 120;

/** Nesting depth below which blocks are no longer split. */
const MAX_SPLIT_DEPTH = 40;

type Lines = {
  text: string;
  starts: number[];
  /** Column of the first non-space character; -1 for blank and comment-only lines. */
  indent: Int32Array;
};

function scanLines(text: string): Lines {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (starts[starts.length - 1] === text.length && starts.length > 1) starts.pop();
  const indent = new Int32Array(starts.length);
  for (let l = 0; l < starts.length; l++) {
    let i = starts[l];
    while (text.charCodeAt(i) === 32) i++;
    const c = text.charCodeAt(i);
    indent[l] = c === 35 /* # */ || c === 10 || c === 13 || Number.isNaN(c) ? -1 : i - starts[l];
  }
  return { text, starts, indent };
}

/**
 * Splits a whole manifest into its top-level entries (recursively into large blocks).
 * Returns null when the text is not a plain block mapping (documents markers, directives, a root
 * sequence or flow collection, tabs in indentation, anchors shared between blocks...).
 */
export function splitManifest(text: string): Block[] | null {
  if (text.charCodeAt(0) === 0xfeff) return null;
  // Anchors and aliases may cross blocks; such texts are parsed whole.
  if (/(^|[\s,[{])&[^\s,[\]{}]/.test(text)) return null;
  const lines = scanLines(text);
  return splitRegion(lines, 0, lines.starts.length, -1, 'map-only', 0);
}

/** The end offset of line `l` (start of the next line, or the text end). */
function lineEnd(lines: Lines, l: number): number {
  return l + 1 < lines.starts.length ? lines.starts[l + 1] : lines.text.length;
}

/**
 * Splits lines [from, to) into child blocks. `firstCol` >= 0 gives a virtual indentation for the
 * first line (the content after an item's `- `). Returns null when the region has no clean shape.
 */
function splitRegion(lines: Lines, from: number, to: number, firstCol: number, mode: 'any' | 'map-only', depth: number): Block[] | null {
  const colOf = (l: number) => (l === from && firstCol >= 0 ? firstCol : lines.indent[l]);
  let k = Infinity;
  for (let l = from; l < to; l++) {
    const c = colOf(l);
    if (c >= 0 && c < k) k = c;
  }
  if (k === Infinity) return null;
  const { text, starts } = lines;
  const firstIsDash = (l: number) => isDash(text, starts[l] + colOf(l));
  // The kind of the children is decided by the first significant line.
  let first = from;
  while (first < to && colOf(first) < 0) first++;
  if (colOf(first) !== k) return null;
  const kind: 'entry' | 'item' = firstIsDash(first) ? 'item' : 'entry';
  if (kind === 'item' && mode === 'map-only') return null;
  const blocks: Block[] = [];
  let current: { line: number } | null = null;
  const close = (endLine: number) => {
    if (!current) return;
    const l = current.line;
    blocks.push({
      kind,
      lineStart: starts[l],
      start: starts[l] + colOf(l),
      end: endLine < lines.starts.length ? starts[endLine] : text.length,
      children: null,
    });
    blocks[blocks.length - 1].children = maybeSplit(lines, l, endLine, colOf(l), kind, depth + 1);
  };
  for (let l = first; l < to; l++) {
    const c = colOf(l);
    if (c !== k) continue;
    const pos = starts[l] + c;
    if (kind === 'entry') {
      // A compact sequence (`key:\n- a`) keeps its dashes at the key's indentation.
      if (isDash(text, pos)) {
        if (!current) return null;
        continue;
      }
      if (!isKeyLine(text, pos, lineEnd(lines, l))) return null;
    } else if (!isDash(text, pos)) {
      return null;
    }
    close(l);
    current = { line: l };
  }
  close(to);
  return blocks;
}

/** Splits a large block into sub-blocks when its header allows it; null keeps it a leaf. */
function maybeSplit(lines: Lines, from: number, to: number, col: number, kind: 'entry' | 'item', depth: number): Block[] | null {
  // Deeper than real manifests go, blocks stay whole (and recursion stays shallow).
  if (to - from <= LEAF_MAX_LINES || depth > MAX_SPLIT_DEPTH) return null;
  const { text, starts } = lines;
  const pos = starts[from] + col;
  const eol = lineEnd(lines, from);
  if (kind === 'item') {
    let p = pos + 1;
    while (text.charCodeAt(p) === 32) p++;
    if (isLineRest(text, p, eol)) return splitRegion(lines, from + 1, to, -1, 'any', depth);
    // `- key: ...`: the item is a map whose first entry sits on the dash line.
    if (isDash(text, p) || !isKeyLine(text, p, eol)) return null;
    return splitRegion(lines, from, to, p - starts[from], 'map-only', depth);
  }
  const colon = keyColon(text, pos, eol);
  if (colon < 0 || !isLineRest(text, colon + 1, eol)) return null;
  return splitRegion(lines, from + 1, to, -1, 'any', depth);
}

function isDash(text: string, pos: number): boolean {
  if (text.charCodeAt(pos) !== 45 /* - */) return false;
  const n = text.charCodeAt(pos + 1);
  return n === 32 || n === 10 || n === 13 || Number.isNaN(n);
}

/** True when only spaces and an optional comment remain before `eol`. */
function isLineRest(text: string, pos: number, eol: number): boolean {
  let p = pos;
  while (p < eol && text.charCodeAt(p) === 32) p++;
  const c = text.charCodeAt(p);
  return p >= eol || c === 35 || c === 10 || c === 13;
}

function isKeyLine(text: string, pos: number, eol: number): boolean {
  return keyColon(text, pos, eol) >= 0;
}

// Characters that cannot start a plain key (YAML indicators); `-` is handled by isDash.
const NOT_KEY_START = new Set('?:,[]{}#&*!|>%@`\t'.split('').map((c) => c.charCodeAt(0)));

/** Offset of the `:` ending a simple key that starts at `pos`, or -1. */
function keyColon(text: string, pos: number, eol: number): number {
  const c = text.charCodeAt(pos);
  if (c === 34 || c === 39) {
    // Quoted key: find the closing quote on the same line ('' escapes a single quote).
    let p = pos + 1;
    while (p < eol) {
      const d = text.charCodeAt(p);
      if (c === 34 && d === 92) {
        p += 2;
        continue;
      }
      if (d === c) {
        if (c === 39 && text.charCodeAt(p + 1) === 39) {
          p += 2;
          continue;
        }
        break;
      }
      p++;
    }
    p++;
    while (text.charCodeAt(p) === 32) p++;
    return text.charCodeAt(p) === 58 && isSep(text.charCodeAt(p + 1)) ? p : -1;
  }
  if (NOT_KEY_START.has(c) || (c === 45 && isDash(text, pos))) return -1;
  for (let p = pos; p < eol; p++) {
    const d = text.charCodeAt(p);
    if (d === 58 && isSep(text.charCodeAt(p + 1))) return p;
    if (d === 35 && text.charCodeAt(p - 1) === 32) return -1;
  }
  return -1;
}

function isSep(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || Number.isNaN(c);
}

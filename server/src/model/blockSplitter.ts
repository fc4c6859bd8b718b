// Splits manifest text into a tree of indentation blocks (map entries and sequence items) without
// parsing it, so that each small block can be parsed on its own and reused across edits. Offsets
// only; no LSP types. When the text does not have the plain block shape this relies on, the
// splitter declines (returns null) and the caller parses the whole text at once.

import { editedRegion, type EditedRegion } from '../runtime';

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
  /** Offset of each line's first character (a typed array: the next version copies it natively). */
  starts: Float64Array;
  /** Column of the first non-space character; -1 for blank and comment-only lines. */
  indent: Int32Array;
  /**
   * For a significant line: the first later line indented no deeper (0 <= indent <= its own), or
   * the line count. Lets a region's loop step from one sibling to the next over their contents
   * instead of reading every line once per enclosing level.
   */
  next: Int32Array;
  /** While an incremental split runs: the previous version's blocks to take over. */
  reuse?: BlockReuse;
};

function scanLines(text: string): Lines {
  // One pass into typed arrays sized from a first estimate (grown if short): no array of boxed
  // offsets to copy, and each line's indentation read while its start is at hand.
  let starts = new Float64Array(Math.max(16, (text.length >> 5) + 1));
  let indent = new Int32Array(starts.length);
  let count = 0;
  for (let s = 0; ; ) {
    if (count === starts.length) {
      const more = new Float64Array(count * 2);
      more.set(starts);
      starts = more;
      const moreIndent = new Int32Array(count * 2);
      moreIndent.set(indent);
      indent = moreIndent;
    }
    starts[count] = s;
    indent[count] = indentAt(text, s);
    count++;
    const nl = text.indexOf('\n', s);
    // A final line break opens no line of its own (an empty text still has one line).
    if (nl === -1 || nl + 1 === text.length) break;
    s = nl + 1;
  }
  starts = starts.slice(0, count);
  indent = indent.slice(0, count);
  return { text, starts, indent, next: nextNotDeeper(indent) };
}

/** `Lines.next` from the indentation column of each line (one pass from the end, with a stack). */
function nextNotDeeper(indent: Int32Array): Int32Array {
  const count = indent.length;
  const next = new Int32Array(count);
  // Significant lines after the current one whose next-not-deeper is not yet passed, deepest on top:
  // their indents only grow towards the top, so each line is pushed and popped once.
  const stack = new Int32Array(count);
  let top = 0;
  for (let l = count - 1; l >= 0; l--) {
    const own = indent[l];
    if (own < 0) {
      next[l] = l + 1;
      continue;
    }
    while (top > 0 && indent[stack[top - 1]] > own) top--;
    next[l] = top > 0 ? stack[top - 1] : count;
    stack[top++] = l;
  }
  return next;
}

/** Column of the first non-space character of the line starting at `start`; -1 for a blank or comment line. */
function indentAt(text: string, start: number): number {
  let i = start;
  while (text.charCodeAt(i) === 32) i++;
  const c = text.charCodeAt(i);
  return c === 35 /* # */ || c === 10 || c === 13 || Number.isNaN(c) ? -1 : i - start;
}

/**
 * Splits a whole manifest into its top-level entries (recursively into large blocks).
 * Returns null when the text is not a plain block mapping (documents markers, directives, a root
 * sequence or flow collection, tabs in indentation, anchors shared between blocks...).
 */
export function splitManifest(text: string): Block[] | null {
  return splitText(text)?.blocks ?? null;
}

/** A split, kept by the model so that the next version's split can reuse it. */
export type Split = {
  text: string;
  lines: Lines;
  blocks: Block[];
  /** Blocks of this split that repeat a block of the previous version's at another offset (the edit's length): this block → that one. */
  moved: Map<Block, Block>;
};

/**
 * `splitManifest`, reusing the split of the previous version: only the lines of the edited region
 * are scanned again, and a block whose text lies wholly before or after that region, at a place the
 * previous split had the same block, takes over that block's sub-blocks instead of splitting its
 * lines again (the split of a block depends on its text, its column, kind and depth alone). Blocks
 * before the edit are the previous version's own objects; blocks after it are copies moved by the
 * edit's length (`moved` names their originals). The result equals `splitManifest(text)`.
 */
export function splitText(text: string, previous?: Split): Split | null {
  if (text.charCodeAt(0) === 0xfeff) return null;
  const edit = previous ? editedRegion(previous.text, text) : undefined;
  // Anchors and aliases may cross blocks; such texts are parsed whole.
  if (edit ? anchorIn(text, edit) : ANCHOR.test(text)) return null;
  const moved = new Map<Block, Block>();
  const lines = previous && edit ? rescanLines(previous.lines, text, edit) : scanLines(text);
  if (previous && edit) lines.reuse = new BlockReuse(previous.blocks, edit, moved);
  const blocks = splitRegion(lines, 0, lines.starts.length, -1, 'map-only', 0);
  // The split keeps no link to the previous version (so versions are not chained in memory).
  lines.reuse = undefined;
  return blocks && { text, lines, blocks, moved };
}

const ANCHOR = /(^|[\s,[{])&[^\s,[\]{}]/;
const ANCHOR_AFTER = /[\s,[{]&[^\s,[\]{}]/;
const ANCHOR_AT_START = /^&[^\s,[\]{}]/;

/**
 * Whether the new text has an anchor, knowing the old one had none: a match that touches no edited
 * character would have matched the old text too, so only the edited region and two characters on
 * each side are searched (and the text's start, which `^` reads).
 */
function anchorIn(text: string, edit: EditedRegion): boolean {
  const from = Math.max(0, edit.prefix - 2);
  const to = Math.min(text.length, text.length - edit.suffix + 2);
  if (from === 0 && ANCHOR_AT_START.test(text)) return true;
  return ANCHOR_AFTER.test(text.slice(from, to));
}

/**
 * The lines of the new text from the old text's: lines wholly before the edit are the same, lines
 * wholly after it (their line break included) move by the edit's length, the others are scanned.
 */
function rescanLines(old: Lines, text: string, edit: EditedRegion): Lines {
  const { prefix, suffix, delta, oldLength } = edit;
  // First old line touched by the edit: the last one starting at or before its first character.
  let lo = 0;
  let hi = old.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (old.starts[mid] <= prefix) lo = mid;
    else hi = mid - 1;
  }
  const first = lo;
  // First old line after the edit: its start (and so the line break before it) lies in the suffix.
  let after = old.starts.length;
  lo = first + 1;
  hi = old.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (old.starts[mid] > oldLength - suffix) hi = mid;
    else lo = mid + 1;
  }
  after = lo;
  const stop = after < old.starts.length ? old.starts[after] + delta : -1;
  const middle: number[] = [];
  for (let s = old.starts[first]; ; ) {
    middle.push(s);
    const nl = text.indexOf('\n', s);
    if (nl === -1) break;
    s = nl + 1;
    if (s === stop) break;
  }
  if (stop === -1 && middle.length + first > 1 && middle[middle.length - 1] === text.length) middle.pop();
  const count = first + middle.length + (old.starts.length - after);
  const starts = new Float64Array(count);
  const indent = new Int32Array(count);
  starts.set(old.starts.subarray(0, first), 0);
  indent.set(old.indent.subarray(0, first), 0);
  for (let m = 0; m < middle.length; m++) {
    const l = first + m;
    starts[l] = middle[m];
    indent[l] = indentAt(text, middle[m]);
  }
  const tail = first + middle.length;
  for (let l = after; l < old.starts.length; l++) starts[tail + l - after] = old.starts[l] + delta;
  indent.set(old.indent.subarray(after), tail);
  // An edit can change which later line ends any earlier block, so the table is made again (one
  // pass over a typed array: under a millisecond on the 56k-line corpus manifest).
  return { text, starts, indent, next: nextNotDeeper(indent) };
}

/**
 * The sub-blocks the previous split found for a block of the same text at the same place (before
 * the edit) or moved by the edit (after it).
 */
class BlockReuse {
  /** The previous version's blocks by their first line's offset, with their depth. */
  private readonly index = new Map<number, { block: Block; depth: number }[]>();

  constructor(
    blocks: Block[],
    private readonly edit: EditedRegion,
    private readonly moved: Map<Block, Block>,
  ) {
    const walk = (list: Block[], depth: number) => {
      for (const block of list) {
        const at = this.index.get(block.lineStart);
        if (at) at.push({ block, depth });
        else this.index.set(block.lineStart, [{ block, depth }]);
        if (block.children) walk(block.children, depth + 1);
      }
    };
    walk(blocks, 0);
  }

  /** The previous version's block for this one (moved to its offsets), or undefined. */
  find(lineStart: number, start: number, end: number, kind: Block['kind'], depth: number, textLength: number): Block | undefined {
    const { prefix, suffix, delta } = this.edit;
    if (end <= prefix) return this.lookup(lineStart, start, end, kind, depth);
    if (lineStart < textLength - suffix) return undefined;
    const old = this.lookup(lineStart - delta, start - delta, end - delta, kind, depth);
    return old && (delta === 0 ? old : this.move(old, delta));
  }

  private lookup(lineStart: number, start: number, end: number, kind: Block['kind'], depth: number): Block | undefined {
    for (const c of this.index.get(lineStart) ?? []) {
      if (c.depth === depth && c.block.start === start && c.block.end === end && c.block.kind === kind) return c.block;
    }
    return undefined;
  }

  private move(old: Block, delta: number): Block {
    const block: Block = {
      kind: old.kind,
      lineStart: old.lineStart + delta,
      start: old.start + delta,
      end: old.end + delta,
      children: old.children && old.children.map((c) => this.move(c, delta)),
    };
    this.moved.set(block, old);
    return block;
  }
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
  const { text, starts, indent, next } = lines;
  const firstIsDash = (l: number) => isDash(text, starts[l] + colOf(l));
  // The kind of the children is decided by the first significant line, whose indentation must be the
  // least of the region: the loop below gives up on a line indented less (one pass over the lines).
  let first = from;
  while (first < to && colOf(first) < 0) first++;
  if (first >= to) return null;
  const k = colOf(first);
  const kind: 'entry' | 'item' = firstIsDash(first) ? 'item' : 'entry';
  if (kind === 'item' && mode === 'map-only') return null;
  const blocks: Block[] = [];
  let current: { line: number } | null = null;
  const close = (endLine: number) => {
    if (!current) return;
    const l = current.line;
    const lineStart = starts[l];
    const start = starts[l] + colOf(l);
    const end = endLine < lines.starts.length ? starts[endLine] : text.length;
    // A block of unchanged text the previous split had at this place: its sub-blocks are the same.
    const reused = lines.reuse?.find(lineStart, start, end, kind, depth, text.length);
    if (reused) {
      blocks.push(reused);
      return;
    }
    blocks.push({ kind, lineStart, start, end, children: null });
    blocks[blocks.length - 1].children = maybeSplit(lines, l, endLine, colOf(l), kind, depth + 1);
  };
  // Every line indented k or less is read, in order; deeper lines are stepped over (`next`), since
  // they belong to the block above them.
  for (let l = first; l < to; l = sibling(l)) {
    const c = l === from && firstCol >= 0 ? firstCol : indent[l];
    if (c !== k) {
      if (c >= 0 && c < k) return null;
      continue;
    }
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

  /** The line after `l` that the loop must read: the next one indented k or less, or a blank one. */
  function sibling(l: number): number {
    // The first line's column is virtual (after an item's dash): its own table entry would skip its siblings.
    if (l === from && firstCol >= 0) return l + 1;
    const own = indent[l];
    if (own < 0) return l + 1;
    return next[l];
  }
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

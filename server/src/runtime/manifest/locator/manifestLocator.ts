// The one answer to "where is this path written, and what is at this offset" for one version of a
// manifest's text: path ↔ span, the `yaml` node at a path, the indentation-only fast answers, the
// column-0 key index and the line helpers (line start and end, column, 1-based line:col). Owned by
// the parsed manifest (`ParsedManifest.locator`), so every derived index lives as long as that
// version and no caller keeps a scanner of its own. Offsets only; never throws.
import { isMap, isScalar, isSeq, type Document, type Node, type Scalar } from 'yaml';
import type { Span } from '../../types';
import { scalarOffsets } from './scalarOffsets';
import { cursorContextAt, type CursorContext } from './cursorContext';
import type { JsonPath } from '../origins';
import { findSourceNode, locateSourcePath } from './sourceNodes';
import { quickLocatorFor, type QuickLocation } from './quickLocate';
import { quickScalar } from './quickScalar';
import { lineColIn, lineEndIn, lineStartIn, lineStartsIn } from './lineText';

/** Where a source path is written: exact when it exists, else the deepest existing ancestor (`approximate`). */

/** Offsets of each scalar's characters relative to the base its ranges were read with (scalarOffsets). */
const RELATIVE_OFFSETS = new WeakMap<Scalar, number[] | null>();

export type SourceSpan = { span: Span; keySpan?: Span; approximate: boolean };

/** Where a path sits in the text: the key (absent for items and the root) and the value. */
export type Location = { keySpan: Span | null; valueSpan: Span };

/** The node under an offset, with its path from the root and whether the offset is on a key. */
export type NodeAtOffset = {
  path: (string | number)[];
  /** The `yaml` node under the offset (a scalar, map or sequence), or null in blank space. */
  node: Node | null;
  /** True when the offset is on a map key (then `node` is the key scalar). */
  onKey: boolean;
  /** Absolute span of `node` (or of the enclosing block in blank space). */
  span: Span;
};

/**
 * The structure behind a locator: the whole text's `yaml` Document (the CLI) or the language
 * server's incremental model, which answers per block and keeps each block's answers while the
 * block is unchanged.
 */
export interface LocatorTree {
  /** Spans of the key and value written at `path`, or null when the path is not written. */
  locate(path: JsonPath): Location | null;
  /** The node under `offset` and its path; null when the offset is outside every node. */
  nodeAt(offset: number): NodeAtOffset | null;
  /** `SourceSpan` of `path` (the value's span, the key's when the value is empty). */
  locateSource(path: JsonPath): SourceSpan;
  /** The `yaml` node written at `path` with the offset its ranges are relative to; null when not written. */
  findSourceNode(path: JsonPath): { node: Node; base: number } | null;
  /** The indentation-only answer (quickLocate.ts); null when the layout is not plain block style. */
  quickLocate(path: JsonPath): QuickLocation | null;
  /** The string scalar at `path` found by indentation (quickScalar.ts), with its range's base; else null. */
  quickScalar(path: JsonPath, value: string): { node: Scalar; base: number } | null;
  /** True when the text is known to hold no YAML alias (then one path is one node). */
  readonly aliasFree?: boolean;
}

/** One version's locator. Everything it indexes is built on first use and kept with it. */
export class ManifestLocator {
  private lineStarts: number[] | undefined;
  private topLevelKeys: Map<string, number> | undefined;
  /** The last cursor context asked for: hover and completion ask several times at one offset. */
  private lastContext: { offset: number; context: CursorContext | null } | undefined;

  constructor(
    readonly text: string,
    private readonly tree: LocatorTree,
  ) {}

  /** Spans of the key and value written at `path`, or null when the path is not written. */
  locate(path: JsonPath): Location | null {
    return this.tree.locate(path);
  }

  /** True when the text is known to hold no YAML alias, so a path names one node (template walk). */
  get aliasFree(): boolean {
    return this.tree.aliasFree === true;
  }

  /** The node under `offset` (UTF-16) with its path; null when the offset is outside every node. */
  nodeAt(offset: number): NodeAtOffset | null {
    return this.tree.nodeAt(offset);
  }

  /**
   * What the cursor at `offset` is on, read from the lines around it (cursorContext.ts), so it
   * answers while the YAML is half typed; null when no mapping can hold the cursor.
   */
  contextAt(offset: number): CursorContext | null {
    if (this.lastContext?.offset !== offset) this.lastContext = { offset, context: cursorContextAt(this.text, offset) };
    return this.lastContext.context;
  }

  /**
   * The document offset of each character of the string scalar `node`'s value (its ranges relative
   * to `base`), for every scalar style, so a position inside a template lands on what was typed;
   * null when `node` is not a located string scalar.
   */
  scalarOffsets(node: Scalar, base: number): number[] | null {
    // Kept per node relative to `base`: a node is the parse of one unchanged piece of text (the
    // language server hands the next version the same nodes for the blocks an edit did not touch),
    // so only the base moves.
    const relative = RELATIVE_OFFSETS.get(node);
    if (relative !== undefined) return relative && relative.map((o) => o + base);
    // First read: the caller gets the array just computed, not a second copy of it.
    const absolute = scalarOffsets(this.text, node, base);
    RELATIVE_OFFSETS.set(node, absolute && absolute.map((o) => o - base));
    return absolute;
  }

  /** Where `path` is written, or its deepest written ancestor (then `approximate`). */
  locateSource(path: JsonPath): SourceSpan {
    return this.tree.locateSource(path);
  }

  /** The `yaml` node written at `path`; `base` is the document offset its ranges are relative to. */
  findSourceNode(path: JsonPath): { node: Node; base: number } | null {
    return this.tree.findSourceNode(path);
  }

  /** The key (and one-line value) at `path` read by indentation alone, or null when the layout is not plain block style. */
  quickLocate(path: JsonPath): QuickLocation | null {
    return this.tree.quickLocate(path);
  }

  /** The string scalar written at `path` when it decodes to `value`, found by indentation; else null. */
  quickScalar(path: JsonPath, value: string): { node: Scalar; base: number } | null {
    return this.tree.quickScalar(path, value);
  }

  /**
   * Offset of the last line starting with the plain key `key` at column 0 (`key`, spaces or tabs,
   * then `:`), or undefined. Indexed once per version: a file with 100,000 unknown top-level keys
   * must not scan the text once per key.
   */
  topLevelKey(key: string): number | undefined {
    this.topLevelKeys ??= indexTopLevelKeys(this.text);
    return this.topLevelKeys.get(key);
  }

  /** Offset where the line holding `offset` starts. */
  lineStart(offset: number): number {
    return lineStartIn(this.text, offset);
  }

  /** Offset where the line holding `offset` ends, before its line break (`\r\n` or `\n`). */
  lineEnd(offset: number): number {
    return lineEndIn(this.text, offset);
  }

  /** The 0-based index of the line holding `offset`. */
  lineIndex(offset: number): number {
    return this.lineCol(offset).line - 1;
  }

  /** Offsets where the lines start (after each `\n`), indexed once per version. */
  get lineStartOffsets(): readonly number[] {
    this.lineStarts ??= lineStartsIn(this.text);
    return this.lineStarts;
  }

  /** The number of lines (a text ending in a line break has an empty last line). */
  get lineCount(): number {
    this.lineStarts ??= lineStartsIn(this.text);
    return this.lineStarts.length;
  }

  /**
   * Line `index` (0-based): where it starts and ends (before its line break). Callers slice their
   * own copy of the text: the language server's analysed text blanks overlong lines (longLines.ts),
   * which an edit must never copy.
   */
  line(index: number): Span {
    this.lineStarts ??= lineStartsIn(this.text);
    const start = this.lineStarts[index];
    return { start, end: this.lineEnd(start) };
  }

  /** Column (0-based, UTF-16) of `offset` in its line. */
  column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  /** The text's line break: `\r\n` when it uses one anywhere, else `\n`. */
  get eol(): string {
    return this.text.includes('\r\n') ? '\r\n' : '\n';
  }

  /** 1-based line and column of `offset`, as a terminal `file:line:col` shows them (the CLI). */
  lineCol(offset: number): { line: number; col: number } {
    this.lineStarts ??= lineStartsIn(this.text);
    return lineColIn(this.lineStarts, offset);
  }
}

/**
 * The tree of a whole-text parse (the CLI, and the language server's fallback): the `yaml` Document
 * is read only when a lookup needs it (`getDoc` may build it lazily), the indentation index of the
 * whole text on its first fast lookup.
 */
export function documentTree(text: string, getDoc: () => Document): LocatorTree {
  const quick = quickLocatorFor(text);
  return {
    locate(path) {
      const { node, pair, matched } = findSourceNode(getDoc(), path);
      if (matched < path.length) return null;
      const k = pair && path.length && typeof path[path.length - 1] === 'string' ? (pair.key as Node | null)?.range : undefined;
      const keySpan = k ? { start: k[0], end: k[1] } : null;
      const valueSpan = node?.range
        ? { start: node.range[0], end: node.range[1] }
        : keySpan
          ? { start: keySpan.end, end: keySpan.end }
          : null;
      return valueSpan ? { keySpan, valueSpan } : null;
    },
    nodeAt: (offset) => nodeUnder((getDoc().contents as Node | null) ?? null, offset, 0, []),
    locateSource: (path) => locateSourcePath(getDoc(), path),
    findSourceNode(path) {
      const { node, matched } = findSourceNode(getDoc(), path);
      return node && matched === path.length ? { node, base: 0 } : null;
    },
    quickLocate: quick,
    quickScalar(path, value) {
      const node = quickScalar(text, path, value, quick);
      return node ? { node, base: 0 } : null;
    },
  };
}

/**
 * Walks down from `start` to the deepest node containing `local` (an offset relative to `base`, the
 * offset the nodes' ranges are relative to); `path` is the path of `start`.
 */
export function nodeUnder(start: Node | null, local: number, base: number, path: readonly (string | number)[]): NodeAtOffset {
  let node = start;
  const out = [...path];
  const shift = (range: readonly number[]): Span => ({ start: range[0] + base, end: range[1] + base });
  for (;;) {
    if (!node?.range) return { path: out, node: null, onKey: false, span: { start: base + local, end: base + local } };
    if (isMap(node)) {
      let next: Node | null = null;
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (key?.range && local >= key.range[0] && local <= key.range[1]) {
          return { path: [...out, scalarKey(key)], node: key, onKey: true, span: shift(key.range) };
        }
        const value = pair.value as Node | null;
        if (value?.range && local >= value.range[0] && local <= value.range[1]) {
          out.push(scalarKey(key));
          next = value;
          break;
        }
      }
      if (!next) return { path: out, node, onKey: false, span: shift(node.range) };
      node = next;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const r = (item as Node | null)?.range;
        return r && local >= r[0] && local <= r[1];
      });
      if (index < 0) return { path: out, node, onKey: false, span: shift(node.range) };
      out.push(index);
      node = node.items[index] as Node;
    } else {
      return { path: out, node, onKey: false, span: shift(node.range) };
    }
  }
}

function scalarKey(key: Node | null): string {
  return isScalar(key) ? String(key.value) : '';
}

function indexTopLevelKeys(text: string): Map<string, number> {
  // The later duplicate wins, as in the loaded value.
  const keys = new Map<string, number>();
  for (let at = 0; at < text.length; ) {
    const eol = text.indexOf('\n', at);
    const end = eol < 0 ? text.length : eol;
    const colon = text.indexOf(':', at);
    if (colon >= 0 && colon < end) {
      let k = colon;
      while (k > at && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--;
      if (k > at) keys.set(text.slice(at, k), at);
    }
    at = end + 1;
  }
  return keys;
}

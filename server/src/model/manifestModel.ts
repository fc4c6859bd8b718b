// The incremental manifest model: the text split into blocks (blockSplitter.ts), each block parsed
// on its own (leafParser.ts) and reused by the next version when its text is unchanged, the plain
// value assembled from the blocks, and source positions computed lazily per block. Offsets only.
import { CORE_SCHEMA, load } from 'js-yaml';
import { isMap, isPair, isScalar, isSeq, type Node, type Pair, type Scalar } from 'yaml';
import {
  nodeUnder,
  quickLocateSwitch,
  quickLocatorFor,
  quickScalar,
  type Location,
  type LocatorTree,
  type NodeAtOffset,
  type QuickLocation,
  type Problem,
  type Span,
} from '../runtime';
import { splitText, type Block, type Split } from './blockSplitter';
import { LeafParse, type LeafKind } from './leafParser';

/** One step of a path into the manifest's value: a map key or a sequence index. */
export type Segment = string | number;

type ModelNode = {
  block: Block;
  /** The key of an entry (for items: undefined). */
  key: string | undefined;
  value: unknown;
  leaf: LeafParse | null;
  children: ModelNode[] | null;
};

export type { Location } from '../runtime';

export type { NodeAtOffset } from '../runtime';

/**
 * A parsed manifest version. Immutable; leaf values are shared with other versions: never mutate
 * `value`. It is the tree behind the version's one locator (ManifestDocument.locator), answering per block.
 */
export class ManifestModel implements LocatorTree {
  /** The indentation index of the whole text, for paths no block holds (made on first use). */
  private wholeText: ((path: readonly Segment[]) => QuickLocation | null) | undefined;

  private constructor(
    readonly text: string,
    readonly value: unknown,
    readonly problems: Problem[],
    private readonly nodes: ModelNode[] | null,
    private readonly rootLeaf: LeafParse | null,
    private readonly cache: Map<string, LeafParse>,
    /** The block split (kept for the next version's split to reuse); null when parsed whole. */
    private readonly split: Split | null = null,
  ) {}

  /** Builds the model of `text`, reusing the unchanged blocks of `previous`. Never throws. */
  static build(text: string, previous?: ManifestModel): ManifestModel {
    try {
      return ManifestModel.buildSplit(text, previous);
    } catch {
      // Pathological nesting can exhaust the stack while splitting: parse the text whole.
      const leaf = new LeafParse(text, 'root');
      return new ManifestModel(text, leaf.value, leaf.problems, null, leaf, new Map());
    }
  }

  private static buildSplit(text: string, previous?: ManifestModel): ManifestModel {
    const oldCache = previous?.cache ?? new Map<string, LeafParse>();
    const cache = new Map<string, LeafParse>();
    const split = splitText(text, previous?.split ?? undefined);
    if (split) {
      const problems: Problem[] = [];
      const reuse: NodeReuse | undefined = previous?.nodes ? { moved: split.moved, nodes: nodesByBlock(previous.nodes) } : undefined;
      const built = buildNodes(text, split.blocks, oldCache, cache, problems, reuse);
      // The links to the previous version's blocks are not kept (versions are not chained in memory).
      split.moved.clear();
      if (built && !(problems.some((p) => p.severity === 'error') && loadsWhole(text))) {
        return new ManifestModel(text, assemble(built, 'entry'), problems, built, null, cache, split);
      }
    }
    // Parsed whole, maybe because of anchors: the leaf searches for them itself.
    const leaf = getLeaf(text, 'root', oldCache, cache, false);
    return new ManifestModel(text, leaf.value, leaf.problems, null, leaf, cache);
  }

  /** True when the text was split into blocks (false: parsed as one whole). */
  get isIncremental(): boolean {
    return this.nodes !== null;
  }

  /** True when the text holds no YAML alias, so a path names one node: the split refuses any anchor. */
  get aliasFree(): boolean {
    return this.isIncremental;
  }

  /** The number of distinct parsed blocks (for diagnostics of the cache and tests). */
  get blockCount(): number {
    return this.cache.size;
  }

  /** The node under `offset` (UTF-16). Null when the offset is outside every block. */
  nodeAt(offset: number): NodeAtOffset | null {
    const found = this.leafAt(offset);
    if (!found) return null;
    const { leaf, base, path } = found;
    const local = offset - base;
    const contents = leaf.doc.contents as Node | null;
    let start: Node | null = contents;
    if (leaf.kind !== 'root') {
      // The block's own key or index is already in `path`: step past it.
      if (!contents || !(isMap(contents) || isSeq(contents)) || contents.items.length === 0) {
        return { path, node: null, onKey: false, span: { start: base, end: base + leaf.localText.length } };
      }
      const first = contents.items[0] as Pair | Node;
      if (isPair(first)) {
        const key = first.key as Node | null;
        if (key?.range && local >= key.range[0] && local <= key.range[1]) {
          return { path, node: key, onKey: true, span: shift(key.range, base) };
        }
        start = (first.value as Node | null) ?? null;
      } else {
        start = first;
      }
    }
    return nodeUnder(start, local, base, path);
  }

  /** Spans of the key and value at `path`, or null when the path does not exist in the text. */
  locate(path: readonly Segment[]): Location | null {
    if (!this.nodes) return locateInLeaf(this.rootLeaf!, 0, null, path);
    let nodes: ModelNode[] = this.nodes;
    for (let i = 0; i < path.length; i++) {
      const node = findChild(nodes, path[i]);
      if (!node) return null;
      // A whole block is located from the split alone; only paths inside a block need its Document.
      if (node.leaf && i === path.length - 1) return blockLocation(this.text, node.block);
      if (node.leaf) return locateInLeaf(node.leaf, node.block.lineStart, node.block.kind, path.slice(i + 1));
      if (i === path.length - 1 || !node.children) return blockLocation(this.text, node.block);
      nodes = node.children;
    }
    return { keySpan: null, valueSpan: { start: 0, end: this.text.length } };
  }

  /**
   * The `yaml` node written at `path` inside its block's own Document, with the offset its ranges
   * are relative to; null when the path is not written or is a whole block split by indentation.
   * Lets template rules read a scalar's source without a whole-document parse.
   */
  findSourceNode(path: readonly Segment[]): { node: Node; base: number } | null {
    if (!this.nodes) {
      const node = nodeInLeaf(this.rootLeaf!, null, path);
      return node ? { node, base: 0 } : null;
    }
    let nodes: ModelNode[] = this.nodes;
    for (let i = 0; i < path.length; i++) {
      const node = findChild(nodes, path[i]);
      if (!node) return null;
      if (node.leaf) {
        const found = nodeInLeaf(node.leaf, node.block.kind, path.slice(i + 1));
        return found ? { node: found, base: node.block.lineStart } : null;
      }
      if (!node.children) return null;
      nodes = node.children;
    }
    return null;
  }

  /**
   * Where `path` is written, with the runtime's SourceLocator semantics: the value's span (the key's
   * when the value is empty), its key's span, and `approximate` when only an ancestor exists.
   */
  locateSource(path: readonly Segment[]): { span: Span; keySpan?: Span; approximate: boolean } {
    // A one-line scalar on its key's line (a `$ref`, most reference sites) is found by indentation,
    // cached with its block, as validation's quick path finds values: no `yaml` Document of the block
    // for each "Brought in by this reference" span. bench/lspModelConsistency.ts proves the spans equal.
    if (path.length && quickLocateSwitch.enabled) {
      const q = this.quickLocate(path);
      if (q?.valueSpan && q.valueSpan.end > q.valueSpan.start) return { span: q.valueSpan, keySpan: q.keySpan, approximate: false };
    }
    for (let n = path.length; n >= 0; n--) {
      const found = this.locate(path.slice(0, n));
      if (!found) continue;
      const keySpan = found.keySpan ?? undefined;
      const span = found.valueSpan.end <= found.valueSpan.start && keySpan ? keySpan : found.valueSpan;
      return { span, ...(keySpan ? { keySpan } : {}), approximate: n < path.length };
    }
    return { span: { start: 0, end: 0 }, approximate: true };
  }

  /** quickLocate.ts answered by the block that holds `path` (cached while that block is unchanged). */
  quickLocate(path: readonly Segment[]): QuickLocation | null {
    const found = this.leafFor(path);
    if (!found) return (this.wholeText ??= quickLocatorFor(this.text))(path);
    const q = found.leaf.quickLocate(found.local);
    return q && shiftLocation(q, found.base);
  }

  /** quickScalar.ts answered by the block that holds `path`; `base` is the offset the range is relative to. */
  quickScalar(path: readonly Segment[], value: string): { node: Scalar; base: number } | null {
    const found = this.leafFor(path);
    if (!found) {
      const node = quickScalar(this.text, path, value, (this.wholeText ??= quickLocatorFor(this.text)));
      return node ? { node, base: 0 } : null;
    }
    const node = found.leaf.quickScalar(found.local, value);
    return node ? { node, base: found.base } : null;
  }

  /** The leaf block holding `path`, its offset, and the path inside its own text (its key or item index first). */
  private leafFor(path: readonly Segment[]): { leaf: LeafParse; base: number; local: Segment[] } | null {
    if (!this.nodes) return null;
    let nodes: ModelNode[] = this.nodes;
    for (let i = 0; i < path.length; i++) {
      const node = findChild(nodes, path[i]);
      if (!node) return null;
      if (node.leaf)
        return {
          leaf: node.leaf,
          base: node.block.lineStart,
          local: [node.block.kind === 'item' ? 0 : (node.key ?? ''), ...path.slice(i + 1)],
        };
      if (!node.children) return null;
      nodes = node.children;
    }
    return null;
  }

  private leafAt(offset: number): { leaf: LeafParse; base: number; path: Segment[] } | null {
    if (!this.nodes) return { leaf: this.rootLeaf!, base: 0, path: [] };
    let nodes = this.nodes;
    const path: Segment[] = [];
    for (;;) {
      const index = nodes.findIndex((n) => offset >= n.block.start && offset < n.block.end);
      const node = index >= 0 ? nodes[index] : null;
      if (!node) return null;
      path.push(node.block.kind === 'entry' ? (node.key ?? '') : index);
      if (node.leaf) return { leaf: node.leaf, base: node.block.lineStart, path };
      nodes = node.children!;
    }
  }
}

/**
 * The previous version's nodes by block, and the blocks the split took over from it moved by the
 * edit's length: a block the split took over has the same text as the previous node's, so it has
 * the same key, value and parse (the node is reused, only its offsets move).
 */
type NodeReuse = { moved: Map<Block, Block>; nodes: Map<Block, ModelNode> };

function nodesByBlock(nodes: ModelNode[]): Map<Block, ModelNode> {
  const out = new Map<Block, ModelNode>();
  const walk = (list: ModelNode[]) => {
    for (const n of list) {
      out.set(n.block, n);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

function buildNodes(
  text: string,
  blocks: Block[],
  oldCache: Map<string, LeafParse>,
  cache: Map<string, LeafParse>,
  problems: Problem[],
  reuse?: NodeReuse,
): ModelNode[] | null {
  const nodes: ModelNode[] = [];
  const seen = new Map<string, Block>();
  for (const block of blocks) {
    let node: ModelNode;
    const previous = reuse?.nodes.get(reuse.moved.get(block) ?? block);
    if (block.children) {
      const children = buildNodes(text, block.children, oldCache, cache, problems, reuse);
      if (!children) return null;
      // An unchanged block keeps its key and its value (the same object: resolution's memo knows it).
      const key = block.kind === 'entry' ? (previous ? previous.key : headerKey(text, block)) : undefined;
      if (block.kind === 'entry' && key === undefined) return null;
      node = { block, key, value: previous ? previous.value : assemble(children, block.children[0].kind), leaf: null, children };
    } else {
      let leaf: LeafParse;
      if (previous?.leaf) {
        leaf = previous.leaf;
        cache.set(leaf.localText, leaf);
      } else leaf = getLeaf(localTextOf(text, block), block.kind, oldCache, cache, true);
      if (!leaf.shapeOk) return null;
      for (const p of leaf.problems)
        problems.push({
          ...p,
          span: shift([p.span.start, p.span.end], block.lineStart),
          ...(p.related ? { related: p.related.map((r) => ({ ...r, span: shift([r.span.start, r.span.end], block.lineStart) })) } : {}),
        });
      node = { block, key: leaf.key, value: leaf.value, leaf, children: null };
    }
    if (block.kind === 'entry' && node.key !== undefined) {
      if (seen.has(node.key)) {
        const colon = text.indexOf(':', block.start);
        problems.push({
          code: 'duplicate-key',
          severity: 'warning',
          message: `Duplicate key \`${node.key}\`: the later value wins.`,
          span: { start: block.start, end: colon > block.start ? colon : block.start + 1 },
        });
      }
      seen.set(node.key, block);
    }
    nodes.push(node);
  }
  return nodes;
}

function assemble(nodes: ModelNode[], kind: 'entry' | 'item'): unknown {
  if (kind === 'item') return nodes.map((n) => n.value ?? null);
  const out: Record<string, unknown> = {};
  for (const n of nodes) if (n.key !== undefined) out[n.key] = n.value;
  return out;
}

/** The block's text as a standalone document: what precedes it on its first line becomes spaces. */
function localTextOf(text: string, block: Block): string {
  return ' '.repeat(block.start - block.lineStart) + text.slice(block.start, block.end);
}

/**
 * The parse of one block (or of the whole text), from the caches when its text is unchanged.
 * `anchorFree`: the text is a block of a split, which refused any text with an anchor (blockSplitter.ts).
 */
function getLeaf(
  localText: string,
  kind: LeafKind,
  oldCache: Map<string, LeafParse>,
  cache: Map<string, LeafParse>,
  anchorFree: boolean,
): LeafParse {
  // Keyed by text alone (no concatenation, so no copy of big blocks); the kind is checked on a hit.
  let leaf = cache.get(localText) ?? oldCache.get(localText);
  if (!leaf || leaf.kind !== kind) leaf = new LeafParse(localText, kind, anchorFree);
  cache.set(localText, leaf);
  return leaf;
}

/** The key of a split entry, read from its header line (`key:` with an optional comment). */
function headerKey(text: string, block: Block): string | undefined {
  const eol = text.indexOf('\n', block.start);
  try {
    const loaded = load(text.slice(block.start, eol < 0 ? text.length : eol), { schema: CORE_SCHEMA });
    if (loaded && typeof loaded === 'object' && !Array.isArray(loaded)) {
      const keys = Object.keys(loaded);
      if (keys.length === 1) return keys[0];
    }
  } catch {
    // An unreadable header disables the split; the caller parses the text whole.
  }
  return undefined;
}

/** Whether the whole text loads without error: then an error in a block means the split was wrong. */
function loadsWhole(text: string): boolean {
  try {
    load(text, { schema: CORE_SCHEMA });
    return true;
  } catch {
    return false;
  }
}

function findChild(nodes: ModelNode[], segment: Segment): ModelNode | undefined {
  if (nodes.length === 0) return undefined;
  if (nodes[0].block.kind === 'item') return typeof segment === 'number' ? nodes[segment] : undefined;
  let found: ModelNode | undefined;
  for (const n of nodes) if (n.key === String(segment)) found = n;
  return found;
}

function blockLocation(text: string, block: Block): Location {
  const end = trimEnd(text, block.end);
  if (block.kind === 'item') {
    const start = skipBlank(text, block.start + 1, end);
    return { keySpan: null, valueSpan: { start, end: withBreak(text, start, end) } };
  }
  const colon = keyColonOf(text, block.start);
  const start = skipBlank(text, colon + 1, end);
  return {
    keySpan: { start: block.start, end: trimEnd(text, colon) },
    valueSpan: { start, end: Math.max(withBreak(text, start, end), colon + 1) },
  };
}

/** Like the `yaml` ranges: a multi-line (block) value ends after its last line break, a one-line value at its last character. */
function withBreak(text: string, start: number, end: number): number {
  if (text.lastIndexOf('\n', end - 1) < start) return end;
  if (text[end] === '\r' && text[end + 1] === '\n') return end + 2;
  return text[end] === '\n' ? end + 1 : end;
}

/** The `:` that ends the key starting at `start` (quoted keys may contain colons). */
function keyColonOf(text: string, start: number): number {
  const q = text[start];
  const from = q === '"' || q === "'" ? Math.max(start + 1, text.indexOf(q, start + 1)) : start;
  const colon = text.indexOf(':', from);
  return colon < 0 ? start : colon;
}

/** Skips spaces and line breaks (the value of a block entry starts on a later line). */
function skipBlank(text: string, from: number, limit: number): number {
  let p = from;
  while (p < limit && /\s/.test(text[p])) p++;
  return p;
}

function trimEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && /\s/.test(text[e - 1])) e--;
  return e;
}

/** The node at `rest` below a leaf block's own entry or item (as locateInLeaf walks), or null. */
function nodeInLeaf(leaf: LeafParse, kind: 'entry' | 'item' | null, rest: readonly Segment[]): Node | null {
  let node = leaf.doc.contents as Node | null;
  if (kind !== null) {
    if (!node || !(isMap(node) || isSeq(node)) || node.items.length === 0) return null;
    const first = node.items[0] as Pair | Node;
    node = isPair(first) ? (first.value as Node | null) : first;
  }
  for (const segment of rest) {
    if (isMap(node)) {
      const pair = [...node.items].reverse().find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return null;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = (node.items[segment] as Node | undefined) ?? null;
    } else return null;
    if (!node) return null;
  }
  return node;
}

function locateInLeaf(leaf: LeafParse, base: number, kind: 'entry' | 'item' | null, rest: readonly Segment[]): Location | null {
  let node = leaf.doc.contents as Node | null;
  let keyNode: Node | null = null;
  if (kind !== null) {
    if (!node || !(isMap(node) || isSeq(node)) || node.items.length === 0) return null;
    const first = node.items[0] as Pair | Node;
    if (isPair(first)) {
      keyNode = first.key as Node | null;
      node = first.value as Node | null;
    } else node = first;
  }
  for (const segment of rest) {
    keyNode = null;
    if (isMap(node)) {
      const pair = [...node.items].reverse().find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return null;
      keyNode = pair.key as Node;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = (node.items[segment] as Node | undefined) ?? null;
      if (!node) return null;
    } else return null;
  }
  const keySpan = keyNode?.range ? shift(keyNode.range, base) : null;
  const valueSpan = node?.range ? shift(node.range, base) : keySpan ? { start: keySpan.end, end: keySpan.end } : null;
  return valueSpan ? { keySpan, valueSpan } : null;
}

function shiftLocation(q: QuickLocation, base: number): QuickLocation {
  const move = (s: Span): Span => ({ start: s.start + base, end: s.end + base });
  return {
    keySpan: move(q.keySpan),
    valueSpan: q.valueSpan && move(q.valueSpan),
    valueStyle: q.valueStyle,
    valueStart: q.valueStart + base,
    column: q.column,
  };
}

function shift(range: readonly number[], base: number): Span {
  return { start: range[0] + base, end: range[1] + base };
}

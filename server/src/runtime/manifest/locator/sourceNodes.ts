// Where a source path is written in a whole-text `yaml` Document: the locator's exact answers in the
// CLI (manifestLocator.ts, documentTree) and the resolver's origin spans. Part of the locator module;
// nothing else walks a Document by path. Never throws.
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { Span } from '../../types';
import type { JsonPath, LocatedOrigin, NodeOrigin } from '../origins';

/** Finds the deepest AST node along `path`: the node, its pair (for mapping entries) and how many segments matched. */
export function findSourceNode(doc: Document, path: JsonPath): { node: Node | null; pair: Pair | null; matched: number } {
  let node = doc.contents as Node | null;
  let pair: Pair | null = null;
  let matched = 0;
  for (const seg of path) {
    if (node && isAlias(node)) node = (node.resolve(doc) as Node | undefined) ?? null;
    if (!node) break;
    if (isMap(node)) {
      // Later duplicates win, as in the loaded value.
      let found: Pair | null = null;
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const k = isScalar(item.key) ? item.key.value : item.key;
        if (String(k) === String(seg)) found = item as Pair;
      }
      if (!found) break;
      pair = found;
      node = (found.value as Node | null) ?? null;
    } else if (isSeq(node)) {
      const idx = typeof seg === 'number' ? seg : /^\d+$/.test(seg) ? Number(seg) : -1;
      const item = idx >= 0 ? node.items[idx] : undefined;
      if (item === undefined) break;
      pair = null;
      node = (item as Node | null) ?? null;
    } else {
      break;
    }
    matched++;
  }
  return { node, pair, matched };
}

function spanOfNode(node: Node | null | undefined): Span | undefined {
  const r = node?.range;
  return r ? { start: r[0], end: r[1] } : undefined;
}

/** The span of the key of `pair`, if it has a located key. */
function spanOfKey(pair: Pair | null): Span | undefined {
  return pair ? spanOfNode(pair.key as Node | null) : undefined;
}

/** Locates a source path in the document: exact when it exists, else the deepest existing ancestor. */
export function locateSourcePath(doc: Document, path: JsonPath): { span: Span; keySpan?: Span; approximate: boolean } {
  const { node, pair, matched } = findSourceNode(doc, path);
  const keySpan = spanOfKey(pair);
  // A null value (`key:` with nothing after it) has no useful range: fall back to the key.
  let span = spanOfNode(node) ?? keySpan ?? { start: 0, end: 0 };
  if (span.end <= span.start && keySpan) span = keySpan;
  return { span, keySpan, approximate: matched < path.length };
}

/**
 * Finds where a source path is written: exact when it exists, else the deepest existing ancestor
 * (`locateSourcePath` semantics). Lets callers that keep no `yaml` Document (the language server's
 * incremental model) locate problems.
 */
export type SourceLocator = (path: JsonPath) => { span: Span; keySpan?: Span; approximate: boolean };

/** Locates a resolved origin (value span, key span, reference spans) in the document. */
export function locateOrigin(where: Document | SourceLocator, origin: NodeOrigin): LocatedOrigin {
  const locate: SourceLocator = typeof where === 'function' ? where : (p) => locateSourcePath(where, p);
  const here = locate(origin.path);
  return {
    span: here.span,
    keySpan: here.keySpan,
    approximate: here.approximate,
    via: origin.via.map((p) => locate(p).span),
    sourcePath: origin.path,
  };
}

// What one resolution leaves to the next version's (the language server resolves every version of
// an open manifest): what every reference-free subtree of the value resolves to (the subtree itself,
// shared), keyed by the subtree's own object. The language server's model hands the next version the
// very same objects for the blocks an edit did not touch (model/manifestModel.ts), so an edit
// re-resolves only what it changed; a 55,000-line `schemas:` block referenced by a stream is walked
// once per session, not once per keystroke.
//
// Why the answer is exactly the one a fresh resolution gives:
// - a subtree with no `#/` string and no `$ref` key resolves to a value equal to itself (the content
//   of `config_overrides` kept as is), whatever its path, its reference chain or the rest of the
//   manifest: nothing outside it is read;
// - the resolver records no origin inside such a subtree (containers under a parent derive their
//   origin from the parent's), so one subtree may stand at several places and in several versions;
//   where the resolver must record an origin on its root (the target of a reference) it records it
//   on a fresh shallow copy instead (`ReferenceResolver.follow`);
// - the counters the resolver's bounds read (values produced, nesting depth) advance by what a
//   copy would have counted, so `resolution-too-large` and `nesting-too-deep` fire at the same place;
// - nothing mutates a resolved value (the propagator builds new containers).
// Inputs are never mutated either, so a fact learned about an object stays true for its lifetime
// (the cache is a WeakMap: an object the model no longer holds takes its entry with it).
import { isPlainObject } from '../shared/plainObject';

/** What resolution needs to know of a container written by the author. */
type Facts = {
  /** No reference string and no `$ref` key anywhere below (outside `config_overrides`). */
  refFree: boolean;
  /** How many values the resolver would count when copying it (itself included). */
  count: number;
  /** Depth of its deepest value below it (0 for an empty container). */
  height: number;
};

const NOT_FREE: Facts = { refFree: false, count: 0, height: Number.POSITIVE_INFINITY };

/** Reference-free subtrees with fewer values than this are walked again rather than kept. */
const KEEP_FROM_COUNT = 64;

/** Beyond this depth a subtree is never reused (the resolver's own bound is lower). */
const FACTS_DEPTH = 520;

export class ResolutionMemo {
  private readonly facts = new WeakMap<object, Facts>();
  /** Every container handed out as its own resolution: no origin may be recorded on it. */
  private readonly copies = new WeakSet<object>();

  /**
   * What container `node` reached at nesting depth `depth` resolves to, with the number of
   * values it counts; undefined when `node` holds a reference or is too deep (the resolver walks it).
   */
  reuse(node: object, depth: number, maxDepth: number): { copy: unknown; count: number } | undefined {
    const facts = this.factsOf(node, 0);
    if (!facts.refFree || depth + facts.height > maxDepth) return undefined;
    // The container itself: its resolved copy would be equal to it, and neither the inputs nor the
    // resolved values are ever mutated, so a copy would only cost time and memory (on a 56,000-line
    // manifest, 30 ms and a second copy of its schemas at every open).
    this.copies.add(node);
    return { copy: node, count: facts.count };
  }

  /** True for a container handed out here: shared, so the resolver records origins on a shallow copy of it. */
  isShared(value: object): boolean {
    return this.copies.has(value);
  }

  private factsOf(node: object, level: number): Facts {
    const known = this.facts.get(node);
    if (known) return known;
    if (level > FACTS_DEPTH) return NOT_FREE;
    let refFree = Array.isArray(node) || !Object.hasOwn(node, '$ref');
    let count = 1;
    let height = 0;
    const array = Array.isArray(node);
    const record = node as Record<string, unknown>;
    const keys = array ? null : Object.keys(node);
    const n = array ? (node as unknown[]).length : keys!.length;
    for (let i = 0; i < n && refFree; i++) {
      const key = array ? i : keys![i];
      const child = array ? (node as unknown[])[i] : record[key as string];
      // Spec §1.1: `config_overrides` is kept verbatim and not counted.
      if (key === 'config_overrides') continue;
      if (Array.isArray(child) || isPlainObject(child)) {
        const f = this.factsOf(child, level + 1);
        if (!f.refFree) refFree = false;
        count += f.count;
        height = Math.max(height, 1 + f.height);
      } else {
        if (typeof child === 'string' && child.startsWith('#/')) refFree = false;
        count++;
        height = Math.max(height, 1);
      }
    }
    const facts: Facts = refFree ? { refFree, count, height } : NOT_FREE;
    // A walk cut short by FACTS_DEPTH answers "not free": never wrong, only a subtree not reused.
    // Small reference-free subtrees are not kept: walking one again costs less than keying every
    // container of a 55,000-line schema (20 ms of its open), and an edit still finds the large ones.
    if (!refFree || count >= KEEP_FROM_COUNT) this.facts.set(node, facts);
    return facts;
  }
}

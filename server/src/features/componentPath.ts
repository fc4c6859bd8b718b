// Which component a path of the manifest lands in: walks the path from the root through the
// catalog's slots, following references and inserting default types (Spec §1.2) the way the CDK
// would. Pieces under `definitions` get their type from the places that reference them.
import type { Segment } from '../model/manifestModel';
import type { FieldInfo, FormatIndex } from './formatIndex';
import { findReferenceTarget, followReference, referencePath } from './references';

/** The slot a mapping sits in: the component type above it and the field name. */
export type Slot = { parentType: string; field: string; info: FieldInfo | undefined };

/** The component at a path: its type (explicit or default), its slot, and its value (references followed). */
export type ComponentAtPath = { type: string | undefined; slot: Slot | null; value: unknown };

const MAX_REFERENCE_HOPS = 8;

/** Finds the component whose mapping is at `path`. Never throws; `type` is undefined when unknown. */
export function componentAt(index: FormatIndex, root: unknown, path: readonly Segment[], hops = 0): ComponentAtPath {
  let type: string | undefined = isMap(root) && typeof root.type === 'string' ? root.type : 'DeclarativeSource';
  let value: unknown = root;
  let slot: Slot | null = null;
  let i = 0;
  while (i < path.length) {
    const segment = path[i];
    const info: FieldInfo | undefined = typeof segment === 'string' ? index.field(type, segment) : undefined;
    if (info?.components?.length && type !== undefined) {
      const container = followReference(root, child(value, segment));
      let element = container;
      let step = 1;
      if ((info.list || info.mapOf) && (Array.isArray(container) || (info.mapOf && isMap(container)))) {
        if (i + 1 >= path.length) return { type: undefined, slot: null, value: container };
        element = followReference(root, child(container, path[i + 1]));
        step = 2;
      }
      slot = { parentType: type, field: String(segment), info };
      type =
        explicitType(element) ??
        index.defaultType(type, String(segment), isMap(element) && 'class_name' in element) ??
        (info.components.length === 1 ? info.components[0] : undefined);
      value = element;
      i += step;
      continue;
    }
    value = followReference(root, child(value, segment));
    slot = type !== undefined && typeof segment === 'string' ? { parentType: type, field: segment, info } : null;
    type = explicitType(value);
    i += 1;
    if (type === undefined && hops < MAX_REFERENCE_HOPS) {
      // A reusable piece gets the type of the slot that references it.
      const site = referenceSites(root).get(pathKey(path.slice(0, i)));
      if (site) {
        const used = componentAt(index, root, site, hops + 1);
        type = used.type;
        slot = used.slot;
      }
    }
  }
  return { type, slot, value };
}

function explicitType(v: unknown): string | undefined {
  return isMap(v) && typeof v.type === 'string' ? v.type : undefined;
}

function child(v: unknown, segment: Segment): unknown {
  if (Array.isArray(v)) return typeof segment === 'number' ? v[segment] : undefined;
  return isMap(v) ? v[String(segment)] : undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function pathKey(path: readonly Segment[]): string {
  return path.join('\u0000');
}

const sitesCache = new WeakMap<object, Map<string, Segment[]>>();

/** How deep the walk looks (the root's keys are at depth 1). */
const SITES_DEPTH = 64;

/** The references written in one subtree, in walk order, with their paths relative to it. */
type SubtreeRefs = { budget: number; refs: { ref: string; at: Segment[] }[] };

/**
 * References per subtree near the root (streams, their retrievers, definitions...), keyed by the
 * subtree's own object. The model hands every version the very same objects for the blocks an edit
 * did not touch, so the next version walks only what changed (quickbooks: the first completion after
 * an edit spent 9 ms here). Deeper subtrees are walked plainly: keying every container would cost
 * more than it saves. Which site counts as "first" depends on the walk order only, which the
 * concatenation below keeps.
 */
const subtreeRefs = new WeakMap<object, SubtreeRefs>();
const NO_REFS: SubtreeRefs['refs'] = [];
/** Subtrees this close to the root are kept (the root's keys are at level 0). */
const MEMO_LEVELS = 4;

/**
 * The references below `v` (itself included) within `budget` more levels, `level` levels below the
 * root's keys. A result found with a larger budget answers a smaller one by dropping its deeper
 * entries: the answer is exactly what a walk from the root would record.
 */
function refsBelow(v: unknown, budget: number, level: number): { ref: string; at: Segment[] }[] {
  if (budget < 0 || --visitsLeft < 0) return NO_REFS;
  if (typeof v === 'string') {
    const ref = referencePath(v);
    return ref === null ? NO_REFS : [{ ref, at: [] }];
  }
  if (v === null || typeof v !== 'object') return NO_REFS;
  if (level > MEMO_LEVELS) {
    const out: { ref: string; at: Segment[] }[] = [];
    walkPlain(v, budget, [], out);
    return out;
  }
  const known = subtreeRefs.get(v);
  if (known && known.budget >= budget) {
    return known.budget === budget ? known.refs : known.refs.filter((r) => r.at.length <= budget);
  }
  const refs: { ref: string; at: Segment[] }[] = [];
  const add = (segment: Segment, below: { ref: string; at: Segment[] }[]) => {
    for (const r of below) refs.push({ ref: r.ref, at: [segment, ...r.at] });
  };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) add(i, refsBelow(v[i], budget - 1, level + 1));
  } else if (isMap(v)) {
    // JSON schemas are large and hold no components: skip them.
    if (!(v.type === 'object' && 'properties' in v)) {
      const own = referencePath(v.$ref);
      if (own !== null) refs.push({ ref: own, at: [] });
      for (const [k, item] of Object.entries(v))
        if (k !== '$ref' && k !== 'config_overrides') add(k, refsBelow(item, budget - 1, level + 1));
    }
  }
  const kept = refs.length ? refs : NO_REFS;
  // A walk cut short by the visit bound is incomplete: never kept.
  if (visitsLeft >= 0) subtreeRefs.set(v, { budget, refs: kept });
  return kept;
}

/**
 * Values one computation of the reference sites may visit. YAML aliases make a value a graph whose
 * paths multiply at every level (an alias bomb: 9^n paths); past this bound the walk stops, and the
 * sites found so far are the answer (only the types offered under `definitions` can be missing).
 */
const MAX_VISITS = 1_000_000;
let visitsLeft = 0;

/** `refsBelow` without the memo: one walk with one path stack, each reference's path copied once. */
function walkPlain(v: unknown, budget: number, at: Segment[], out: { ref: string; at: Segment[] }[]): void {
  if (budget < 0 || --visitsLeft < 0) return;
  if (typeof v === 'string') {
    const ref = referencePath(v);
    if (ref !== null) out.push({ ref, at: [...at] });
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      at.push(i);
      walkPlain(v[i], budget - 1, at, out);
      at.pop();
    }
  } else if (isMap(v)) {
    if (v.type === 'object' && 'properties' in v) return;
    const own = referencePath(v.$ref);
    if (own !== null) out.push({ ref: own, at: [...at] });
    for (const k of Object.keys(v)) {
      if (k === '$ref' || k === 'config_overrides') continue;
      at.push(k);
      walkPlain(v[k], budget - 1, at, out);
      at.pop();
    }
  }
}

/**
 * Computes what `componentAt` will ask of `root` (its reference sites), so the first completion or
 * hover on a version does not: the language server calls it when the editor is idle after
 * publishing a version's diagnostics. Walks only the subtrees the version changed.
 */
export function primeComponentPaths(root: unknown): void {
  referenceSites(root);
}

/** For each referenced path (joined), the first place that references it. Cached per manifest value. */
export function referenceSites(root: unknown): Map<string, Segment[]> {
  if (!isMap(root)) return new Map();
  const cached = sitesCache.get(root);
  if (cached) return cached;
  const sites = new Map<string, Segment[]>();
  visitsLeft = MAX_VISITS;
  // References from definitions to definitions count too, but the streams' uses come first.
  const walked = new Set<string>();
  for (const key of ['streams', 'dynamic_streams', 'check', 'spec', ...Object.keys(root)]) {
    if (walked.has(key) || !(key in root)) continue;
    walked.add(key);
    for (const { ref, at } of refsBelow(root[key], SITES_DEPTH - 1, 0)) {
      const target = findReferenceTarget(root, ref);
      if (target && !sites.has(pathKey(target))) sites.set(pathKey(target), [key, ...at]);
    }
  }
  sitesCache.set(root, sites);
  return sites;
}

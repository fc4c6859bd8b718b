// Reference strings (`"#/a/b"`) and `$ref` mappings: reading their path and finding, in the
// unresolved manifest value, the place the target is written. Shared by definition, hover, streams
// and symbols. Pure; offsets and LSP types do not appear here.
import type { Segment } from '../model/manifestModel';

/** The path of a reference string (`#/definitions/x` → `definitions/x`), or null if `s` is not one. */
export function referencePath(s: unknown): string | null {
  return typeof s === 'string' && s.startsWith('#/') ? s.slice(2) : null;
}

const MAX_HOPS = 64;

/**
 * Where the target of reference path `path` is written: the segments from the root, or null when
 * it does not exist. Spec §1.1: at each level the whole remaining path is tried as one key first
 * (keys may contain `/`), then the first segment is split off (all digits = list index). A `$ref`
 * met on the way is followed when the next segment is not one of its local keys.
 */
export function findReferenceTarget(root: unknown, path: string, hops = 0): Segment[] | null {
  if (hops > MAX_HOPS) return null;
  let node: unknown = root;
  let at: Segment[] = [];
  let rest = path;
  while (rest !== '') {
    if (Array.isArray(node)) {
      const slash = rest.indexOf('/');
      const first = slash < 0 ? rest : rest.slice(0, slash);
      if (!/^\d+$/.test(first) || Number(first) >= node.length) return null;
      at = [...at, Number(first)];
      node = node[Number(first)];
      rest = slash < 0 ? '' : rest.slice(slash + 1);
      continue;
    }
    if (node === null || typeof node !== 'object') return null;
    const map = node as Record<string, unknown>;
    if (Object.hasOwn(map, rest)) return [...at, rest];
    const slash = rest.indexOf('/');
    const first = slash < 0 ? rest : rest.slice(0, slash);
    if (Object.hasOwn(map, first)) {
      at = [...at, first];
      node = map[first];
      rest = slash < 0 ? '' : rest.slice(slash + 1);
      continue;
    }
    // The key may come from a referenced mapping (`$ref`) or the node may be a reference string.
    const via = referencePath(map.$ref);
    if (via === null) return null;
    const target = findReferenceTarget(root, via, hops + 1);
    if (!target) return null;
    at = target;
    node = valueAt(root, target);
  }
  return at;
}

/** The value at `path` in `root`, or undefined. */
export function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let node = root;
  for (const s of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[s as string];
  }
  return node;
}

/**
 * The value of `node` with references followed at its top level only: a reference string becomes
 * its target; a `$ref` mapping becomes the target shallow-merged with the local keys (local keys
 * win, Spec §1.1). Nested values are left as written.
 */
export function followReference(root: unknown, node: unknown, hops = 0): unknown {
  if (hops > MAX_HOPS) return node;
  const viaString = referencePath(node);
  if (viaString !== null) {
    const target = findReferenceTarget(root, viaString);
    return target ? followReference(root, valueAt(root, target), hops + 1) : node;
  }
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const map = node as Record<string, unknown>;
  const via = referencePath(map.$ref);
  if (via === null) return node;
  const target = findReferenceTarget(root, via);
  if (!target) return node;
  const base = followReference(root, valueAt(root, target), hops + 1);
  // Spec §1.1: a non-mapping target replaces the node and its local keys are dropped.
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return base;
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(map)) if (k !== '$ref') merged[k] = v;
  return merged;
}

/**
 * A deep copy of `node` with every reference resolved (for values handed to the client, such as
 * the spec). Cycles and missing targets are left as the reference string; `config_overrides` is
 * copied verbatim (Spec §1.1).
 */
export function resolveDeep(root: unknown, node: unknown, depth = 0, stack: unknown[] = []): unknown {
  if (depth > 200) return node;
  const followed = followReference(root, node);
  if (stack.includes(followed)) return node;
  if (Array.isArray(followed)) return followed.map((v) => resolveDeep(root, v, depth + 1, [...stack, followed]));
  if (followed === null || typeof followed !== 'object') return followed;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(followed as Record<string, unknown>)) {
    out[k] = k === 'config_overrides' ? v : resolveDeep(root, v, depth + 1, [...stack, followed]);
  }
  return out;
}

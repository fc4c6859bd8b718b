// Origin tracking for the resolved manifest: which source node (path in the YAML as written, plus the
// chain of references that brought it in) each resolved value comes from, and its text span.
// Pure data; never throws. Where a source path is written is the locator's answer (locator/sourceNodes.ts).
import type { Span } from '../types';

/** A path in a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** Where a resolved value was written: its source path, and the reference sites (outermost first) that copied it. */
export type NodeOrigin = { path: JsonPath; via: readonly JsonPath[] };

/**
 * A path as a linked list from the leaf up (null is the root). The resolver extends paths at every
 * node; sharing the parent's list makes that O(1) instead of copying arrays.
 */
export type PathLink = { readonly up: PathLink; readonly key: string | number } | null;
/** The reference sites of an origin, innermost first, as a linked list. */
export type ViaLink = { readonly up: ViaLink; readonly site: PathLink } | null;
/** The resolver's internal form of `NodeOrigin`. */
export type Origin = { readonly path: PathLink; readonly via: ViaLink };

export const ROOT_ORIGIN: Origin = { path: null, via: null };

/** `path` extended by `key`. */
export function childPath(path: PathLink, key: string | number): PathLink {
  return { up: path, key };
}

/** The keys of a linked path, root first. */
export function pathToArray(path: PathLink): (string | number)[] {
  const out: (string | number)[] = [];
  for (let p = path; p; p = p.up) out.push(p.key);
  return out.reverse();
}

/** Depth of a linked path. */
export function pathLength(path: PathLink): number {
  let n = 0;
  for (let p = path; p; p = p.up) n++;
  return n;
}

/** The public form of an internal origin. */
export function toNodeOrigin(o: Origin): NodeOrigin {
  const via: JsonPath[] = [];
  for (let v = o.via; v; v = v.up) via.push(pathToArray(v.site));
  return { path: pathToArray(o.path), via: via.reverse() };
}

/** A located origin: the value's span, its key's span when it is a mapping entry, and the reference spans. */
export type LocatedOrigin = {
  /** Span of the value as written (UTF-16 offsets). */
  span: Span;
  /** Span of the key of the mapping entry holding the value, when there is one. */
  keySpan?: Span;
  /** True when the exact node does not exist in the source (an inserted value) and an ancestor was used. */
  approximate: boolean;
  /** Spans of the reference sites that brought the value in, outermost first. */
  via: Span[];
  /** The source path that was located. */
  sourcePath: JsonPath;
};

/** Origin bookkeeping shared by the resolver passes. Containers carry their own origin; leaves inherit from the parent. */
export class OriginTable {
  private readonly containers = new WeakMap<object, Origin>();
  private readonly keyOverrides = new WeakMap<object, Map<string, Origin>>();

  /** Records where container `node` comes from. */
  setContainer(node: object, origin: Origin): void {
    this.containers.set(node, origin);
  }

  /** Records where `node` comes from unless it already has a record. */
  setContainerIfAbsent(node: object, origin: Origin): void {
    if (!this.containers.has(node)) this.containers.set(node, origin);
  }

  /** Records that `parent[key]` (a leaf or a container without its own record) comes from `origin`. */
  setKey(parent: object, key: string, origin: Origin): void {
    let m = this.keyOverrides.get(parent);
    if (!m) this.keyOverrides.set(parent, (m = new Map()));
    m.set(key, origin);
  }

  /** Copies the bookkeeping of `from` onto a rebuilt `to` (the key overrides are shared, not copied). */
  carry(from: object, to: object): void {
    const o = this.containers.get(from);
    if (o) this.containers.set(to, o);
    const k = this.keyOverrides.get(from);
    if (k) this.keyOverrides.set(to, k);
  }

  /** The origin of `parent[key]`, given the parent's own origin. */
  childOrigin(parent: object, parentOrigin: Origin, key: string | number): Origin {
    const child = (parent as Record<string | number, unknown>)[key];
    if (child !== null && typeof child === 'object') {
      const own = this.containers.get(child);
      if (own) return own;
    }
    const override = this.keyOverrides.get(parent)?.get(String(key));
    if (override) return override;
    return { path: childPath(parentOrigin.path, key), via: parentOrigin.via };
  }

  /** The origin of the value at `path` in `root` (the resolved manifest); stops at the deepest existing value. */
  originAt(root: unknown, path: JsonPath): Origin {
    let origin: Origin = (root !== null && typeof root === 'object' && this.containers.get(root)) || ROOT_ORIGIN;
    let node: unknown = root;
    for (const key of path) {
      if (node === null || typeof node !== 'object') {
        origin = { path: childPath(origin.path, key), via: origin.via };
        node = undefined;
        continue;
      }
      origin = this.childOrigin(node, origin, key);
      node = (node as Record<string | number, unknown>)[key];
    }
    return origin;
  }
}

/** Renders a JSON path as a JSON pointer (`/streams/0/retriever`). */
export function toPointer(path: JsonPath): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

// Pass 1 of manifest resolution (airbyte_cdk/sources/declarative/parsers/manifest_component_transformer.py): replaces `#/...` strings and `$ref`
// mappings by their targets, recording where every copied node was written. Never throws.
import {
  childPath,
  pathToArray,
  toNodeOrigin,
  type JsonPath,
  type NodeOrigin,
  type Origin,
  type OriginTable,
  type PathLink,
} from './origins';
import { setOwn } from '../shared/safeObject';
import { isPlainObject } from '../shared/plainObject';
import type { ResolutionMemo } from './resolutionMemo';

/** A reference that could not be followed: what went wrong, where it is written, and its resolved location. */
export type ReferenceFailure = {
  kind: 'missing' | 'cycle' | 'invalid';
  ref: string;
  detail: string;
  /** Source path of the referencing node (the `$ref` value or the `#/` string). */
  site: NodeOrigin;
  /** Path in the resolved manifest of the node that stayed unresolved. */
  resolvedPath: JsonPath;
};

/** Nesting beyond this depth is not a manifest: the rest is kept as written and reported once. */
export const MAX_DEPTH = 500;

/**
 * Most values resolution may produce. References copy their targets, so levels that each reference
 * the next twice double at every level: 2.5 KB of text can ask for billions of values. The largest
 * real manifests resolve to under 200,000; past this bound resolution stops with one located error.
 */
export const MAX_RESOLVED_VALUES = 300_000;

/** Thrown through the resolver when MAX_RESOLVED_VALUES is passed; resolveManifest reports it. */
export class ResolutionTooLarge {
  constructor(
    /** The reference whose expansion passed the bound, and where it is written. */
    readonly ref: string,
    readonly site: NodeOrigin,
  ) {}
}

const hasOwn = (o: object, k: string) => Object.hasOwn(o, k);

/** Is `s` a reference string (§1.1: any string starting with `#/`)? */
export function isReferenceString(s: unknown): s is string {
  return typeof s === 'string' && s.startsWith('#/');
}

/**
 * Looks up a reference path (`a/b/c`, without the `#/`) in `root`. Spec §1.1: first try the whole
 * remaining path as one key, then split off the first segment (all digits → list index) and descend.
 * Returns the value and the source path actually taken, or the longest prefix that existed.
 */
export function lookupReference(
  root: unknown,
  refPath: string,
): { found: true; value: unknown; path: JsonPath } | { found: false; path: JsonPath; missing: string } {
  const taken: (string | number)[] = [];
  let node = root;
  let rest = refPath;
  while (rest !== '') {
    if (isPlainObject(node) && hasOwn(node, rest)) {
      taken.push(rest);
      node = node[rest];
      rest = '';
      break;
    }
    const slash = rest.indexOf('/');
    const head = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '' : rest.slice(slash + 1);
    if (Array.isArray(node) && /^\d+$/.test(head) && Number(head) < node.length) {
      taken.push(Number(head));
      node = node[Number(head)];
    } else if (isPlainObject(node) && hasOwn(node, head)) {
      taken.push(head);
      node = node[head];
    } else {
      return { found: false, path: taken, missing: head };
    }
  }
  return { found: true, value: node, path: taken };
}

/** Resolves every reference of a manifest value. The output shares no containers with the input. */
export class ReferenceResolver {
  readonly failures: ReferenceFailure[] = [];
  tooDeep: JsonPath | null = null;
  /** Origin of the target of the last reference followed successfully. */
  private lastTarget: Origin | null = null;
  /** Values produced so far (bounded by MAX_RESOLVED_VALUES). */
  private produced = 0;
  /**
   * The references being expanded, outermost first (cycle detection, §1.1). Resolution is depth-first
   * and synchronous, so one stack serves every path: O(1) per reference instead of copying the chain
   * (a 500-long cycle used to cost 500³ steps).
   */
  private readonly expanding: string[] = [];
  private readonly expandingSet = new Set<string>();

  constructor(
    private readonly root: unknown,
    private readonly origins: OriginTable,
    /** The previous versions' copies of reference-free subtrees (resolutionMemo.ts), when kept. */
    private readonly memo?: ResolutionMemo,
  ) {}

  /** Resolves the whole manifest. */
  resolveRoot(): unknown {
    return this.resolve(this.root, { path: null, via: null }, null, 0);
  }

  /**
   * Resolves `node` written at `origin`, placed at `outPath` in the output.
   */
  private resolve(node: unknown, origin: Origin, outPath: PathLink, depth: number): unknown {
    this.produced++;
    if (depth > MAX_DEPTH) {
      if (!this.tooDeep) this.tooDeep = pathToArray(origin.path);
      return null;
    }
    if (isReferenceString(node)) return this.follow(node, origin, outPath, depth, node);
    if (this.memo && node !== null && typeof node === 'object' && (Array.isArray(node) || isPlainObject(node))) {
      const reused = this.memo.reuse(node, depth, MAX_DEPTH);
      if (reused) {
        // `resolve` counted the node itself above.
        this.produced += reused.count - 1;
        return reused.copy;
      }
    }
    // Containers get no origin record here: their origin is derived from the parent's (parent path +
    // key), which keeps the table small. Only reference targets, whose origin differs, are recorded.
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (let i = 0; i < node.length; i++) this.resolveInto(out, i, node[i], origin, outPath, depth);
      return out;
    }
    if (!isPlainObject(node)) return node;

    if (hasOwn(node, '$ref')) return this.resolveRefMapping(node, origin, outPath, depth);

    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node)) this.resolveInto(out, key, node[key], origin, outPath, depth);
    return out;
  }

  /** Resolves `value` (child `key` of a node written at `parentOrigin`) into `out[key]`. */
  private resolveInto(
    out: Record<string, unknown> | unknown[],
    key: string | number,
    value: unknown,
    parentOrigin: Origin,
    outPath: PathLink,
    depth: number,
  ): void {
    // Most values are plain scalars: copied as `resolve` would copy them, without allocating their
    // origin and output path (on the largest manifests that garbage cost more than the copying).
    if (
      (value === null || typeof value !== 'object') &&
      !isReferenceString(value) &&
      depth + 1 <= MAX_DEPTH &&
      key !== 'config_overrides'
    ) {
      this.produced++;
      if (key === '__proto__') setOwn(out, key, value);
      else (out as Record<string | number, unknown>)[key] = value;
      return;
    }
    const childOrigin: Origin = { path: childPath(parentOrigin.path, key), via: parentOrigin.via };
    const childOut = childPath(outPath, key);
    let result: unknown;
    if (key === 'config_overrides') {
      // Spec §1.1: the content of `config_overrides` is copied verbatim, never resolved.
      result = value;
    } else if (isReferenceString(value)) {
      const followed = this.follow(value, childOrigin, childOut, depth + 1, value);
      result = followed;
      // A scalar target has no container record: remember on the parent where it was written.
      if (followed !== value && (followed === null || typeof followed !== 'object') && this.lastTarget) {
        this.origins.setKey(out, String(key), this.lastTarget);
      }
    } else {
      result = this.resolve(value, childOrigin, childOut, depth + 1);
    }
    // A `__proto__` key of the manifest stays a plain field (never the copy's prototype).
    if (key === '__proto__') setOwn(out, key, result);
    else (out as Record<string | number, unknown>)[key] = result;
  }

  /** A mapping with `$ref`: the resolved target, shallow-merged with the local keys (local wins). */
  private resolveRefMapping(node: Record<string, unknown>, origin: Origin, outPath: PathLink, depth: number): unknown {
    const ref = node.$ref;
    const siteOrigin: Origin = { path: childPath(origin.path, '$ref'), via: origin.via };
    const local: Record<string, unknown> = {};
    for (const key of Object.keys(node)) {
      if (key !== '$ref') this.resolveInto(local, key, node[key], origin, outPath, depth);
    }
    if (!isReferenceString(ref)) {
      this.failures.push({
        kind: 'invalid',
        ref: String(ref),
        detail: '`$ref` must be a string starting with `#/`, such as `#/definitions/base_requester`.',
        site: toNodeOrigin(siteOrigin),
        resolvedPath: pathToArray(outPath),
      });
      return local;
    }
    const target = this.follow(ref, siteOrigin, outPath, depth, undefined);
    if (target === undefined) return local;
    // Spec §1.1: a non-mapping target replaces the node; the local keys are discarded.
    if (!isPlainObject(target)) return target;
    const merged: Record<string, unknown> = { ...target, ...local };
    const targetOrigin = this.origins.originAt(target, []);
    for (const key of Object.keys(target)) {
      if (!hasOwn(local, key)) this.origins.setKey(merged, key, this.origins.childOrigin(target, targetOrigin, key));
    }
    return merged;
  }

  /**
   * Follows reference `ref` written at `site`. Returns the resolved target (a fresh copy), or
   * `fallback` when it cannot be followed (the failure is recorded).
   */
  private follow(ref: string, site: Origin, outPath: PathLink, depth: number, fallback: unknown): unknown {
    if (this.expandingSet.has(ref)) {
      const chain = [...this.expanding.slice(this.expanding.indexOf(ref)), ref].join(' → ');
      this.failures.push({
        kind: 'cycle',
        ref,
        detail: `circular reference: ${chain}`,
        site: toNodeOrigin(site),
        resolvedPath: pathToArray(outPath),
      });
      return fallback;
    }
    const found = lookupReference(this.root, ref.slice(2));
    if (!found.found) {
      const where = found.path.length ? `\`#/${found.path.join('/')}\`` : 'the top level of the manifest';
      this.failures.push({
        kind: 'missing',
        ref,
        detail: `there is no \`${found.missing}\` under ${where}`,
        site: toNodeOrigin(site),
        resolvedPath: pathToArray(outPath),
      });
      return fallback;
    }
    if (this.produced > MAX_RESOLVED_VALUES) throw new ResolutionTooLarge(ref, toNodeOrigin(site));
    let targetPath: PathLink = null;
    for (const k of found.path) targetPath = childPath(targetPath, k);
    const targetOrigin: Origin = { path: targetPath, via: { up: site.via, site: site.path } };
    this.expanding.push(ref);
    this.expandingSet.add(ref);
    let value: unknown;
    try {
      value = this.resolve(found.value, targetOrigin, outPath, depth);
    } finally {
      this.expanding.pop();
      this.expandingSet.delete(ref);
    }
    // A copy shared by the memo carries no origin: the reference's origin goes on a shallow copy.
    if (value !== null && typeof value === 'object' && this.memo?.isShared(value))
      value = Array.isArray(value) ? value.slice() : { ...value };
    // The innermost reference of a chain records first; outer ones must not overwrite it.
    if (value !== null && typeof value === 'object') this.origins.setContainerIfAbsent(value, targetOrigin);
    // For chained references the innermost target is the place where the value is written.
    if (!isReferenceString(found.value)) this.lastTarget = targetOrigin;
    return value;
  }
}

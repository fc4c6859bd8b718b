// The two dpath operations dynamic streams use (airbyte_cdk/sources/declarative/resolvers/): `set` writes a value at
// every EXISTING path matching a glob and counts them; `new` creates the path. Segments are fnmatch
// patterns (`*`, `?`, `[...]`) and `**` matches any number of levels, as in the dpath library.
import { setOwn } from '../shared/safeObject';
import { refusePrototypePath } from '../safePath';

import { RE2JS } from 're2js';

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return v !== null && typeof v === 'object';
}

function hasGlob(segment: string): boolean {
  return /[*?[]/.test(segment);
}

/** fnmatch of one segment: `*` any run, `?` one character, `[...]` a class (`[!...]` negated). */
function segmentMatches(name: string, pattern: string): boolean {
  if (!hasGlob(pattern)) return name === pattern;
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let body = pattern.slice(i + 1, end);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  // The glob comes from the manifest and the name from the API: RE2, so `*a*a*a*b` cannot backtrack.
  return RE2JS.compile(`${re}$`, RE2JS.DOTALL).test(name);
}

function globMatches(path: string[], pattern: string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern;
  if (head === '**') {
    for (let skip = 0; skip <= path.length; skip++) if (globMatches(path.slice(skip), rest)) return true;
    return false;
  }
  return path.length > 0 && segmentMatches(path[0], head) && globMatches(path.slice(1), rest);
}

function children(node: Container): [string, unknown][] {
  return Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
}

/** Every existing path of `root` (not the root itself) that matches `pattern`, outermost first. */
function matchingPaths(root: Container, pattern: string[]): string[][] {
  const out: string[][] = [];
  const walk = (node: unknown, path: string[], depth: number) => {
    if (!isContainer(node) || depth > 64) return;
    for (const [key, child] of children(node)) {
      const here = [...path, key];
      if (globMatches(here, pattern)) out.push(here);
      walk(child, here, depth + 1);
    }
  };
  walk(root, [], 0);
  return out;
}

function assign(container: Container, key: string, value: unknown): void {
  if (Array.isArray(container)) container[Number(key)] = value;
  else setOwn(container, key, value);
}

function childOf(container: Container, key: string): unknown {
  return Array.isArray(container) ? container[Number(key)] : Object.hasOwn(container, key) ? container[key] : undefined;
}

/** dpath.set: writes `value` at every existing path matching `pattern`; returns how many were written. */
export function dpathSet(root: Container, pattern: string[], value: unknown): number {
  let count = 0;
  for (const path of matchingPaths(root, pattern)) {
    let node: unknown = root;
    for (const key of path.slice(0, -1)) node = isContainer(node) ? childOf(node, key) : undefined;
    if (!isContainer(node)) continue;
    assign(node, path[path.length - 1], value);
    count++;
  }
  return count;
}

/** dpath.new: creates the (glob-free) path, making missing levels mappings, and writes `value`. */
export function dpathNew(root: Container, path: string[], value: unknown, what = 'field_path'): void {
  refusePrototypePath(path, what);
  let node: Container = root;
  for (const key of path.slice(0, -1)) {
    let next = childOf(node, key);
    if (!isContainer(next)) {
      next = {};
      assign(node, key, next);
    }
    node = next as Container;
  }
  if (path.length) assign(node, path[path.length - 1], value);
}

/** dpath.get without globs: the value at `path`, or `fallback` when a level is missing. */
export function dpathGet(root: unknown, path: string[], fallback: unknown): unknown {
  let node = root;
  for (const key of path) {
    if (!isContainer(node)) return fallback;
    const next = childOf(node, key);
    if (next === undefined) return fallback;
    node = next;
  }
  return node;
}

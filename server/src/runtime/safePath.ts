// The one writer by path into objects built from untrusted data (AddFields, request options, dynamic
// stream mappings, OAuth write-back paths): only own properties are walked and written, and a path
// with a `__proto__`, `constructor` or `prototype` segment is refused with a config error before
// anything is written (docs/security.md, "Prototype-safe data"). The own-key helpers it uses are
// pure and shared with the client (shared/safeObject.ts).
import { RuntimeError } from './errors';
import { getOwn, isMapping, prototypePathMessage, prototypeSegment, setOwn } from './shared/safeObject';

/** Thrown for a write path with a prototype segment; `segment` is its index in the path. */
export class PrototypePathError extends RuntimeError {
  constructor(
    readonly what: string,
    readonly path: readonly string[],
    readonly segment: number,
  ) {
    // The manifest is wrong, so a config error (docs/runtime.md "Errors").
    super(prototypePathMessage(what, path, segment), 'config_error');
    this.name = 'PrototypePathError';
  }
}

/** Throws {@link PrototypePathError} (naming `what`) when `path` has a prototype segment. */
export function refusePrototypePath(path: readonly string[], what: string): void {
  const bad = prototypeSegment(path);
  if (bad >= 0) throw new PrototypePathError(what, path, bad);
}

type Bag = Record<string, unknown>;

/**
 * Writes `value` at `path` below `root`, creating missing (or non-mapping) levels as new mappings.
 * Only own properties are followed. Throws {@link PrototypePathError} (naming `what`) for a path
 * with a `__proto__`, `constructor` or `prototype` segment, before writing anything.
 */
export function setAtPath(root: Bag, path: readonly string[], value: unknown, what = 'path'): void {
  refusePrototypePath(path, what);
  let cur: Bag = root;
  for (let i = 0; i < path.length - 1; i++) {
    let next = getOwn(cur, path[i]);
    if (!isMapping(next)) {
      next = {};
      setOwn(cur, path[i], next);
    }
    cur = next as Bag;
  }
  if (path.length) setOwn(cur, path[path.length - 1], value);
}

/** Writes a value at a path of keys, creating missing intermediate objects (`what` names the path in errors). */
export function setValueAtPath(root: Record<string, unknown>, path: readonly string[], value: unknown, what = 'config path'): void {
  setAtPath(root, path, value, what);
}

// Three-way merge of testing values: what a form loaded (`base`), what the user has in the form now
// (`edited`) and what SecretStorage holds now (`stored`, perhaps rotated by a read or an OAuth flow
// since the form loaded). Fields the user did not touch take the stored value, so saving a form that
// was opened before a refresh-token rotation never writes the used-up token back. No vscode import:
// the form's webview script and the unit tests use it too.
import { getOwn, setOwn } from '../../server/src/runtime/shared/safeObject';

export type Values = Record<string, unknown>;

function isMap(v: unknown): v is Values {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality of JSON values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isMap(a) && isMap(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!sameValue(getOwn(a, k), getOwn(b, k))) return false;
    return true;
  }
  return false;
}

/**
 * The values to keep: per field, the user's edit when they changed it since `base`, otherwise the
 * stored value (which may be newer than `base`). Objects merge field by field; a field the user
 * deleted stays deleted; a field that appeared in storage appears.
 */
export function mergeEdits(base: Values, edited: Values, stored: Values): Values {
  const out: Values = {};
  const keys = new Set([...Object.keys(base), ...Object.keys(edited), ...Object.keys(stored)]);
  for (const k of keys) {
    const b = getOwn(base, k);
    const e = getOwn(edited, k);
    const s = getOwn(stored, k);
    let v: unknown;
    if (isMap(e) && isMap(s) && (isMap(b) || b === undefined)) v = mergeEdits(isMap(b) ? b : {}, e, s);
    else v = sameValue(e, b) ? s : e;
    if (v !== undefined) setOwn(out, k, v);
  }
  return out;
}

/** The fields (as JSON pointers) where `a` and `b` differ, for telling the user what changed. */
export function changedPaths(a: Values, b: Values, prefix = ''): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const path = `${prefix}/${k}`;
    if (isMap(a[k]) && isMap(b[k])) out.push(...changedPaths(a[k] as Values, b[k] as Values, path));
    else if (!sameValue(a[k], b[k])) out.push(path);
  }
  return out;
}

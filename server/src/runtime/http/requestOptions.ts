// Request option plumbing of §4.2-§4.5: merging providers (combine_mappings), URL joining with
// RFC 3986 reference rules, and byte-exact serialisation of query strings, form and JSON bodies.
import { configError } from '../errors';
import { pythonStr } from './interpolatedValues';
import { PyFloat, floatRepr } from '../interpolation/values';
import { setOwn } from '../shared/safeObject';

type Mapping = Record<string, unknown>;

/**
 * combine_mappings (§4.5): null/empty providers are ignored; at most one raw string; duplicate keys are
 * an error for flat kinds, while JSON bodies merge recursively and accept equal duplicates only.
 */
export function combineMappings(
  providers: (Mapping | string | null | undefined)[],
  opts: { json: boolean; what: string },
): Mapping | string {
  const present = providers.filter((p) => p !== null && p !== undefined && (typeof p === 'string' ? p !== '' : Object.keys(p).length > 0));
  const strings = present.filter((p): p is string => typeof p === 'string');
  if (strings.length > 1) throw configError(`Cannot combine multiple raw string bodies for ${opts.what}.`);
  if (strings.length === 1) {
    if (present.length > 1) throw configError(`Cannot combine a raw string body with key/value options for ${opts.what}.`);
    return strings[0];
  }
  const out: Mapping = {};
  for (const p of present as Mapping[]) mergeInto(out, p, [], opts);
  return out;
}

function mergeInto(target: Mapping, source: Mapping, path: string[], opts: { json: boolean; what: string }): void {
  for (const [k, v] of Object.entries(source)) {
    const here = [...path, k];
    if (!Object.hasOwn(target, k)) {
      setOwn(target, k, v);
      continue;
    }
    const existing = target[k];
    if (opts.json && isPlainObject(existing) && isPlainObject(v)) {
      const copy = { ...existing };
      mergeInto(copy, v, here, opts);
      setOwn(target, k, copy);
    } else if (opts.json && deepEqual(existing, v)) {
    } else {
      // Spec §4.5: any duplicate key collides, even with identical values, for params/headers/forms.
      throw configError(
        `Request body collision, duplicate keys detected at key path: ${here.join('.')}. Please ensure that all keys in the request are unique. (The key "${here.join('.')}" in ${opts.what} is set by two option providers, e.g. request options and the authenticator or paginator.)`,
      );
    }
  }
}

function isPlainObject(v: unknown): v is Mapping {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof PyFloat);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** urljoin after making sure the base ends with "/" (§4.2); an empty path returns the base unchanged. */
export function joinUrl(base: string, path: string | null | undefined): string {
  if (path === null || path === undefined || path === '') return base;
  const b = base.endsWith('/') ? base : `${base}/`;
  try {
    const relative = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(path) && !/^[/?#]/.test(path);
    if (!relative) return new URL(path, b).toString();
    // Python's urljoin drops empty segments between the base path and a relative path
    // (`/v4/groups//{{ id }}` reaches the API as `/v4/groups/<id>`); WHATWG URL keeps them.
    const baseUrl = new URL(b);
    const cut = path.search(/[?#]/);
    const pathPart = cut < 0 ? path : path.slice(0, cut);
    const tail = cut < 0 ? '' : path.slice(cut);
    const segments = [...baseUrl.pathname.split('/'), ...pathPart.split('/')];
    const middle = segments.slice(1, -1).filter((s) => s !== '');
    const joined = [segments[0], ...middle, ...(segments.length > 1 ? [segments[segments.length - 1]] : [])];
    return new URL(joined.join('/') + tail, baseUrl.origin).toString();
  } catch {
    throw configError(`Cannot build a URL from base "${base}" and path "${path}"; check url_base/url and path.`);
  }
}

/** Python quote_plus: only letters, digits and `_.-~` stay; space becomes "+". */
export function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** key=value pairs in insertion order; lists repeat the key; nulls are omitted; values str()-ed. */
export function encodePairs(params: Mapping): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [k, v] of Object.entries(params)) {
    const values = Array.isArray(v) ? v : [v];
    for (const item of values) {
      if (item === null || item === undefined) continue;
      if (typeof item === 'object' && !(item instanceof PyFloat))
        throw configError(`Invalid value for \`${k}\`: values of request params cannot be an object.`);
      pairs.push([k, pythonStr(item)]);
    }
  }
  return pairs;
}

/** Form body text (application/x-www-form-urlencoded). */
export function encodeForm(params: Mapping): string {
  return encodePairs(params)
    .map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`)
    .join('&');
}

/** Appends query parameters, skipping a key already present in the URL with the same value (§4.3 dedupe). */
export function appendQuery(url: string, params: Mapping): string {
  const pairs = encodePairs(params);
  if (pairs.length === 0) return url;
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const q = withoutHash.indexOf('?');
  const existing = new URLSearchParams(q >= 0 ? withoutHash.slice(q + 1) : '');
  const kept = pairs.filter(([k, v]) => !existing.getAll(k).includes(v));
  if (kept.length === 0) return url;
  const encoded = kept.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&');
  const sep = q < 0 ? '?' : withoutHash.endsWith('?') || withoutHash.endsWith('&') ? '' : '&';
  return `${withoutHash}${sep}${encoded}${hashAt >= 0 ? url.slice(hashAt) : ''}`;
}

/** Python json.dumps with default separators (", " and ": ") and ASCII escapes; floats as float.__repr__. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof PyFloat) return floatJson(value.value);
  if (typeof value === 'string')
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : floatJson(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.entries(value as Mapping)
    .map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`)
    .join(', ')}}`;
}

/** json.dumps of a float: its repr, with JSON's names for the non-finite ones. */
function floatJson(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return floatRepr(n);
}

/** An empty RequestParts record. */
export function emptyParts(): {
  path: null;
  request_parameters: Mapping;
  request_headers: Mapping;
  request_body_data: Mapping;
  request_body_json: Mapping;
} {
  return { path: null, request_parameters: {}, request_headers: {}, request_body_data: {}, request_body_json: {} };
}

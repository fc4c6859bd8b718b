// The filters the CDK adds to Jinja (reference-behaviour.md §3.8): hash, base64encode/decode,
// base64binascii_decode (which encodes), string (JSON in triple quotes), regex_search/replace, hmac.
// Python regular expressions are translated to JS; patterns that could backtrack catastrophically are refused.
import { createHash, createHmac, getHashes } from 'node:crypto';
import { PyDate, PyTimedelta } from './datetime';
import { PyFloat, PyTuple, TemplateValueError, Undefined, floatRepr, isDict, pyStr, typeName } from './values';

/** Longest input a regex filter accepts (bounded time even for heavy patterns). */
const MAX_REGEX_INPUT = 100_000;

const PY_HASH_NAMES: Record<string, string> = {
  md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512',
  sha3_224: 'sha3-224', sha3_256: 'sha3-256', sha3_384: 'sha3-384', sha3_512: 'sha3-512',
  blake2b: 'blake2b512', blake2s: 'blake2s256', sha512_224: 'sha512-224', sha512_256: 'sha512-256',
};

/** Python json.dumps with default separators (used by the `string` and `tojson` filters). */
export function jsonDumps(v: unknown, sortKeys = false): string {
  if (v === null || v instanceof Undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    return pyStr(v);
  }
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (typeof v === 'string') {
    let out = '"';
    for (const ch of v) {
      const c = ch.codePointAt(0) as number;
      if (ch === '"') out += '\\"';
      else if (ch === '\\') out += '\\\\';
      else if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else if (ch === '\b') out += '\\b';
      else if (ch === '\f') out += '\\f';
      else if (c < 0x20 || c > 0x7e) {
        // ensure_ascii=True: non-ASCII as \uXXXX (UTF-16 units).
        for (let i = 0; i < ch.length; i++) out += '\\u' + ch.charCodeAt(i).toString(16).padStart(4, '0');
      } else out += ch;
    }
    return out + '"';
  }
  if (Array.isArray(v) || v instanceof PyTuple) return `[${(Array.isArray(v) ? v : v.items).map((x) => jsonDumps(x, sortKeys)).join(', ')}]`;
  if (isDict(v)) {
    const keys = Object.keys(v);
    if (sortKeys) keys.sort();
    return `{${keys.map((k) => `${jsonDumps(k)}: ${jsonDumps(v[k], sortKeys)}`).join(', ')}}`;
  }
  if (v instanceof PyDate || v instanceof PyTimedelta) throw new TemplateValueError(`Object of type ${typeName(v)} is not JSON serializable`);
  throw new TemplateValueError(`Object of type ${typeName(v)} is not JSON serializable`);
}

/** Translates a Python `re` pattern to a JS RegExp; refuses nested quantifiers (catastrophic backtracking). */
export function pythonRegex(pattern: string, flags = ''): RegExp {
  if (/\((?:[^()\\]|\\.)*[+*](?:[^()\\]|\\.)*\)[+*{]/.test(pattern)) {
    throw new TemplateValueError('regular expression with nested repetition is refused (it could run for an unbounded time)');
  }
  const js = pattern
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$(?![\\s\\S])');
  try {
    return new RegExp(js, flags);
  } catch (e) {
    throw new TemplateValueError(`invalid regular expression: ${(e as Error).message}`);
  }
}

function pythonReplacement(rep: string): string {
  let out = '';
  for (let i = 0; i < rep.length; i++) {
    const ch = rep[i];
    if (ch === '$') out += '$$';
    else if (ch === '\\' && i + 1 < rep.length) {
      const next = rep[i + 1];
      const g = /^g<([A-Za-z_0-9]+)>/.exec(rep.slice(i + 1));
      if (g) {
        out += /^\d+$/.test(g[1]) ? `$${g[1]}` : `$<${g[1]}>`;
        i += g[0].length;
      } else if (/\d/.test(next)) {
        out += `$${next}`;
        i++;
      } else {
        out += ({ n: '\n', t: '\t', r: '\r', '\\': '\\' } as Record<string, string>)[next] ?? `\\${next}`;
        i++;
      }
    } else out += ch;
  }
  return out;
}

function requireStr(v: unknown, filter: string): string {
  if (typeof v !== 'string') throw new TemplateValueError(`filter '${filter}' expects a string, got ${typeName(v)}`);
  return v;
}

function boundedInput(v: unknown, filter: string): string {
  const s = requireStr(v, filter);
  if (s.length > MAX_REGEX_INPUT) throw new TemplateValueError(`filter '${filter}': input longer than ${MAX_REGEX_INPUT} characters`);
  return s;
}

type Filter = (value: unknown, args: unknown[], kw: Record<string, unknown>) => unknown;

function argOf(args: unknown[], kw: Record<string, unknown>, i: number, name: string, dflt: unknown): unknown {
  if (i < args.length) return args[i];
  return Object.prototype.hasOwnProperty.call(kw, name) ? kw[name] : dflt;
}

/** Spec §3.8 filters, keyed by name. */
export const AIRBYTE_FILTERS: Record<string, Filter> = {
  hash: (value, args, kw) => {
    const type = String(argOf(args, kw, 0, 'hash_type', 'md5'));
    const salt = argOf(args, kw, 1, 'salt', null);
    const algo = PY_HASH_NAMES[type];
    if (!algo || !getHashes().includes(algo)) throw new TemplateValueError(`No hashing function named ${type}`);
    const h = createHash(algo).update(pyStr(value), 'utf8');
    if (salt !== null && salt !== '' && salt !== false && !(salt instanceof Undefined)) h.update(pyStr(salt), 'utf8');
    return h.digest('hex');
  },
  base64encode: (value) => Buffer.from(requireStr(value, 'base64encode'), 'utf8').toString('base64'),
  base64decode: (value) => {
    const text = requireStr(value, 'base64decode').replace(/[^A-Za-z0-9+/=]/g, '');
    if (text.replace(/=+$/, '').length % 4 === 1 || (text.length % 4 !== 0)) throw new TemplateValueError('Incorrect padding in base64 input');
    return Buffer.from(text, 'base64').toString('utf8');
  },
  // Reference quirk (§3.8): despite its name this filter ENCODES.
  base64binascii_decode: (value) => {
    const s = requireStr(value, 'base64binascii_decode');
    if (/[^\x00-\x7f]/.test(s)) throw new TemplateValueError("'ascii' codec can't encode a non-ASCII character");
    return Buffer.from(s, 'latin1').toString('base64');
  },
  // Spec §3.8: non-strings become JSON wrapped in triple quotes so literal evaluation yields a string.
  string: (value) => (typeof value === 'string' ? value : `"""${jsonDumps(value)}"""`),
  regex_search: (value, args) => {
    const m = pythonRegex(requireStr(args[0], 'regex_search')).exec(boundedInput(value, 'regex_search'));
    return m && m.length > 1 ? m[1] ?? '' : '';
  },
  regex_replace: (value, args) => {
    const re = pythonRegex(requireStr(args[0], 'regex_replace'), 'g');
    return boundedInput(value, 'regex_replace').replace(re, pythonReplacement(requireStr(args[1], 'regex_replace')));
  },
  hmac: (value, args, kw) => {
    const key = argOf(args, kw, 0, 'key', undefined);
    const type = String(argOf(args, kw, 1, 'hash_type', 'sha256'));
    if (type !== 'sha256') throw new TemplateValueError(`hmac only supports sha256, got '${type}'`);
    if (key === undefined) throw new TemplateValueError("hmac requires a 'key' argument");
    return createHmac('sha256', pyStr(key)).update(pyStr(value), 'utf8').digest('hex');
  },
};

// The filters the CDK adds to Jinja (airbyte_cdk/sources/declarative/interpolation/filters.py): hash, base64encode/decode,
// base64binascii_decode (which encodes), string (JSON in triple quotes), regex_search/replace, hmac.
// Regular expressions run on RE2 in linear time (pythonRegex.ts).
import { createHash, createHmac, getHashes } from 'node:crypto';
import { chargeText, checkText, TextBuilder } from './limits';
import { pythonSearch, pythonSub } from './pythonRegex';
import { PyFloat, PyTuple, TemplateValueError, Undefined, floatRepr, isDict, pyStr, typeName } from './values';

const PY_HASH_NAMES: Record<string, string> = {
  md5: 'md5',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
  blake2b: 'blake2b512',
  blake2s: 'blake2s256',
  sha512_224: 'sha512-224',
  sha512_256: 'sha512-256',
};

/**
 * Python json.dumps (used by the `string` and `tojson` filters): default separators, or with
 * `indent` one item per line as Python writes it. Built with a bound on the output size.
 */
export function jsonDumps(v: unknown, sortKeys = false, indent: number | null = null): string {
  const out = new TextBuilder('JSON text');
  writeJson(out, v, sortKeys, indent === null ? null : ' '.repeat(Math.max(0, indent)), '');
  return out.toString();
}

function jsonString(v: string): string {
  chargeText(v.length);
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

function writeJson(out: TextBuilder, v: unknown, sortKeys: boolean, indent: string | null, prefix: string): void {
  if (v === null || v instanceof Undefined) return out.add('null');
  if (typeof v === 'boolean') return out.add(v ? 'true' : 'false');
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return out.add(Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity');
    return out.add(pyStr(v));
  }
  if (v instanceof PyFloat) return out.add(floatRepr(v.value));
  if (typeof v === 'string') return out.add(jsonString(v));
  const inner = indent === null ? prefix : prefix + indent;
  // Python: ', ' and ': ' without indent; ',' + newline + indentation with it.
  const sep = indent === null ? ', ' : `,\n${inner}`;
  const open = (bracket: string) => out.add(indent === null ? bracket : `${bracket}\n${inner}`);
  const close = (bracket: string) => out.add(indent === null ? bracket : `\n${prefix}${bracket}`);
  if (Array.isArray(v) || v instanceof PyTuple) {
    const items = Array.isArray(v) ? v : v.items;
    if (items.length === 0) return out.add('[]');
    open('[');
    items.forEach((x, i) => {
      if (i) out.add(sep);
      writeJson(out, x, sortKeys, indent, inner);
    });
    return close(']');
  }
  if (isDict(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) return out.add('{}');
    if (sortKeys) keys.sort();
    open('{');
    keys.forEach((k, i) => {
      if (i) out.add(sep);
      out.add(jsonString(k));
      out.add(': ');
      writeJson(out, v[k], sortKeys, indent, inner);
    });
    return close('}');
  }
  throw new TemplateValueError(`Object of type ${typeName(v)} is not JSON serializable`);
}

function requireStr(v: unknown, filter: string): string {
  if (typeof v !== 'string') throw new TemplateValueError(`filter '${filter}' expects a string, got ${typeName(v)}`);
  return v;
}

type Filter = (value: unknown, args: unknown[], kw: Record<string, unknown>) => unknown;

function argOf(args: unknown[], kw: Record<string, unknown>, i: number, name: string, dflt: unknown): unknown {
  if (i < args.length) return args[i];
  return Object.hasOwn(kw, name) ? kw[name] : dflt;
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
  base64encode: (value) => {
    const s = requireStr(value, 'base64encode');
    // base64 writes 4 characters per 3 bytes of UTF-8, known before encoding.
    checkText(Math.ceil(Buffer.byteLength(s, 'utf8') / 3) * 4, 'base64encode');
    return Buffer.from(s, 'utf8').toString('base64');
  },
  base64decode: (value) => {
    const text = requireStr(value, 'base64decode').replace(/[^A-Za-z0-9+/=]/g, '');
    if (text.replace(/=+$/, '').length % 4 === 1 || text.length % 4 !== 0)
      throw new TemplateValueError('Incorrect padding in base64 input');
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
    const groups = pythonSearch(requireStr(args[0], 'regex_search'), requireStr(value, 'regex_search'), 'regex_search');
    return groups && groups.length > 1 ? (groups[1] ?? '') : '';
  },
  regex_replace: (value, args) =>
    pythonSub(
      requireStr(args[0], 'regex_replace'),
      requireStr(args[1], 'regex_replace'),
      requireStr(value, 'regex_replace'),
      'regex_replace',
    ),
  hmac: (value, args, kw) => {
    const key = argOf(args, kw, 0, 'key', undefined);
    const type = String(argOf(args, kw, 1, 'hash_type', 'sha256'));
    if (type !== 'sha256') throw new TemplateValueError(`hmac only supports sha256, got '${type}'`);
    if (key === undefined) throw new TemplateValueError("hmac requires a 'key' argument");
    return createHmac('sha256', pyStr(key)).update(pyStr(value), 'utf8').digest('hex');
  },
};

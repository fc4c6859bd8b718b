// Jinja2's built-in filters with Python semantics (int/float parsing, str() rendering, sorted-key
// tojson, …). Filters that call other filters or tests (map, select, …) go through FilterHost.
import { getItem } from './attributes';
import { jsonDumps } from './filtersAirbyte';
import { charge, checkItems, checkText, sizeArg, splitForReplace, TextBuilder } from './limits';
import { binaryOp, compareOp } from './operators';
import {
  PyFloat,
  PyTuple,
  TemplateValueError,
  Undefined,
  hasKey,
  isDict,
  isFloat,
  iterate,
  makeFloat,
  numberOf,
  pyLen,
  pyRepr,
  pyStr,
  truthy,
  typeName,
} from './values';

/** What filters need from the evaluator: calling other filters and tests by name. */
export interface FilterHost {
  filter(name: string, value: unknown, args: unknown[], kw: Record<string, unknown>): unknown;
  test(name: string, value: unknown, args: unknown[]): boolean;
}

type Filter = (value: unknown, args: unknown[], kw: Record<string, unknown>, host: FilterHost) => unknown;

function argOf(args: unknown[], kw: Record<string, unknown>, i: number, name: string, dflt: unknown): unknown {
  if (i < args.length) return args[i];
  return hasKey(kw, name) ? kw[name] : dflt;
}

/** Python int() of a string: optional sign, digits with single underscores, surrounding whitespace. */
function parseIntText(text: string, base: number): number | undefined {
  const t = text.trim().replace(/(?<=\w)_(?=\w)/g, '');
  if (base === 10) return /^[+-]?\d+$/.test(t) ? Number(t) : undefined;
  const prefixed = t.replace(/^([+-]?)0[xob]/i, '$1');
  const n = parseInt(prefixed, base);
  return Number.isNaN(n) || !/^[+-]?[0-9a-z]+$/i.test(prefixed) ? undefined : n;
}

/** Python float() of a string. */
function parseFloatText(text: string): number | undefined {
  const t = text
    .trim()
    .replace(/(?<=\d)_(?=\d)/g, '')
    .toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t) ? Number(t) : undefined;
}

function toInt(value: unknown, dflt: unknown, base: number): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const n = numberOf(value);
  if (n !== undefined) return Number.isFinite(n) ? Math.trunc(n) : dflt;
  if (typeof value === 'string') {
    const i = parseIntText(value, base);
    if (i !== undefined) return i;
    const f = parseFloatText(value);
    return f !== undefined && Number.isFinite(f) ? Math.trunc(f) : dflt;
  }
  return dflt;
}

function toFloat(value: unknown, dflt: unknown): unknown {
  const n = numberOf(value);
  if (n !== undefined) return makeFloat(n);
  if (typeof value === 'string') {
    const f = parseFloatText(value);
    if (f !== undefined) return makeFloat(f);
  }
  return dflt;
}

function attrPath(item: unknown, attribute: unknown): unknown {
  let cur = item;
  for (const part of pyStr(attribute).split('.')) {
    cur = /^\d+$/.test(part) ? getItem(cur, Number(part)) : getItem(cur, part);
    if (cur instanceof Undefined) return cur;
  }
  return cur;
}

function sortKey(v: unknown, caseSensitive: boolean): unknown {
  return !caseSensitive && typeof v === 'string' ? v.toLowerCase() : v;
}

function sorted(items: unknown[], key: (x: unknown) => unknown, reverse: boolean): unknown[] {
  // A sort compares about n·log2(n) pairs: charged before it starts.
  charge(Math.ceil(items.length * Math.log2(items.length + 1)));
  const withKeys = items.map((x) => [key(x), x] as const);
  withKeys.sort((a, b) => (compareOp('<', a[0], b[0]) ? -1 : compareOp('<', b[0], a[0]) ? 1 : 0));
  if (reverse) withKeys.reverse();
  return withKeys.map((p) => p[1]);
}

function selectOrReject(value: unknown, args: unknown[], host: FilterHost, byAttr: boolean, keep: boolean): unknown[] {
  const items = iterate(value);
  const [attr, rest] = byAttr ? [args[0], args.slice(1)] : [null, args];
  const testName = rest.length ? pyStr(rest[0]) : null;
  return items.filter((item) => {
    const subject = byAttr ? attrPath(item, attr) : item;
    const ok = testName === null ? truthy(subject) : host.test(testName, subject, rest.slice(1));
    return ok === keep;
  });
}

/** Python html escaping as markupsafe does it. */
function htmlEscape(s: string): string {
  // Each character grows to at most 5 (`&#34;`).
  checkText(s.length * 5, 'escape');
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

/** Jinja's url quoting: safe `/` in plain strings; form encoding in query-string mode. */
function urlQuote(v: unknown, forQs: boolean): string {
  const s = pyStr(v);
  checkText(3 * Buffer.byteLength(s, 'utf8'), 'urlencode');
  const q = encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return forQs ? q.replace(/%20/g, '+') : q.replace(/%2F/g, '/');
}

/** Jinja2's built-in filters keyed by name (the CDK's `string` overrides Jinja's, see filtersAirbyte.ts). */
export const JINJA_FILTERS: Record<string, Filter> = {
  abs: (v) => {
    const n = numberOf(v);
    if (n === undefined) throw new TemplateValueError(`bad operand type for abs(): '${typeName(v)}'`);
    return isFloat(v) ? makeFloat(Math.abs(n)) : Math.abs(n);
  },
  attribute: (v, a) => attrPath(v, a[0]),
  batch: (v, a) => {
    const size = Number(numberOf(a[0]));
    if (!(size > 0)) throw new TemplateValueError('batch size must be positive');
    const items = iterate(v);
    // The last batch is padded to `size` items when a fill value is given.
    checkItems(a.length > 1 ? Math.ceil(items.length / size) * size : items.length, 'batch');
    const out: unknown[][] = [];
    for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
    const last = out[out.length - 1];
    if (a.length > 1 && last) while (last.length < size) last.push(a[1]);
    return out;
  },
  capitalize: (v) => {
    const s = pyStr(v);
    return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  },
  center: (v, a) => {
    const s = pyStr(v);
    const width = sizeArg(Number(numberOf(a[0] ?? 80)), 'center');
    checkText(Math.max(width, s.length), 'center');
    const total = Math.max(width - s.length, 0);
    const left = Math.floor(total / 2) + (total % 2 && width % 2 ? 1 : 0);
    return ' '.repeat(left) + s + ' '.repeat(total - left);
  },
  count: (v) => pyLen(v),
  length: (v) => pyLen(v),
  default: (v, a, kw) =>
    v instanceof Undefined || (truthy(argOf(a, kw, 1, 'boolean', false)) && !truthy(v)) ? argOf(a, kw, 0, 'default_value', '') : v,
  dictsort: (v, a, kw) => {
    if (!isDict(v)) throw new TemplateValueError('dictsort expects a mapping');
    const byValue = argOf(a, kw, 1, 'by', 'key') === 'value';
    const cs = truthy(argOf(a, kw, 0, 'case_sensitive', false));
    const pairs = Object.keys(v).map((k) => new PyTuple([k, v[k]]));
    return sorted(pairs, (p) => sortKey((p as PyTuple).items[byValue ? 1 : 0], cs), truthy(argOf(a, kw, 2, 'reverse', false)));
  },
  escape: (v) => htmlEscape(pyStr(v)),
  forceescape: (v) => htmlEscape(pyStr(v)),
  filesizeformat: (v, a) => {
    const bytes = Number(numberOf(toFloat(v, 0)));
    const binary = truthy(a[0] ?? false);
    const base = binary ? 1024 : 1000;
    const units = binary ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'] : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
    if (bytes === 1) return '1 Byte';
    if (bytes < base) return `${Math.trunc(bytes)} Bytes`;
    let i = 0;
    let unit = base;
    while (i < units.length - 1 && bytes >= unit * base) {
      unit *= base;
      i++;
    }
    return `${(bytes / unit).toFixed(1)} ${units[i]}`;
  },
  first: (v) => {
    const items = iterate(v);
    return items.length ? items[0] : new Undefined('No first item, sequence was empty.');
  },
  last: (v) => {
    const items = iterate(v);
    return items.length ? items[items.length - 1] : new Undefined('No last item, sequence was empty.');
  },
  float: (v, a, kw) => toFloat(v, argOf(a, kw, 0, 'default', new PyFloat(0))),
  int: (v, a, kw) => toInt(v, argOf(a, kw, 0, 'default', 0), Number(numberOf(argOf(a, kw, 1, 'base', 10)))),
  format: (v, a) => binaryOp('%', pyStr(v), new PyTuple(a)),
  indent: (v, a, kw) => {
    const width = argOf(a, kw, 0, 'width', 4);
    const text = pyStr(v);
    const padLength = typeof width === 'string' ? width.length : Math.max(0, sizeArg(Number(numberOf(width)), 'indent'));
    const lines = text.split('\n');
    // Every line may get the padding: the result size is known before anything is built.
    checkText(text.length + padLength * lines.length, 'indent');
    const pad = typeof width === 'string' ? width : ' '.repeat(padLength);
    const first = truthy(argOf(a, kw, 1, 'first', false));
    const blank = truthy(argOf(a, kw, 2, 'blank', false));
    return lines.map((l, i) => ((i > 0 || first) && (blank || l !== '') ? pad + l : l)).join('\n');
  },
  items: (v) =>
    v instanceof Undefined
      ? []
      : isDict(v)
        ? Object.keys(v).map((k) => new PyTuple([k, v[k]]))
        : (() => {
            throw new TemplateValueError(`Can only get item pairs from a mapping, not ${typeName(v)}`);
          })(),
  join: (v, a, kw) => {
    const sep = pyStr(argOf(a, kw, 0, 'd', ''));
    const attr = argOf(a, kw, 1, 'attribute', null);
    const out = new TextBuilder('join');
    iterate(v).forEach((x, i) => {
      if (i > 0) out.add(sep);
      out.add(pyStr(attr === null ? x : attrPath(x, attr)));
    });
    return out.toString();
  },
  list: (v) => {
    const items = iterate(v);
    checkItems(items.length, 'list');
    return [...items];
  },
  lower: (v) => pyStr(v).toLowerCase(),
  upper: (v) => pyStr(v).toUpperCase(),
  map: (v, a, kw, host) => {
    const items = iterate(v);
    if (hasKey(kw, 'attribute')) {
      const dflt = hasKey(kw, 'default') ? kw.default : undefined;
      return items.map((x) => {
        const got = attrPath(x, kw.attribute);
        return got instanceof Undefined && dflt !== undefined ? dflt : got;
      });
    }
    if (!a.length) throw new TemplateValueError('map requires a filter name or attribute=');
    const name = pyStr(a[0]);
    return items.map((x) => host.filter(name, x, a.slice(1), kw));
  },
  max: (v, a, kw) => {
    const items = iterate(v);
    if (!items.length) return new Undefined('No aggregated item, sequence was empty.');
    const attr = argOf(a, kw, 1, 'attribute', null);
    const cs = truthy(argOf(a, kw, 0, 'case_sensitive', false));
    return sorted(items, (x) => sortKey(attr === null ? x : attrPath(x, attr), cs), false).pop();
  },
  min: (v, a, kw) => {
    const items = iterate(v);
    if (!items.length) return new Undefined('No aggregated item, sequence was empty.');
    const attr = argOf(a, kw, 1, 'attribute', null);
    const cs = truthy(argOf(a, kw, 0, 'case_sensitive', false));
    return sorted(items, (x) => sortKey(attr === null ? x : attrPath(x, attr), cs), false)[0];
  },
  pprint: (v) => pyRepr(v),
  random: (v) => {
    const items = iterate(v);
    if (!items.length) return new Undefined('No random item, sequence was empty.');
    return items[Math.floor(Math.random() * items.length)];
  },
  reject: (v, a, _kw, host) => selectOrReject(v, a, host, false, false),
  rejectattr: (v, a, _kw, host) => selectOrReject(v, a, host, true, false),
  select: (v, a, _kw, host) => selectOrReject(v, a, host, false, true),
  selectattr: (v, a, _kw, host) => selectOrReject(v, a, host, true, true),
  replace: (v, a, kw) => {
    const s = pyStr(v);
    const old = pyStr(a[0]);
    const rep = pyStr(a[1]);
    const count = argOf(a, kw, 2, 'count', null);
    const parts = splitForReplace(s, old, rep, count === null ? -1 : Number(numberOf(count)));
    if (count === null || parts.length - 1 <= Number(numberOf(count))) return parts.join(rep);
    const c = Number(numberOf(count));
    return parts.slice(0, c + 1).join(rep) + old + parts.slice(c + 1).join(old);
  },
  reverse: (v) => (typeof v === 'string' ? (iterate(v) as string[]).reverse().join('') : [...iterate(v)].reverse()),
  round: (v, a, kw) => {
    const precision = Number(numberOf(argOf(a, kw, 0, 'precision', 0)));
    const method = pyStr(argOf(a, kw, 1, 'method', 'common'));
    const n = numberOf(v);
    if (n === undefined) throw new TemplateValueError(`round expects a number, got ${typeName(v)}`);
    const f = 10 ** precision;
    const fn = method === 'ceil' ? Math.ceil : method === 'floor' ? Math.floor : (x: number) => Math.sign(x) * Math.round(Math.abs(x));
    if (!['common', 'ceil', 'floor'].includes(method)) throw new TemplateValueError('method must be common, ceil or floor');
    return makeFloat(fn(n * f) / f);
  },
  safe: (v) => v,
  slice: (v, a) => {
    const items = iterate(v);
    const n = sizeArg(Number(numberOf(a[0])), 'slice');
    if (n <= 0) throw new TemplateValueError('slice: the number of slices must be positive');
    // One list per slice, each padded by at most one fill value.
    checkItems(n + items.length + (a.length > 1 ? n : 0), 'slice');
    const per = Math.floor(items.length / n);
    const extra = items.length % n;
    const out: unknown[][] = [];
    let offset = 0;
    for (let i = 0; i < n; i++) {
      const size = per + (i < extra ? 1 : 0);
      const chunk = items.slice(offset, offset + size);
      offset += size;
      if (a.length > 1 && i >= extra && extra) chunk.push(a[1]);
      out.push(chunk);
    }
    return out;
  },
  sort: (v, a, kw) => {
    const attr = argOf(a, kw, 2, 'attribute', null);
    const cs = truthy(argOf(a, kw, 1, 'case_sensitive', false));
    return sorted(iterate(v), (x) => sortKey(attr === null ? x : attrPath(x, attr), cs), truthy(argOf(a, kw, 0, 'reverse', false)));
  },
  striptags: (v) => stripTags(pyStr(v)),
  sum: (v, a, kw) => {
    const attr = argOf(a, kw, 0, 'attribute', null);
    let total: unknown = argOf(a, kw, 1, 'start', 0);
    const items = iterate(v);
    charge(items.length);
    for (const x of items) total = host_add(total, attr === null ? x : attrPath(x, attr));
    return total;
  },
  title: (v) => pyStr(v).replace(/[\w']+/g, (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()),
  tojson: (v, a, kw) => {
    const indent = argOf(a, kw, 0, 'indent', null);
    const text = indent === null ? jsonDumps(v, true) : jsonDumps(v, true, sizeArg(Number(numberOf(indent)), 'tojson'));
    // Jinja's htmlsafe_json_dumps escapes these characters.
    return text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/'/g, '\\u0027');
  },
  trim: (v, a) => {
    const s = pyStr(v);
    if (a[0] === undefined || a[0] === null) return s.trim();
    const chars = new Set(pyStr(a[0]));
    let i = 0;
    let j = s.length;
    while (i < j && chars.has(s[i])) i++;
    while (j > i && chars.has(s[j - 1])) j--;
    return s.slice(i, j);
  },
  truncate: (v, a, kw) => {
    const s = pyStr(v);
    const length = Number(numberOf(argOf(a, kw, 0, 'length', 255)));
    const killwords = truthy(argOf(a, kw, 1, 'killwords', false));
    const end = pyStr(argOf(a, kw, 2, 'end', '...'));
    const leeway = Number(numberOf(argOf(a, kw, 3, 'leeway', 5)));
    if (s.length <= length + leeway) return s;
    if (killwords) return s.slice(0, length - end.length) + end;
    const cut = s.slice(0, length - end.length);
    const idx = cut.lastIndexOf(' ');
    return (idx >= 0 ? cut.slice(0, idx) : cut) + end;
  },
  unique: (v, a, kw) => {
    const cs = truthy(argOf(a, kw, 0, 'case_sensitive', false));
    const attr = argOf(a, kw, 1, 'attribute', null);
    // Strings and numbers are found in a Map (linear time); other keys are compared one by one.
    const seenScalars = new Set<string>();
    const seen: unknown[] = [];
    const out: unknown[] = [];
    for (const x of iterate(v)) {
      const k = sortKey(attr === null ? x : attrPath(x, attr), cs);
      const scalar = typeof k === 'string' ? `s${k}` : numberOf(k) !== undefined ? `n${numberOf(k)}` : k === null ? 'none' : null;
      if (scalar !== null) {
        charge(1);
        if (seenScalars.has(scalar)) continue;
        seenScalars.add(scalar);
        out.push(x);
      } else if (!seen.some((s) => compareOp('==', s, k))) {
        seen.push(k);
        out.push(x);
      }
    }
    return out;
  },
  urlencode: (v) => {
    if (typeof v === 'string') return urlQuote(v, false);
    const pairs = isDict(v)
      ? Object.keys(v).map((k) => [k, v[k]] as const)
      : iterate(v).map((p) => (p instanceof PyTuple ? ([p.items[0], p.items[1]] as const) : ([p, ''] as const)));
    const out = new TextBuilder('urlencode');
    pairs.forEach(([k, x], i) => out.add(`${i ? '&' : ''}${urlQuote(k, true)}=${urlQuote(x, true)}`));
    return out.toString();
  },
  wordcount: (v) => (pyStr(v).match(/\w+/g) ?? []).length,
  urlize: (v) => htmlEscape(pyStr(v)),
  wordwrap: (v, a, kw) => {
    const width = Number(numberOf(argOf(a, kw, 0, 'width', 79)));
    checkText(pyStr(v).length * 2, 'wordwrap');
    const out: string[] = [];
    for (const para of pyStr(v).split('\n')) {
      let line = '';
      for (const word of para.split(/\s+/).filter(Boolean)) {
        if (line && line.length + 1 + word.length > width) {
          out.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      out.push(line);
    }
    return out.join('\n');
  },
  xmlattr: (v) => {
    if (!isDict(v)) throw new TemplateValueError('xmlattr expects a mapping');
    const out = new TextBuilder('xmlattr');
    for (const k of Object.keys(v))
      if (v[k] !== null && !(v[k] instanceof Undefined)) out.add(` ${htmlEscape(k)}="${htmlEscape(pyStr(v[k]))}"`);
    return out.toString();
  },
  groupby: (v, a, kw) => {
    const attr = argOf(a, kw, 0, 'attribute', null);
    const groups: { key: unknown; list: unknown[] }[] = [];
    // Like itertools.groupby after the sort: equal keys are adjacent, so only the last group can match.
    for (const x of sorted(iterate(v), (x) => attrPath(x, attr), false)) {
      const k = attrPath(x, attr);
      const g = groups.length ? groups[groups.length - 1] : undefined;
      if (g && compareOp('==', g.key, k)) g.list.push(x);
      else groups.push({ key: k, list: [x] });
    }
    return groups.map((g) => new PyTuple([g.key, g.list]));
  },
};
JINJA_FILTERS.d = JINJA_FILTERS.default;
JINJA_FILTERS.e = JINJA_FILTERS.escape;

/** Jinja's striptags in one linear pass: comments and tags removed, whitespace runs collapsed. */
function stripTags(s: string): string {
  chargeTextOf(s);
  let text = '';
  let i = 0;
  // Once a search for `-->` or `>` fails, no later one can succeed: remembering that keeps this linear.
  let commentsClose = true;
  let tagsClose = true;
  while (i < s.length) {
    if (s[i] === '<') {
      if (commentsClose && s.startsWith('<!--', i)) {
        const end = s.indexOf('-->', i + 4);
        if (end >= 0) {
          i = end + 3;
          continue;
        }
        commentsClose = false;
      }
      if (tagsClose) {
        const end = s.indexOf('>', i + 1);
        if (end >= 0) {
          i = end + 1;
          continue;
        }
        tagsClose = false;
      }
    }
    // An unclosed `<` or `<!--` stays as text; the next scan starts after it, so no stretch is scanned twice.
    const next = s.indexOf('<', i + 1);
    const stop = next < 0 ? s.length : next;
    text += s.slice(i, stop);
    i = stop;
  }
  return text.split(/\s+/).filter(Boolean).join(' ');
}

function chargeTextOf(s: string): void {
  checkText(s.length, 'striptags');
}

function host_add(a: unknown, b: unknown): unknown {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x === undefined || y === undefined)
    throw new TemplateValueError(`unsupported operand type(s) for +: '${typeName(a)}' and '${typeName(b)}'`);
  return isFloat(a) || isFloat(b) ? makeFloat(x + y) : x + y;
}

// Sandboxed attribute and item access (Jinja's SandboxedEnvironment getattr/getitem) and the Python
// methods templates may call on dicts, lists, strings and datetimes. Names starting with `_` are
// unreachable (§3.1; `_partition` excepted), and nothing of the JS object model is ever exposed.
import { PyDate, PyDateTime, PyTimedelta } from './datetime';
import { strftime } from './datetimeFormat';
import {
  type PyDict,
  PyFloat,
  PyFunction,
  PyTuple,
  TemplateValueError,
  Undefined,
  UndefinedAccessError,
  hasKey,
  isDict,
  iterate,
  makeFloat,
  numberOf,
  pyEquals,
  pyStr,
  typeName,
} from './values';
import { charge, checkItems, checkText, chargeText, sizeArg, splitForReplace, TextBuilder } from './limits';

/** `namespace()` objects: attribute bags assignable with `{% set ns.x = … %}`. */
export class Namespace {
  readonly attrs: Map<string, unknown> = new Map();
}

type Method = (self: never, args: unknown[], kw: Record<string, unknown>) => unknown;

function arg(args: unknown[], kw: Record<string, unknown>, i: number, name: string, dflt?: unknown): unknown {
  if (i < args.length) return args[i];
  if (hasKey(kw, name)) return kw[name];
  if (dflt === undefined) throw new TemplateValueError(`missing required argument '${name}'`);
  return dflt;
}

function str(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new TemplateValueError(`${what} must be str, not ${typeName(v)}`);
  return v;
}

function splitPy(s: string, sep: unknown, max: number, fromRight: boolean): string[] {
  chargeText(s.length);
  if (sep === null || sep === undefined) {
    const parts = s.split(/\s+/).filter((p) => p !== '');
    if (max < 0 || parts.length <= max + 1) return parts;
    if (fromRight) {
      const head = s.trimEnd();
      const tail = parts.slice(parts.length - max);
      const cut = head.length - tail.join(' ').length;
      return [head.slice(0, Math.max(cut, 0)).trimEnd(), ...tail];
    }
    const rest = s.trimStart();
    let idx = 0;
    for (let n = 0; n < max; n++) idx = rest.indexOf(parts[n], idx) + parts[n].length;
    return [...parts.slice(0, max), rest.slice(idx).trimStart()];
  }
  const d = str(sep, 'separator');
  if (d === '') throw new TemplateValueError('empty separator');
  const all = s.split(d);
  if (max < 0 || all.length <= max + 1) return all;
  return fromRight
    ? [all.slice(0, all.length - max).join(d), ...all.slice(all.length - max)]
    : [...all.slice(0, max), all.slice(max).join(d)];
}

function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  const set = chars === null || chars === undefined ? null : new Set(str(chars, 'chars'));
  const strip = (c: string) => (set === null ? /\s/.test(c) : set.has(c));
  let a = 0;
  let b = s.length;
  if (left) while (a < b && strip(s[a])) a++;
  if (right) while (b > a && strip(s[b - 1])) b--;
  return s.slice(a, b);
}

const STR_METHODS: Record<string, Method> = {
  split: (s: string, a, kw) => splitPy(s, arg(a, kw, 0, 'sep', null), Number(arg(a, kw, 1, 'maxsplit', -1)), false),
  rsplit: (s: string, a, kw) => splitPy(s, arg(a, kw, 0, 'sep', null), Number(arg(a, kw, 1, 'maxsplit', -1)), true),
  strip: (s: string, a) => stripChars(s, a[0], true, true),
  lstrip: (s: string, a) => stripChars(s, a[0], true, false),
  rstrip: (s: string, a) => stripChars(s, a[0], false, true),
  lower: (s: string) => s.toLowerCase(),
  upper: (s: string) => s.toUpperCase(),
  title: (s: string) => s.toLowerCase().replace(/(^|[^A-Za-z])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase()),
  capitalize: (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(),
  replace: (s: string, a) => {
    const old = str(a[0], 'old');
    const rep = str(a[1], 'new');
    const count = a.length > 2 ? Number(numberOf(a[2])) : -1;
    const parts = splitForReplace(s, old, rep, count);
    if (count < 0 || parts.length - 1 <= count) return parts.join(rep);
    return parts.slice(0, count + 1).join(rep) + old + parts.slice(count + 1).join(old);
  },
  startswith: (s: string, a) => (a[0] instanceof PyTuple ? a[0].items : [a[0]]).some((p) => s.startsWith(str(p, 'prefix'))),
  endswith: (s: string, a) => (a[0] instanceof PyTuple ? a[0].items : [a[0]]).some((p) => s.endsWith(str(p, 'suffix'))),
  join: (s: string, a) => {
    const out = new TextBuilder('str.join');
    iterate(a[0]).forEach((x, i) => {
      if (typeof x !== 'string') throw new TemplateValueError(`sequence item ${i}: expected str instance, ${typeName(x)} found`);
      if (i > 0) out.add(s);
      out.add(x);
    });
    return out.toString();
  },
  find: (s: string, a) => (chargeText(s.length), s.indexOf(str(a[0], 'sub'))),
  rfind: (s: string, a) => (chargeText(s.length), s.lastIndexOf(str(a[0], 'sub'))),
  index: (s: string, a) => {
    chargeText(s.length);
    const i = s.indexOf(str(a[0], 'sub'));
    if (i < 0) throw new TemplateValueError('substring not found');
    return i;
  },
  count: (s: string, a) => (chargeText(s.length), s.split(str(a[0], 'sub')).length - 1),
  isdigit: (s: string) => /^\d+$/.test(s),
  isnumeric: (s: string) => /^\p{N}+$/u.test(s),
  isalpha: (s: string) => /^\p{L}+$/u.test(s),
  isalnum: (s: string) => /^[\p{L}\p{N}]+$/u.test(s),
  islower: (s: string) => /[a-z]/.test(s) && s === s.toLowerCase(),
  isupper: (s: string) => /[A-Z]/.test(s) && s === s.toUpperCase(),
  zfill: (s: string, a) => {
    const width = sizeArg(Number(numberOf(a[0])), 'zfill');
    checkText(Math.max(width, s.length), 'zfill');
    const sign = s[0] === '-' || s[0] === '+' ? s[0] : '';
    return sign + s.slice(sign.length).padStart(width - sign.length, '0');
  },
  splitlines: (s: string) => s.split(/\r\n|\r|\n/).filter((x, i, all) => i < all.length - 1 || x !== ''),
  removeprefix: (s: string, a) => (s.startsWith(str(a[0], 'prefix')) ? s.slice((a[0] as string).length) : s),
  removesuffix: (s: string, a) => (a[0] !== '' && s.endsWith(str(a[0], 'suffix')) ? s.slice(0, s.length - (a[0] as string).length) : s),
  format: (s: string, a, kw) => {
    let auto = 0;
    // Every field may insert a long value: the result is built with a bound.
    const out = new TextBuilder('str.format');
    const field = /\{\{|\}\}|\{([^{}]*)\}/g;
    let last = 0;
    for (let m = field.exec(s); m; m = field.exec(s)) {
      out.add(s.slice(last, m.index));
      last = m.index + m[0].length;
      const key = m[1] ?? '';
      if (m[0] === '{{') out.add('{');
      else if (m[0] === '}}') out.add('}');
      else if (key === '') out.add(pyStr(a[auto++]));
      else if (/^\d+$/.test(key)) out.add(pyStr(a[Number(key)]));
      else if (!hasKey(kw, key)) throw new TemplateValueError(`KeyError: '${key}'`);
      else out.add(pyStr(kw[key]));
    }
    out.add(s.slice(last));
    return out.toString();
  },
};

const DICT_METHODS: Record<string, Method> = {
  get: (d: PyDict, a) => {
    const key = a[0];
    return typeof key === 'string' && hasKey(d, key) ? d[key] : a.length > 1 ? a[1] : null;
  },
  keys: (d: PyDict) => (charge(Object.keys(d).length), Object.keys(d)),
  values: (d: PyDict) => (charge(Object.keys(d).length), Object.keys(d).map((k) => d[k])),
  items: (d: PyDict) => (charge(Object.keys(d).length), Object.keys(d).map((k) => new PyTuple([k, d[k]]))),
  copy: (d: PyDict) => (charge(Object.keys(d).length), { ...d }),
  update: (d: PyDict, a, kw) => {
    const src = a[0] === undefined ? {} : a[0];
    if (!isDict(src)) throw new TemplateValueError('dict.update expects a mapping');
    charge(Object.keys(src).length);
    for (const k of Object.keys(src)) defineKey(d, k, src[k]);
    for (const k of Object.keys(kw)) defineKey(d, k, kw[k]);
    return null;
  },
  pop: (d: PyDict, a) => {
    const key = String(a[0]);
    if (hasKey(d, key)) {
      const v = d[key];
      delete d[key];
      return v;
    }
    if (a.length > 1) return a[1];
    throw new TemplateValueError(`KeyError: '${key}'`);
  },
  setdefault: (d: PyDict, a) => {
    const key = String(a[0]);
    if (!hasKey(d, key)) defineKey(d, key, a.length > 1 ? a[1] : null);
    return d[key];
  },
};

const LIST_METHODS: Record<string, Method> = {
  append: (l: unknown[], a) => {
    checkItems(l.length + 1, 'list.append');
    l.push(a[0]);
    return null;
  },
  extend: (l: unknown[], a) => {
    const extra = iterate(a[0]);
    checkItems(l.length + extra.length, 'list.extend');
    for (const x of [...extra]) l.push(x);
    return null;
  },
  insert: (l: unknown[], a) => {
    checkItems(l.length + 1, 'list.insert');
    l.splice(Number(numberOf(a[0])), 0, a[1]);
    return null;
  },
  pop: (l: unknown[], a) => {
    if (l.length === 0) throw new TemplateValueError('pop from empty list');
    const i = a.length ? Number(numberOf(a[0])) : -1;
    return l.splice(i < 0 ? l.length + i : i, 1)[0];
  },
  index: (l: unknown[], a) => {
    const i = l.findIndex((x) => pyEquals(x, a[0]));
    if (i < 0) throw new TemplateValueError(`${pyStr(a[0])} is not in list`);
    return i;
  },
  count: (l: unknown[], a) => l.filter((x) => pyEquals(x, a[0])).length,
  copy: (l: unknown[]) => (checkItems(l.length, 'list.copy'), [...l]),
};

/** Sets a key on a dict without ever touching the prototype chain. */
export function defineKey(d: PyDict, key: string, value: unknown): void {
  Object.defineProperty(d, key, { value, writable: true, enumerable: true, configurable: true });
}

function datetimeAttr(d: PyDate, name: string): unknown {
  const dt = d instanceof PyDateTime ? d : null;
  const bind = (fn: (args: unknown[], kw: Record<string, unknown>) => unknown) => new PyFunction(name, fn);
  switch (name) {
    case 'year':
      return d.year;
    case 'month':
      return d.month;
    case 'day':
      return d.day;
    case 'strftime':
      return bind((a) => strftime(d, str(a[0], 'format')));
    case 'isoformat':
      return bind((a, kw) => (dt ? dt.isoformat(String(arg(a, kw, 0, 'sep', 'T'))) : d.isoformat()));
    case 'weekday':
      return bind(() => d.weekday());
    case 'isoweekday':
      return bind(() => d.weekday() + 1);
    case 'date':
      return dt ? bind(() => dt.date()) : undefined;
    case 'timestamp':
      return dt ? bind(() => makeFloat(dt.timestamp())) : undefined;
    case 'replace':
      return bind((_a, kw) => {
        const f = {
          year: d.year,
          month: d.month,
          day: d.day,
          hour: dt?.hour ?? 0,
          minute: dt?.minute ?? 0,
          second: dt?.second ?? 0,
          microsecond: dt?.microsecond ?? 0,
        };
        for (const k of Object.keys(kw)) {
          if (k === 'tzinfo') continue;
          if (!(k in f)) throw new TemplateValueError(`'${k}' is an invalid keyword argument for replace()`);
          (f as Record<string, number>)[k] = Number(numberOf(kw[k]));
        }
        if (!dt) return new PyDate(f.year, f.month, f.day);
        const offset = hasKey(kw, 'tzinfo') ? (kw.tzinfo === null ? null : 0) : dt.offsetMinutes;
        return PyDateTime.of(f.year, f.month, f.day, f.hour, f.minute, f.second, f.microsecond, offset);
      });
    case 'astimezone':
      return dt ? bind(() => dt.toOffset(0)) : undefined;
  }
  if (dt) {
    switch (name) {
      case 'hour':
        return dt.hour;
      case 'minute':
        return dt.minute;
      case 'second':
        return dt.second;
      case 'microsecond':
        return dt.microsecond;
    }
  }
  return undefined;
}

function timedeltaAttr(td: PyTimedelta, name: string): unknown {
  switch (name) {
    case 'days':
      return td.days;
    case 'seconds':
      return td.seconds;
    case 'microseconds':
      return td.microseconds;
    case 'total_seconds':
      return new PyFunction(name, () => makeFloat(td.totalSeconds()));
  }
  return undefined;
}

function methodOf(table: Record<string, Method>, self: unknown, name: string): PyFunction | undefined {
  if (!Object.hasOwn(table, name)) return undefined;
  const fn = table[name];
  return new PyFunction(name, (args, kw) => fn(self as never, args, kw));
}

function missing(obj: unknown, name: string): Undefined {
  const owner = obj === null ? "'None'" : `'${typeName(obj)} object'`;
  return new Undefined(`${owner} has no attribute '${name}'`);
}

/** The attributes of a Python dict whose names start with `_` (all dunders); the sandbox refuses them even when the dict has such a key. */
const DICT_DUNDERS: ReadonlySet<string> = new Set([
  '__class__',
  '__class_getitem__',
  '__contains__',
  '__delattr__',
  '__delitem__',
  '__dir__',
  '__doc__',
  '__eq__',
  '__format__',
  '__ge__',
  '__getattribute__',
  '__getitem__',
  '__getstate__',
  '__gt__',
  '__hash__',
  '__init__',
  '__init_subclass__',
  '__ior__',
  '__iter__',
  '__le__',
  '__len__',
  '__lt__',
  '__ne__',
  '__new__',
  '__or__',
  '__reduce__',
  '__reduce_ex__',
  '__repr__',
  '__reversed__',
  '__ror__',
  '__setattr__',
  '__setitem__',
  '__sizeof__',
  '__str__',
  '__subclasshook__',
]);

/** `obj.name` in a template: attribute first, then item (Jinja getattr), sandboxed. */
export function getAttr(obj: unknown, name: string): unknown {
  if (obj instanceof Undefined) throw new UndefinedAccessError(obj.hint || `undefined value has no attribute '${name}'`);
  // Spec §3.1: attributes starting with '_' are unsafe in the sandbox; `_partition` is whitelisted.
  // Jinja's sandbox only refuses attributes that exist on the Python object: a dict has no attribute
  // `_links`, so `response._links` falls back to the item (HAL APIs). Dict dunders stay refused.
  if (name.startsWith('_') && name !== '_partition') {
    if (isDict(obj) && !DICT_DUNDERS.has(name) && hasKey(obj, name)) return obj[name];
    return missing(obj, name);
  }
  let found: unknown;
  if (typeof obj === 'string') found = methodOf(STR_METHODS, obj, name);
  else if (Array.isArray(obj)) found = methodOf(LIST_METHODS, obj, name);
  else if (obj instanceof PyTuple) found = name === 'index' || name === 'count' ? methodOf(LIST_METHODS, obj.items, name) : undefined;
  else if (obj instanceof PyDate) found = datetimeAttr(obj, name);
  else if (obj instanceof PyTimedelta) found = timedeltaAttr(obj, name);
  else if (obj instanceof Namespace) return obj.attrs.has(name) ? obj.attrs.get(name) : missing(obj, name);
  else if (obj instanceof PyFloat || typeof obj === 'number') found = name === 'real' ? obj : name === 'imag' ? 0 : undefined;
  else if (isDict(obj)) {
    found = methodOf(DICT_METHODS, obj, name);
    if (found === undefined && hasKey(obj, name)) return obj[name];
  }
  if (found !== undefined) return found;
  if (isDict(obj) || Array.isArray(obj) || typeof obj === 'string' || obj instanceof PyTuple)
    return getItemOnly(obj, name) ?? missing(obj, name);
  return missing(obj, name);
}

function getItemOnly(obj: unknown, key: unknown): unknown {
  if (isDict(obj)) return typeof key === 'string' && hasKey(obj, key) ? obj[key] : undefined;
  if (typeof obj === 'string') chargeText(obj.length);
  const seq = typeof obj === 'string' ? [...obj] : Array.isArray(obj) ? obj : obj instanceof PyTuple ? obj.items : null;
  if (seq && (typeof key === 'number' || typeof key === 'boolean') && Number.isInteger(Number(key))) {
    const i = Number(key) < 0 ? seq.length + Number(key) : Number(key);
    return i >= 0 && i < seq.length ? seq[i] : undefined;
  }
  return undefined;
}

/** `obj[key]` in a template: item first, then attribute for string keys (Jinja getitem), sandboxed. */
export function getItem(obj: unknown, key: unknown): unknown {
  if (obj instanceof Undefined) throw new UndefinedAccessError(obj.hint || `undefined value has no item ${pyStr(key)}`);
  const found = getItemOnly(obj, key);
  if (found !== undefined) return found;
  if (typeof key === 'string') return getAttr(obj, key);
  const owner = obj === null ? "'None'" : `'${typeName(obj)} object'`;
  return new Undefined(`${owner} has no element ${pyStr(key)}`);
}

/** Python slicing of str, list and tuple. */
export function sliceValue(obj: unknown, lo: unknown, hi: unknown, step: unknown): unknown {
  if (obj instanceof Undefined) throw new UndefinedAccessError(obj.hint);
  if (typeof obj === 'string') chargeText(obj.length);
  const seq = typeof obj === 'string' ? [...obj] : Array.isArray(obj) ? obj : obj instanceof PyTuple ? obj.items : null;
  if (!seq) throw new TemplateValueError(`'${typeName(obj)}' object is not subscriptable`);
  const n = seq.length;
  const st = step === null ? 1 : Number(numberOf(step));
  if (st === 0) throw new TemplateValueError('slice step cannot be zero');
  const norm = (v: unknown, dflt: number): number => {
    if (v === null) return dflt;
    let i = Number(numberOf(v));
    if (i < 0) i += n;
    return st > 0 ? Math.min(Math.max(i, 0), n) : Math.min(Math.max(i, -1), n - 1);
  };
  const start = norm(lo, st > 0 ? 0 : n - 1);
  const stop = norm(hi, st > 0 ? n : -1);
  charge(Math.max(0, Math.ceil((stop - start) / st)));
  const out: unknown[] = [];
  for (let i = start; st > 0 ? i < stop : i > stop; i += st) out.push(seq[i]);
  if (typeof obj === 'string') return out.join('');
  return obj instanceof PyTuple ? new PyTuple(out) : out;
}

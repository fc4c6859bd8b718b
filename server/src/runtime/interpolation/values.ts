// The Python value model templates compute with: JS values stand for Python ones (null = None,
// arrays = lists, plain objects = dicts, integral numbers = int) plus wrappers for what JS lacks
// (float, tuple, Jinja's Undefined, callables). Also Python's str()/repr(), truthiness and equality.
import { PyDate, PyDateTime, PyDuration, PyTimedelta } from './datetime';
import { charge, chargeText, TextBuilder } from './limits';
import { setOwn } from '../shared/safeObject';

/** A Python float whose value is integral (`1.0`); non-integral JS numbers are floats already. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Jinja's lenient Undefined: renders empty, is falsy, iterates empty; any access through it raises. */
export class Undefined {
  constructor(readonly hint: string) {}
}

/** A Python tuple (immutable sequence; renders with parentheses). */
export class PyTuple {
  constructor(readonly items: unknown[]) {}
}

/** A Python callable reachable from a template (macro, global or bound method). */
export class PyFunction {
  constructor(
    readonly name: string,
    readonly call: (args: unknown[], kwargs: Record<string, unknown>) => unknown,
  ) {}
}

/** Jinja's `self` (TemplateReference): renders `<TemplateReference None>`; templates here define no blocks. */
export class TemplateReference {}

// The two internal error classes below are not JS Errors on purpose: they are thrown and caught on
// hot paths (undefined chains, literal fallbacks), and capturing stack traces would dominate the cost.
// jinja.ts converts them to RuntimeError before they leave the module.

/** Raised for Jinja's UndefinedError (chained access through an undefined value). */
export class UndefinedAccessError {
  constructor(readonly message: string) {}
}
// TemplateValueError lives in its own module so the work meter (limits.ts) can raise it without importing this one.
import { TemplateValueError } from './templateValueError';
export { TemplateValueError };

export type PyDict = Record<string, unknown>;

export function isDict(v: unknown): v is PyDict {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v));
}

/** Number value of an int/float/bool, or undefined when `v` is not numeric. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** Builds a float result, keeping float-ness when the number is integral. */
export function makeFloat(n: number): number | PyFloat {
  return Number.isInteger(n) ? new PyFloat(n) : n;
}

/** Own, safe keys of a dict (never inherited ones). */
export function hasKey(d: PyDict, key: string): boolean {
  return Object.hasOwn(d, key);
}

/** Python's type name of a value, for error messages. */
export function typeName(v: unknown): string {
  if (v === null) return 'NoneType';
  if (v instanceof Undefined) return 'Undefined';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (v instanceof PyFloat) return 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof Set) return 'set';
  if (v instanceof PyDateTime) return 'datetime';
  if (v instanceof PyDate) return 'date';
  if (v instanceof PyTimedelta) return 'timedelta';
  if (v instanceof PyDuration) return 'Duration';
  if (v instanceof PyFunction) return 'function';
  if (isDict(v)) return 'dict';
  return 'object';
}

/** Python truthiness (Undefined is falsy). */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v instanceof Undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (v instanceof PyFloat) return v.value !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof Set) return v.size > 0;
  if (v instanceof PyTimedelta) return v.totalMicroseconds() !== 0n;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}

/** Python `==` (0 == False == 0.0, lists/dicts compare deeply, Undefined equals only Undefined). */
export function pyEquals(a: unknown, b: unknown): boolean {
  // Deep comparison walks shared sub-lists again on every path: each visit is work.
  charge(1);
  if (a instanceof Undefined || b instanceof Undefined) return a instanceof Undefined && b instanceof Undefined;
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (a instanceof PyTuple && b instanceof PyTuple) return pyEquals(a.items, b.items);
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((x) => [...b].some((y) => pyEquals(x, y)));
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => hasKey(b, k) && pyEquals(a[k], b[k]));
  }
  if (a instanceof PyDateTime && b instanceof PyDateTime) return a.compare(b) === 0;
  if (a instanceof PyDate && b instanceof PyDate && !(a instanceof PyDateTime) && !(b instanceof PyDateTime))
    return a.ordinal() === b.ordinal();
  if (a instanceof PyTimedelta && b instanceof PyTimedelta) return a.totalMicroseconds() === b.totalMicroseconds();
  return a === b;
}

/** Python's repr() of a float: shortest round-trip digits, `.0` for integral values, `1e+16` style exponents. */
export function floatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(n);
  if (abs >= 1e16 || abs < 1e-4) {
    const [mant, exp] = n.toExponential().split('e');
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const s = String(n);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

/** Python's repr() of a str: single quotes unless the text has ' and no ". */
export function strRepr(s: string): string {
  chargeText(s.length);
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}

/** Python's repr() of any template value (used inside containers). */
export function pyRepr(v: unknown): string {
  if (typeof v === 'string') return strRepr(v);
  if (v instanceof PyDateTime) return v.repr();
  if (v instanceof PyDate) return `datetime.date(${v.year}, ${v.month}, ${v.day})`;
  if (v instanceof PyTimedelta) return v.repr();
  // Jinja's Undefined renders empty on its own but is `Undefined` inside a container (`[Undefined]`: a
  // `map(attribute=…)` over items without that attribute, source-linear's teamIds).
  if (v instanceof Undefined) return 'Undefined';
  if (isContainer(v)) return containerText(v);
  return pyStr(v);
}

function isContainer(v: unknown): boolean {
  return Array.isArray(v) || v instanceof PyTuple || v instanceof Set || isDict(v);
}

/** str() of a list, tuple, set or dict, built with a bound: a list of a million references to one big value stops early. */
function containerText(v: unknown): string {
  const out = new TextBuilder('str() of a container');
  writeRepr(out, v);
  return out.toString();
}

function writeRepr(out: TextBuilder, v: unknown): void {
  charge(1);
  if (!isContainer(v)) {
    out.add(pyRepr(v));
    return;
  }
  const writeItems = (items: Iterable<unknown>, open: string, close: string) => {
    out.add(open);
    let first = true;
    for (const x of items) {
      if (!first) out.add(', ');
      first = false;
      writeRepr(out, x);
    }
    out.add(close);
  };
  if (Array.isArray(v)) writeItems(v, '[', ']');
  else if (v instanceof PyTuple) writeItems(v.items, '(', v.items.length === 1 ? ',)' : ')');
  else if (v instanceof Set) {
    if (v.size === 0) out.add('set()');
    else writeItems(v, '{', '}');
  } else {
    const d = v as PyDict;
    out.add('{');
    let first = true;
    for (const k of Object.keys(d)) {
      if (!first) out.add(', ');
      first = false;
      out.add(strRepr(k));
      out.add(': ');
      writeRepr(out, d[k]);
    }
    out.add('}');
  }
}

/** Python's str() of a template value: what `{{ value }}` renders. */
export function pyStr(v: unknown): string {
  if (v === null) return 'None';
  if (v === undefined || v instanceof Undefined) return '';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? (Math.abs(v) < 1e21 ? BigInt(v).toString() : floatRepr(v)) : floatRepr(v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (typeof v === 'string') return v;
  if (isContainer(v)) return containerText(v);
  if (v instanceof PyDateTime || v instanceof PyDate || v instanceof PyTimedelta || v instanceof PyDuration) return v.toString();
  if (v instanceof PyFunction) return `<function ${v.name}>`;
  if (v instanceof TemplateReference) return '<TemplateReference None>';
  return '<object>';
}

/**
 * Converts a computed value to plain JSON-like JS for callers (floats → numbers, tuples/sets → arrays, huge
 * ints → digit strings). `keepFloats` keeps integral floats as PyFloat, for callers that serialise the value
 * as Python does (a JSON body or a header carries `1710028800000.0`, not `1710028800000`).
 */
export function toPlain(v: unknown, keepFloats = false): unknown {
  if (v instanceof PyFloat) return keepFloats ? v : v.value;
  // JS numbers cannot hold Python ints beyond ±2^53 exactly: callers get the exact digits as text.
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Undefined) return null;
  if (Array.isArray(v)) return v.map((x) => toPlain(x, keepFloats));
  if (v instanceof PyTuple) return v.items.map((x) => toPlain(x, keepFloats));
  if (v instanceof Set) return [...v].map((x) => toPlain(x, keepFloats));
  if (isDict(v)) {
    const out: PyDict = {};
    for (const k of Object.keys(v)) setOwn(out, k, toPlain(v[k], keepFloats));
    return out;
  }
  if (v instanceof PyDateTime || v instanceof PyDate || v instanceof PyTimedelta || v instanceof PyDuration) return v.toString();
  return v;
}

/** Iterates a Python iterable (dict → keys, str → characters); throws TemplateValueError otherwise. */
export function iterate(v: unknown): unknown[] {
  if (v instanceof Undefined) return [];
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (v instanceof Set) return [...v];
  if (typeof v === 'string') {
    charge(v.length);
    return [...v];
  }
  if (isDict(v)) return Object.keys(v);
  throw new TemplateValueError(`'${typeName(v)}' object is not iterable`, 'TypeError');
}

/** Python len(); Undefined has length 0 as in Jinja. */
export function pyLen(v: unknown): number {
  if (v instanceof Undefined) return 0;
  if (typeof v === 'string') return codePointCount(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyTuple) return v.items.length;
  if (v instanceof Set) return v.size;
  if (isDict(v)) return Object.keys(v).length;
  throw new TemplateValueError(`object of type '${typeName(v)}' has no len()`, 'TypeError');
}

/** Python len() of a str: code points, counted without building an array. */
export function codePointCount(s: string): number {
  chargeText(s.length);
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

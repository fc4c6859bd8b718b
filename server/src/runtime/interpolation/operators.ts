// Python semantics of the binary operators templates use: arithmetic (int vs float results),
// concatenation, datetime/timedelta arithmetic, ordering comparisons and `in`. Type mismatches
// raise TemplateValueError (Python's TypeError), never silently coerce.
import { PyDate, PyDateTime, PyDuration, PyTimedelta } from './datetime';
import {
  PyFloat,
  PyTuple,
  TemplateValueError,
  Undefined,
  UndefinedAccessError,
  hasKey,
  isDict,
  isFloat,
  iterate,
  makeFloat,
  numberOf,
  pyEquals,
  pyStr,
  typeName,
} from './values';
import { charge, checkItems, checkText, TextBuilder } from './limits';

function typeError(op: string, a: unknown, b: unknown): never {
  throw new TemplateValueError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`, 'TypeError');
}

function isNumeric(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v instanceof PyFloat;
}

function numResult(n: number, float: boolean): unknown {
  if (!float && !Number.isSafeInteger(n) && Number.isFinite(n) === false) throw new TemplateValueError('integer result too large');
  return float ? makeFloat(n) : n;
}

/** Evaluates `a <op> b` for + - * / // % ** ~. */
export function binaryOp(op: string, a: unknown, b: unknown): unknown {
  if (op === '~') {
    const l = pyStr(a);
    const r = pyStr(b);
    checkText(l.length + r.length, "'~'");
    return l + r;
  }
  if (a instanceof Undefined || b instanceof Undefined)
    throw new UndefinedAccessError((a instanceof Undefined ? a : (b as Undefined)).hint || 'undefined value in arithmetic');
  if (isNumeric(a) && isNumeric(b)) {
    const x = numberOf(a) as number;
    const y = numberOf(b) as number;
    const float = isFloat(a) || isFloat(b);
    switch (op) {
      case '+':
        return numResult(x + y, float);
      case '-':
        return numResult(x - y, float);
      case '*':
        return numResult(x * y, float);
      case '/':
        if (y === 0) throw new TemplateValueError('division by zero');
        return makeFloat(x / y);
      case '//':
        if (y === 0) throw new TemplateValueError('integer division or modulo by zero');
        return numResult(Math.floor(x / y), float);
      case '%':
        if (y === 0) throw new TemplateValueError('integer division or modulo by zero');
        return numResult(x - y * Math.floor(x / y), float);
      case '**': {
        if (!float && y < 0) return makeFloat(x ** y);
        const r = x ** y;
        if (!Number.isFinite(r)) throw new TemplateValueError('numerical result out of range');
        return numResult(r, float);
      }
    }
  }
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') {
      checkText(a.length + b.length, "'+' on str");
      return a + b;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      checkItems(a.length + b.length, "'+' on list");
      return [...a, ...b];
    }
    if (a instanceof PyTuple && b instanceof PyTuple) {
      checkItems(a.items.length + b.items.length, "'+' on tuple");
      return new PyTuple([...a.items, ...b.items]);
    }
    if (a instanceof PyDate && (b instanceof PyTimedelta || b instanceof PyDuration)) return addToDate(a, b, 1);
    if (b instanceof PyDate && (a instanceof PyTimedelta || a instanceof PyDuration)) return addToDate(b, a, 1);
    if (a instanceof PyTimedelta && b instanceof PyTimedelta) return new PyTimedelta(a.micros + b.micros);
  }
  if (op === '-') {
    if (a instanceof PyDate && (b instanceof PyTimedelta || b instanceof PyDuration)) return addToDate(a, b, -1);
    if (a instanceof PyDateTime && b instanceof PyDateTime) {
      if ((a.offsetMinutes === null) !== (b.offsetMinutes === null))
        throw new TemplateValueError("can't subtract offset-naive and offset-aware datetimes");
      return new PyTimedelta(a.epochMicros() - b.epochMicros());
    }
    if (a instanceof PyDate && b instanceof PyDate && !(a instanceof PyDateTime) && !(b instanceof PyDateTime)) {
      return PyTimedelta.fromParts(a.ordinal() - b.ordinal());
    }
    if (a instanceof PyTimedelta && b instanceof PyTimedelta) return new PyTimedelta(a.micros - b.micros);
  }
  if (op === '*') {
    const [seq, times] = typeof b === 'number' || typeof b === 'boolean' ? [a, Number(b)] : [b, numberOf(a)];
    if (times !== undefined && !isFloat(a) && !isFloat(b) && (typeof seq === 'string' || Array.isArray(seq))) {
      const n = Math.max(0, Math.trunc(times));
      if (typeof seq === 'string') {
        checkText(seq.length * n, "'*' on str");
        return seq.repeat(n);
      }
      checkItems(seq.length * n, "'*' on list");
      const out: unknown[] = [];
      if (seq.length > 0) for (let i = 0; i < n; i++) for (const x of seq) out.push(x);
      return out;
    }
    if (a instanceof PyTimedelta && isNumeric(b)) return new PyTimedelta(BigInt(Math.round(Number(a.micros) * (numberOf(b) as number))));
  }
  if (op === '%' && typeof a === 'string') return percentFormat(a, b);
  return typeError(op, a, b);
}

function addToDate(d: PyDate, delta: PyTimedelta | PyDuration, sign: 1 | -1): PyDate {
  const dt = d instanceof PyDateTime ? d : PyDateTime.of(d.year, d.month, d.day);
  const moved = delta instanceof PyDuration ? delta.applyTo(dt, sign) : dt.plusMicros(BigInt(sign) * delta.micros);
  return d instanceof PyDateTime ? moved : moved.date();
}

/** printf-style `'%s' % value` for the common %s/%d/%f/%r conversions. */
function percentFormat(fmt: string, values: unknown): string {
  const items = values instanceof PyTuple ? values.items : [values];
  let i = 0;
  // Every conversion may insert a long value: the result is built with a bound, not by String.replace.
  const out = new TextBuilder("'%' formatting");
  const directive = /%(\.\d+)?([sdifr%])/g;
  let last = 0;
  for (let m = directive.exec(fmt); m; m = directive.exec(fmt)) {
    out.add(fmt.slice(last, m.index));
    last = m.index + m[0].length;
    const prec = m[1];
    const conv = m[2];
    if (conv === '%') {
      out.add('%');
      continue;
    }
    if (i >= items.length) throw new TemplateValueError('not enough arguments for format string');
    const v = items[i++];
    if (conv === 's') out.add(pyStr(v));
    else if (conv === 'r') out.add(typeof v === 'string' ? `'${v}'` : pyStr(v));
    else {
      const n = numberOf(v);
      if (n === undefined) throw new TemplateValueError(`%${conv} format: a real number is required, not ${typeName(v)}`);
      if (conv === 'f') {
        const digits = prec ? Number(prec.slice(1)) : 6;
        if (digits > 100) throw new TemplateValueError('%f format: precision too large (at most 100 digits)');
        out.add(n.toFixed(digits));
      } else out.add(String(Math.trunc(n)));
    }
  }
  out.add(fmt.slice(last));
  if (i < items.length) throw new TemplateValueError('not all arguments converted during string formatting');
  return out.toString();
}

function ordering(a: unknown, b: unknown): number {
  if (isNumeric(a) && isNumeric(b)) return Math.sign((numberOf(a) as number) - (numberOf(b) as number));
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof PyDateTime && b instanceof PyDateTime) {
    if ((a.offsetMinutes === null) !== (b.offsetMinutes === null))
      throw new TemplateValueError("can't compare offset-naive and offset-aware datetimes");
    return a.compare(b);
  }
  if (a instanceof PyDate && b instanceof PyDate && !(a instanceof PyDateTime) && !(b instanceof PyDateTime))
    return Math.sign(a.ordinal() - b.ordinal());
  if (a instanceof PyTimedelta && b instanceof PyTimedelta) return a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : 0;
  const seqA = Array.isArray(a) ? a : a instanceof PyTuple ? a.items : null;
  const seqB = Array.isArray(b) ? b : b instanceof PyTuple ? b.items : null;
  if (seqA && seqB && Array.isArray(a) === Array.isArray(b)) {
    charge(1);
    for (let i = 0; i < Math.min(seqA.length, seqB.length); i++) {
      if (!pyEquals(seqA[i], seqB[i])) return ordering(seqA[i], seqB[i]);
    }
    return Math.sign(seqA.length - seqB.length);
  }
  throw new TemplateValueError(`'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`, 'TypeError');
}

/** Python `needle in haystack`. */
export function contains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === 'string') {
    if (typeof needle !== 'string')
      throw new TemplateValueError(`'in <string>' requires string as left operand, not ${typeName(needle)}`, 'TypeError');
    checkText(haystack.length, "'in'");
    return haystack.includes(needle);
  }
  if (isDict(haystack)) return typeof needle === 'string' && hasKey(haystack, needle);
  if (haystack instanceof Undefined) throw new UndefinedAccessError(haystack.hint || "argument of type 'Undefined' is not iterable");
  if (haystack === null || typeof haystack !== 'object')
    throw new TemplateValueError(`argument of type '${typeName(haystack)}' is not iterable`, 'TypeError');
  return iterate(haystack).some((x) => pyEquals(x, needle));
}

function ordered(a: unknown, b: unknown): number {
  const u = a instanceof Undefined ? a : b instanceof Undefined ? b : null;
  if (u) throw new UndefinedAccessError(u.hint || 'undefined value in comparison');
  return ordering(a, b);
}

/** Evaluates one comparison operator. */
export function compareOp(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case '==':
      return pyEquals(a, b);
    case '!=':
      return !pyEquals(a, b);
    case '<':
      return ordered(a, b) < 0;
    case '<=':
      return ordered(a, b) <= 0;
    case '>':
      return ordered(a, b) > 0;
    case '>=':
      return ordered(a, b) >= 0;
    case 'in':
      return contains(b, a);
    case 'notin':
      return !contains(b, a);
  }
  throw new TemplateValueError(`unknown operator ${op}`);
}

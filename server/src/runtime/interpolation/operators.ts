// Python semantics of the binary operators templates use: arithmetic (int vs float results),
// concatenation, datetime/timedelta arithmetic, ordering comparisons and `in`. Type mismatches
// raise TemplateValueError (Python's TypeError), never silently coerce.
import { PyDate, PyDateTime, PyDuration, PyTimedelta } from './datetime';
import {
  PyFloat, PyTuple, TemplateValueError, Undefined, UndefinedAccessError, hasKey, isDict, isFloat, iterate,
  makeFloat, numberOf, pyEquals, pyStr, typeName,
} from './values';

/** Longest string or list a single operation may produce (bounded output, §3.1 sandbox goals). */
export const MAX_SEQUENCE = 1_000_000;

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

function checkSize(n: number): void {
  if (n > MAX_SEQUENCE) throw new TemplateValueError(`result too large (more than ${MAX_SEQUENCE} items or characters)`, 'LimitError');
}

/** Evaluates `a <op> b` for + - * / // % ** ~. */
export function binaryOp(op: string, a: unknown, b: unknown): unknown {
  if (op === '~') {
    const s = pyStr(a) + pyStr(b);
    checkSize(s.length);
    return s;
  }
  if (a instanceof Undefined || b instanceof Undefined) throw new UndefinedAccessError((a instanceof Undefined ? a : (b as Undefined)).hint || 'undefined value in arithmetic');
  if (isNumeric(a) && isNumeric(b)) {
    const x = numberOf(a) as number;
    const y = numberOf(b) as number;
    const float = isFloat(a) || isFloat(b);
    switch (op) {
      case '+': return numResult(x + y, float);
      case '-': return numResult(x - y, float);
      case '*': return numResult(x * y, float);
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
      checkSize(a.length + b.length);
      return a + b;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      checkSize(a.length + b.length);
      return [...a, ...b];
    }
    if (a instanceof PyTuple && b instanceof PyTuple) return new PyTuple([...a.items, ...b.items]);
    if (a instanceof PyDate && (b instanceof PyTimedelta || b instanceof PyDuration)) return addToDate(a, b, 1);
    if (b instanceof PyDate && (a instanceof PyTimedelta || a instanceof PyDuration)) return addToDate(b, a, 1);
    if (a instanceof PyTimedelta && b instanceof PyTimedelta) return new PyTimedelta(a.micros + b.micros);
  }
  if (op === '-') {
    if (a instanceof PyDate && (b instanceof PyTimedelta || b instanceof PyDuration)) return addToDate(a, b, -1);
    if (a instanceof PyDateTime && b instanceof PyDateTime) {
      if ((a.offsetMinutes === null) !== (b.offsetMinutes === null)) throw new TemplateValueError("can't subtract offset-naive and offset-aware datetimes");
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
      const n = Math.max(0, times);
      checkSize(seq.length * n);
      return typeof seq === 'string' ? seq.repeat(n) : Array.from({ length: n }, () => seq).flat();
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
  const out = fmt.replace(/%(\.\d+)?([sdifr%])/g, (_m, prec: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    if (i >= items.length) throw new TemplateValueError('not enough arguments for format string');
    const v = items[i++];
    if (conv === 's') return pyStr(v);
    if (conv === 'r') return typeof v === 'string' ? `'${v}'` : pyStr(v);
    const n = numberOf(v);
    if (n === undefined) throw new TemplateValueError(`%${conv} format: a real number is required, not ${typeName(v)}`);
    if (conv === 'f') return n.toFixed(prec ? Number(prec.slice(1)) : 6);
    return String(Math.trunc(n));
  });
  if (i < items.length) throw new TemplateValueError('not all arguments converted during string formatting');
  return out;
}

function ordering(a: unknown, b: unknown): number {
  if (isNumeric(a) && isNumeric(b)) return Math.sign((numberOf(a) as number) - (numberOf(b) as number));
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof PyDateTime && b instanceof PyDateTime) {
    if ((a.offsetMinutes === null) !== (b.offsetMinutes === null)) throw new TemplateValueError("can't compare offset-naive and offset-aware datetimes");
    return a.compare(b);
  }
  if (a instanceof PyDate && b instanceof PyDate && !(a instanceof PyDateTime) && !(b instanceof PyDateTime)) return Math.sign(a.ordinal() - b.ordinal());
  if (a instanceof PyTimedelta && b instanceof PyTimedelta) return a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : 0;
  const seqA = Array.isArray(a) ? a : a instanceof PyTuple ? a.items : null;
  const seqB = Array.isArray(b) ? b : b instanceof PyTuple ? b.items : null;
  if (seqA && seqB && Array.isArray(a) === Array.isArray(b)) {
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
    if (typeof needle !== 'string') throw new TemplateValueError(`'in <string>' requires string as left operand, not ${typeName(needle)}`, 'TypeError');
    return haystack.includes(needle);
  }
  if (isDict(haystack)) return typeof needle === 'string' && hasKey(haystack, needle);
  if (haystack instanceof Undefined) throw new UndefinedAccessError(haystack.hint || "argument of type 'Undefined' is not iterable");
  if (haystack === null || typeof haystack !== 'object') throw new TemplateValueError(`argument of type '${typeName(haystack)}' is not iterable`, 'TypeError');
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
    case '==': return pyEquals(a, b);
    case '!=': return !pyEquals(a, b);
    case '<': return ordered(a, b) < 0;
    case '<=': return ordered(a, b) <= 0;
    case '>': return ordered(a, b) > 0;
    case '>=': return ordered(a, b) >= 0;
    case 'in': return contains(b, a);
    case 'notin': return !contains(b, a);
  }
  throw new TemplateValueError(`unknown operator ${op}`);
}

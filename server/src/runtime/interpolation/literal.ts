// Python's ast.literal_eval over rendered template text (airbyte_cdk/sources/declarative/interpolation/jinja.py): numbers
// (underscores, hex/octal/binary, floats, complex rejected), strings with prefixes, escapes, triple
// quotes and implicit concatenation, True/False/None, lists, tuples, dicts, sets and set().
import { PyFloat, PyTuple, makeFloat } from './values';

/** Python type names a literal can have; used for `valid_types`. */
export type LiteralType = 'int' | 'float' | 'bool' | 'str' | 'list' | 'dict' | 'tuple' | 'set' | 'NoneType' | 'complex' | 'bytes';

/** Parsed literal: its value (ints beyond ±2^53 as bigint, integral floats as PyFloat) and Python type. */
export type LiteralResult = { value: unknown; type: LiteralType };

/** Thrown (as a shared sentinel, no stack trace) when the text is not a Python literal. */
const NOT_LITERAL = Object.freeze({ notLiteral: true });

const MAX_DEPTH = 100;
// Sticky number patterns, compiled once (hot path: rendered dates and ids start with digits).
const PREFIXED_INT = /0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+/y;
const DECIMAL = /(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*|\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?/y;
/** Python refuses int text longer than this (sys.int_info.default_max_str_digits): the text is kept. */
const MAX_INT_DIGITS = 4300;

class LiteralParser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  private skipSpace(inBrackets: boolean): void {
    for (;;) {
      const ch = this.s[this.pos];
      if (ch === ' ' || ch === '\t' || ch === '\f' || (inBrackets && (ch === '\n' || ch === '\r'))) this.pos++;
      else if (ch === '\\' && (this.s[this.pos + 1] === '\n' || this.s.startsWith('\r\n', this.pos + 1)))
        this.pos += this.s[this.pos + 1] === '\n' ? 2 : 3;
      else if (ch === '#') while (this.pos < this.s.length && this.s[this.pos] !== '\n') this.pos++;
      else return;
    }
  }

  parseAll(): LiteralResult {
    while (/[\s]/.test(this.s[this.pos] ?? '') || this.s[this.pos] === '#') {
      if (this.s[this.pos] === '#') this.skipSpace(false);
      else this.pos++;
    }
    const first = this.parseValue(false);
    this.skipSpace(false);
    let result = first;
    if (this.s[this.pos] === ',') {
      const items = [first.value];
      while (this.s[this.pos] === ',') {
        this.pos++;
        this.skipSpace(false);
        if (this.atEnd()) break;
        items.push(this.parseValue(false).value);
        this.skipSpace(false);
      }
      result = { value: new PyTuple(items), type: 'tuple' };
    }
    if (!this.atEnd()) throw NOT_LITERAL;
    return result;
  }

  private atEnd(): boolean {
    const rest = this.s.slice(this.pos);
    return /^(?:\s|#[^\n]*)*$/.test(rest);
  }

  private parseValue(inBrackets: boolean): LiteralResult {
    if (++this.depth > MAX_DEPTH) throw NOT_LITERAL;
    try {
      this.skipSpace(inBrackets);
      const ch = this.s[this.pos];
      if (ch === '+' || ch === '-') {
        this.pos++;
        const inner = this.parseValue(inBrackets);
        if (inner.type !== 'int' && inner.type !== 'float' && inner.type !== 'complex') throw NOT_LITERAL;
        return ch === '+' ? inner : negate(inner);
      }
      const v = this.parseAtom(inBrackets);
      this.skipSpace(inBrackets);
      const op = this.s[this.pos];
      // Python allows `real ± imaginary` here; the result is complex, which §3.3 rejects anyway.
      if ((op === '+' || op === '-') && (v.type === 'int' || v.type === 'float' || v.type === 'complex')) {
        this.pos++;
        const rhs = this.parseValue(inBrackets);
        if (rhs.type !== 'complex') throw NOT_LITERAL;
        return { value: null, type: 'complex' };
      }
      return v;
    } finally {
      this.depth--;
    }
  }

  private parseSequence(close: string): {
    items: LiteralResult[];
    trailingComma: boolean;
    sawColon: boolean;
    pairs: [LiteralResult, LiteralResult][];
  } {
    const items: LiteralResult[] = [];
    const pairs: [LiteralResult, LiteralResult][] = [];
    let trailingComma = false;
    let sawColon = false;
    for (;;) {
      this.skipSpace(true);
      if (this.s[this.pos] === close) {
        this.pos++;
        return { items, trailingComma, sawColon, pairs };
      }
      if (items.length || pairs.length) {
        if (this.s[this.pos] !== ',') throw NOT_LITERAL;
        this.pos++;
        trailingComma = true;
        this.skipSpace(true);
        if (this.s[this.pos] === close) continue;
      }
      trailingComma = false;
      const item = this.parseValue(true);
      this.skipSpace(true);
      if (close === '}' && this.s[this.pos] === ':') {
        if (items.length) throw NOT_LITERAL;
        this.pos++;
        sawColon = true;
        pairs.push([item, this.parseValue(true)]);
      } else {
        if (sawColon) throw NOT_LITERAL;
        items.push(item);
      }
    }
  }

  private parseAtom(inBrackets: boolean): LiteralResult {
    const rest = this.s.slice(this.pos);
    const ch = rest[0];
    if (ch === '[') {
      this.pos++;
      const seq = this.parseSequence(']');
      return { value: seq.items.map((i) => i.value), type: 'list' };
    }
    if (ch === '(') {
      this.pos++;
      const seq = this.parseSequence(')');
      if (seq.items.length === 1 && !seq.trailingComma) return seq.items[0];
      return { value: new PyTuple(seq.items.map((i) => i.value)), type: 'tuple' };
    }
    if (ch === '{') {
      this.pos++;
      const seq = this.parseSequence('}');
      if (seq.sawColon || seq.items.length === 0) {
        const out: Record<string, unknown> = {};
        for (const [k, v] of seq.pairs) {
          if (k.type === 'list' || k.type === 'dict' || k.type === 'set') throw NOT_LITERAL;
          Object.defineProperty(out, keyText(k), { value: v.value, writable: true, enumerable: true, configurable: true });
        }
        return { value: out, type: 'dict' };
      }
      return { value: new Set(seq.items.map((i) => i.value)), type: 'set' };
    }
    const str = /^([rRuUbBfF]{0,2})('''|"""|'|")/.exec(rest);
    if (str && /^(?:[rR]?[bBfF]?|[bBfF]?[rR]?|[uU])$/.test(str[1])) return this.parseStrings(inBrackets);
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name) {
      this.pos += name[0].length;
      if (name[0] === 'True' || name[0] === 'False') return { value: name[0] === 'True', type: 'bool' };
      if (name[0] === 'None') return { value: null, type: 'NoneType' };
      if (name[0] === 'set' && /^\s*\(\s*\)/.test(this.s.slice(this.pos))) {
        this.pos += (/^\s*\(\s*\)/.exec(this.s.slice(this.pos)) as RegExpExecArray)[0].length;
        return { value: new Set(), type: 'set' };
      }
      throw NOT_LITERAL;
    }
    return this.parseNumber();
  }

  private parseNumber(): LiteralResult {
    PREFIXED_INT.lastIndex = this.pos;
    DECIMAL.lastIndex = this.pos;
    const m = PREFIXED_INT.exec(this.s) ?? DECIMAL.exec(this.s);
    if (!m) throw NOT_LITERAL;
    const text = m[0];
    this.pos += text.length;
    if (/^[A-Za-z0-9_.]/.test(this.s[this.pos] ?? '')) throw NOT_LITERAL;
    if (/[jJ]$/.test(text)) return { value: null, type: 'complex' };
    const clean = text.replace(/_/g, '');
    if (/^0[xob]/i.test(clean)) {
      const big = BigInt(clean);
      return { value: intValue(big), type: 'int' };
    }
    if (/[.eE]/.test(clean)) return { value: makeFloat(Number(clean)), type: 'float' };
    // Leading zeros are only valid for zero itself ("000").
    if (/^0\d/.test(clean) && /[1-9]/.test(clean)) throw NOT_LITERAL;
    if (clean.length > MAX_INT_DIGITS) throw NOT_LITERAL;
    return { value: intValue(BigInt(clean)), type: 'int' };
  }

  private parseStrings(inBrackets: boolean): LiteralResult {
    let out = '';
    let isBytes: boolean | null = null;
    for (;;) {
      const m = /^([rRuUbBfF]{0,2})('''|"""|'|")/.exec(this.s.slice(this.pos));
      if (!m) break;
      const prefix = m[1].toLowerCase();
      if (prefix.includes('f')) throw NOT_LITERAL;
      const bytes = prefix.includes('b');
      if (isBytes !== null && isBytes !== bytes) throw NOT_LITERAL;
      isBytes = bytes;
      const quote = m[2];
      this.pos += m[0].length;
      let body = '';
      for (;;) {
        if (this.pos >= this.s.length) throw NOT_LITERAL;
        if (this.s.startsWith(quote, this.pos)) {
          this.pos += quote.length;
          break;
        }
        const c = this.s[this.pos];
        if (quote.length === 1 && (c === '\n' || c === '\r')) throw NOT_LITERAL;
        if (c === '\\' && this.pos + 1 < this.s.length) {
          body += this.s.slice(this.pos, this.pos + 2);
          this.pos += 2;
        } else {
          body += c;
          this.pos++;
        }
      }
      out += prefix.includes('r') ? body : unescape(body);
      this.skipSpace(inBrackets);
    }
    if (isBytes) return { value: null, type: 'bytes' };
    return { value: out, type: 'str' };
  }
}

function keyText(k: LiteralResult): string {
  if (typeof k.value === 'string') return k.value;
  if (k.value instanceof PyFloat) return String(k.value.value);
  return String(k.value);
}

function intValue(big: bigint): number | bigint {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

function negate(r: LiteralResult): LiteralResult {
  if (r.type === 'complex') return r;
  const v = r.value;
  if (typeof v === 'bigint') return { value: intValue(-v), type: 'int' };
  if (v instanceof PyFloat) return { value: new PyFloat(-v.value), type: 'float' };
  return { value: r.type === 'float' ? makeFloat(-(v as number)) : -(v as number) || 0, type: r.type };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

function unescape(body: string): string {
  return body.replace(/\\(\r\n|\n|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}]*\}|[\s\S])/g, (m, e: string) => {
    if (e === '\n' || e === '\r\n') return '';
    if (e in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[e];
    if (/^[0-7]/.test(e)) return String.fromCodePoint(parseInt(e, 8));
    if (/^[xuU]/.test(e) && e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (e.startsWith('N{')) throw NOT_LITERAL;
    if (e === 'x' || e === 'u' || e === 'U') throw NOT_LITERAL;
    return m;
  });
}

/** ast.literal_eval(text) after Python's lstrip(" \t"); null when the text is not a Python literal. */
export function parsePythonLiteral(text: string): LiteralResult | null {
  // Fast path: most rendered text cannot start a Python literal (ids, dates, words, URLs).
  if (!/^[ \t]*(?:[-+.\d[({'"#\s]|True\b|False\b|None\b|set\b|[rRuUbBfF]{1,2}['"])/.test(text)) return null;
  try {
    return new LiteralParser(text.replace(/^[ \t]+/, '')).parseAll();
  } catch (e) {
    if (e === NOT_LITERAL) return null;
    throw e;
  }
}

/**
 * Spec §3.3: the rendered text converted back to a typed value. Without `validTypes` any literal
 * except complex (and bytes, which have no JSON form) is accepted; with them, only those types
 * (bool counts as int, as in Python's isinstance). Otherwise the text itself is returned.
 */
export function literalEval(text: string, validTypes?: readonly LiteralType[]): unknown {
  const parsed = parsePythonLiteral(text);
  if (parsed === null || parsed.type === 'bytes') return text;
  if (!validTypes || validTypes.length === 0) return parsed.type === 'complex' ? text : parsed.value;
  const ok = validTypes.includes(parsed.type) || (parsed.type === 'bool' && validTypes.includes('int'));
  return ok ? parsed.value : text;
}

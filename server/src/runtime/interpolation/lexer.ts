// Tokenizer for Jinja2 templates with default delimiters: text, `{{ }}`, `{% %}`, `{# #}`, the `-`
// whitespace-control markers and `{% raw %}`. Offsets are UTF-16 offsets into the template text, so
// diagnostics can be placed exactly. Like Jinja, a tag ends only when brackets are balanced.

/** A template syntax error at an offset inside the template. */
export class TemplateSyntaxError extends Error {
  /** `suggestion`: the known name closest to a misspelt one, which an editor offers as a fix. */
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
    readonly suggestion?: string,
  ) {
    super(message);
  }
}

export type TokenType = 'data' | 'var_begin' | 'var_end' | 'block_begin' | 'block_end' | 'name' | 'string' | 'int' | 'float' | 'op' | 'eof';

export interface Token {
  type: TokenType;
  /** Decoded value: text for data/string/name/op, number text for int/float. */
  value: string;
  start: number;
  end: number;
}

const OPERATORS = [
  '**',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '~',
  '<',
  '>',
  '=',
  '|',
  '.',
  ',',
  ':',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ';',
];
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\n': '',
};

function decodeString(raw: string, start: number): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = raw[++i];
    if (next === 'x' || next === 'u' || next === 'U') {
      const len = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const hex = raw.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex))
        throw new TemplateSyntaxError('invalid escape sequence in string', start, start + raw.length + 2);
      out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (next in ESCAPES) {
      out += ESCAPES[next];
    } else {
      out += '\\' + next;
    }
  }
  return out;
}

// Sticky (`y`) and global patterns read the template where the tokenizer stands, through
// `lastIndex`, instead of matching `^…` against a copy of the rest of the text for every token.
const TAG_OPEN = /\{[{%#]/g;
const RAW_TAG = /\s*raw\s*-?%\}/y;
const END_RAW = /\{%-?\s*endraw\s*(-?)%\}/g;
const VAR_CLOSE = /-?\}\}/y;
const BLOCK_CLOSE = /[-+]?%\}/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const FLOAT = /\d[\d_]*(?:\.\d[\d_]*(?:[eE][+-]?\d[\d_]*)?|[eE][+-]?\d[\d_]*)/y;
const INT = /\d[\d_]*/y;
const STRING = /'(?:[^'\\]|\\[\s\S])*'|"(?:[^"\\]|\\[\s\S])*"/y;

/** `pattern` (sticky or global) matched at `at` in `source`. */
function execAt(pattern: RegExp, source: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(source);
}

/** Splits a template into tokens. A single trailing newline is dropped (Jinja's keep_trailing_newline=False). */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let end = source.length;
  if (source.endsWith('\r\n')) end -= 2;
  else if (source.endsWith('\n') || source.endsWith('\r')) end -= 1;
  let pos = 0;
  let stripNextData = false;

  const pushData = (from: number, to: number, stripRight: boolean) => {
    let text = source.slice(from, to);
    let s = from;
    if (stripNextData) {
      const trimmed = text.replace(/^\s+/, '');
      s += text.length - trimmed.length;
      text = trimmed;
    }
    if (stripRight) text = text.replace(/\s+$/, '');
    stripNextData = false;
    if (text.length > 0) tokens.push({ type: 'data', value: text.replace(/\r\n?/g, '\n'), start: s, end: s + text.length });
  };

  while (pos < end) {
    // Only line breaks follow `end`, so a tag found at all lies before it.
    const open = execAt(TAG_OPEN, source, pos);
    if (!open) {
      pushData(pos, end, false);
      break;
    }
    const tagStart = open.index;
    const kind = source[tagStart + 1];
    const minus = source[tagStart + 2] === '-';
    pushData(pos, tagStart, minus);
    let inner = tagStart + 2 + (minus || source[tagStart + 2] === '+' ? 1 : 0);
    if (kind === '#') {
      const close = source.indexOf('#}', inner);
      if (close < 0 || close + 2 > end + (source.length - end))
        throw new TemplateSyntaxError('missing end of comment tag', tagStart, source.length);
      stripNextData = source[close - 1] === '-';
      pos = close + 2;
      continue;
    }
    const rawMatch = kind === '%' ? execAt(RAW_TAG, source, inner) : null;
    if (rawMatch) {
      stripNextData = rawMatch[0].endsWith('-%}');
      const bodyStart = inner + rawMatch[0].length;
      const endRaw = execAt(END_RAW, source, bodyStart);
      if (!endRaw) throw new TemplateSyntaxError("missing '{% endraw %}'", tagStart, source.length);
      pushData(bodyStart, endRaw.index, endRaw[0].startsWith('{%-'));
      stripNextData = endRaw[1] === '-';
      pos = endRaw.index + endRaw[0].length;
      continue;
    }
    tokens.push({ type: kind === '{' ? 'var_begin' : 'block_begin', value: kind, start: tagStart, end: inner });
    const closer = kind === '{' ? '}}' : '%}';
    const balance: string[] = [];
    for (;;) {
      while (inner < source.length && /\s/.test(source[inner])) inner++;
      if (inner >= source.length) {
        throw new TemplateSyntaxError(`unexpected end of template, expected '${closer}'`, tagStart, source.length);
      }
      if (balance.length === 0) {
        const m = execAt(kind === '{' ? VAR_CLOSE : BLOCK_CLOSE, source, inner);
        if (m) {
          tokens.push({ type: kind === '{' ? 'var_end' : 'block_end', value: closer, start: inner, end: inner + m[0].length });
          stripNextData = m[0].startsWith('-');
          inner += m[0].length;
          break;
        }
      }
      let m: RegExpExecArray | null;
      if ((m = execAt(NAME, source, inner))) {
        tokens.push({ type: 'name', value: m[0], start: inner, end: inner + m[0].length });
      } else if (tokens[tokens.length - 1]?.value !== '.' && (m = execAt(FLOAT, source, inner))) {
        tokens.push({ type: 'float', value: m[0].replace(/_/g, ''), start: inner, end: inner + m[0].length });
      } else if ((m = execAt(INT, source, inner))) {
        tokens.push({ type: 'int', value: m[0].replace(/_/g, ''), start: inner, end: inner + m[0].length });
      } else if ((m = execAt(STRING, source, inner))) {
        tokens.push({ type: 'string', value: decodeString(m[0].slice(1, -1), inner + 1), start: inner, end: inner + m[0].length });
      } else {
        const op = OPERATORS.find((o) => source.startsWith(o, inner));
        if (!op) {
          const ch = source[inner];
          const bad = ch === "'" || ch === '"' ? 'unterminated string' : `unexpected char '${ch}'`;
          throw new TemplateSyntaxError(bad, inner, inner + 1);
        }
        if (op === '(' || op === '[' || op === '{') balance.push(op);
        else if (op === ')' || op === ']' || op === '}') {
          const expected = { ')': '(', ']': '[', '}': '{' }[op];
          if (balance.pop() !== expected) throw new TemplateSyntaxError(`unexpected '${op}'`, inner, inner + 1);
        }
        m = [op] as unknown as RegExpExecArray;
        tokens.push({ type: 'op', value: op, start: inner, end: inner + op.length });
      }
      inner += m[0].length;
    }
    pos = inner;
  }
  tokens.push({ type: 'eof', value: '', start: source.length, end: source.length });
  return tokens;
}

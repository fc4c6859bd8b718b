// The template language of the declarative OAuth specification (airbyte_cdk/sources/declarative/declarative_component_schema.yaml): the
// platform's restricted Jinja — `{{ expr }}` with `~` concatenation, string literals, parentheses and
// the filters urlencode, urldecode, replace, b64encode, codechallengeS256; `{% if %}/{% else %}/{% endif %}`.
// The legacy notation `{{ {{var}} | urlEncoder }}` and its macro names are accepted as aliases.
import { createHash } from 'node:crypto';
import { configError } from '../errors';

type Vars = Record<string, string>;
type Expr =
  | { kind: 'var'; name: string }
  | { kind: 'str'; value: string }
  | { kind: 'concat'; parts: Expr[] }
  | { kind: 'filter'; input: Expr; name: string; args: Expr[] }
  | { kind: 'cmp'; op: '==' | '!='; left: Expr; right: Expr };
type Node = { kind: 'text'; value: string } | { kind: 'out'; expr: Expr } | { kind: 'if'; cond: Expr; then: Node[]; otherwise: Node[] };

/** Java `URLEncoder.encode(s, UTF-8)`: letters, digits and `.-*_` kept, space as `+`, the rest %XX. */
export function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

const FILTERS: Record<string, (input: string, args: string[]) => string> = {
  urlencode: (s) => javaUrlEncode(s),
  urldecode: (s) => decodeURIComponent(s.replace(/\+/g, ' ')),
  replace: (s, [from = '', to = '']) => (from ? s.split(from).join(to) : s),
  b64encode: (s) => Buffer.from(s, 'utf8').toString('base64'),
  // RFC 7636 S256: base64url without padding of the SHA-256 of the UTF-8 input.
  codechallengeS256: (s) => createHash('sha256').update(s, 'utf8').digest('base64url'),
};
// Legacy names still written in manifests (schema descriptions of the CDK).
const ALIASES: Record<string, string> = {
  urlEncoder: 'urlencode',
  urlDecoder: 'urldecode',
  base64Encoder: 'b64encode',
  codeChallengeS256: 'codechallengeS256',
};

/** Renders a consent-flow template with string variables; unknown variables render empty. Throws a config error on bad syntax. */
export function renderConsentTemplate(template: string, vars: Vars, field: string): string {
  const legacy = template.replace(
    /\{\{\s*\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*((?:\|\s*[A-Za-z0-9_]+\s*)*)\}\}/g,
    (_m, name: string, filters: string) => `{{ ${name} ${filters}}}`,
  );
  try {
    const [nodes, rest] = parseNodes(tokenize(legacy), 0, []);
    if (rest !== -1) throw new Error('unexpected block end');
    return renderNodes(nodes, vars);
  } catch (err) {
    throw configError(`${field}: template ${JSON.stringify(template)} cannot be rendered (${(err as Error).message}).`);
  }
}

type Token = { kind: 'text' | 'out' | 'tag'; value: string };

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  const re = /\{\{([\s\S]*?)\}\}|\{%([\s\S]*?)%\}/g;
  let last = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    if (m.index > last) tokens.push({ kind: 'text', value: template.slice(last, m.index) });
    tokens.push(m[1] !== undefined ? { kind: 'out', value: m[1] } : { kind: 'tag', value: m[2].trim() });
    last = re.lastIndex;
  }
  if (last < template.length) tokens.push({ kind: 'text', value: template.slice(last) });
  return tokens;
}

/** Parses nodes until a closing tag; returns the nodes and the index of the stopping tag (-1 at the end). */
function parseNodes(tokens: Token[], start: number, stops: string[]): [Node[], number] {
  const nodes: Node[] = [];
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'text') nodes.push({ kind: 'text', value: t.value });
    else if (t.kind === 'out') nodes.push({ kind: 'out', expr: parseExpression(t.value) });
    else {
      const word = t.value.split(/\s+/)[0];
      if (stops.includes(word)) return [nodes, i];
      if (word !== 'if') throw new Error(`tag '${word}' is not allowed`);
      const cond = parseExpression(t.value.slice(2));
      const [then, mid] = parseNodes(tokens, i + 1, ['else', 'endif']);
      if (mid === -1) throw new Error("missing '{% endif %}'");
      let otherwise: Node[] = [];
      let end = mid;
      if (tokens[mid].value === 'else') {
        [otherwise, end] = parseNodes(tokens, mid + 1, ['endif']);
        if (end === -1) throw new Error("missing '{% endif %}'");
      }
      nodes.push({ kind: 'if', cond, then, otherwise });
      i = end;
    }
  }
  return [nodes, -1];
}

function parseExpression(text: string): Expr {
  const toks = text.match(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|==|!=|[A-Za-z_][A-Za-z0-9_]*|[~|(),]|\S/g) ?? [];
  let pos = 0;
  const peek = () => toks[pos];
  const take = (expected?: string) => {
    const t = toks[pos++];
    if (t === undefined || (expected !== undefined && t !== expected))
      throw new Error(`expected ${expected ?? 'an expression'} in '${text.trim()}'`);
    return t;
  };
  const primary = (): Expr => {
    const t = take();
    if (t === '(') {
      const inner = comparison();
      take(')');
      return inner;
    }
    if (/^['"]/.test(t)) return { kind: 'str', value: t.slice(1, -1).replace(/\\(.)/g, '$1') };
    if (/^[A-Za-z_]/.test(t)) return { kind: 'var', name: t };
    throw new Error(`unexpected '${t}'`);
  };
  const filtered = (): Expr => {
    let e = primary();
    while (peek() === '|') {
      take('|');
      const raw = take();
      const name = ALIASES[raw] ?? raw;
      if (!FILTERS[name]) throw new Error(`filter '${raw}' is not allowed`);
      const args: Expr[] = [];
      if (peek() === '(') {
        take('(');
        while (peek() !== ')') {
          args.push(comparison());
          if (peek() === ',') take(',');
        }
        take(')');
      }
      e = { kind: 'filter', input: e, name, args };
    }
    return e;
  };
  const concat = (): Expr => {
    const parts = [filtered()];
    while (peek() === '~') {
      take('~');
      parts.push(filtered());
    }
    return parts.length === 1 ? parts[0] : { kind: 'concat', parts };
  };
  const comparison = (): Expr => {
    const left = concat();
    if (peek() === '==' || peek() === '!=') {
      const op = take() as '==' | '!=';
      return { kind: 'cmp', op, left, right: concat() };
    }
    return left;
  };
  const e = comparison();
  if (pos !== toks.length) throw new Error(`unexpected '${toks[pos]}'`);
  return e;
}

function evaluate(e: Expr, vars: Vars): string {
  switch (e.kind) {
    case 'var':
      return Object.hasOwn(vars, e.name) ? vars[e.name] : '';
    case 'str':
      return e.value;
    case 'concat':
      return e.parts.map((p) => evaluate(p, vars)).join('');
    case 'filter':
      return FILTERS[e.name](
        evaluate(e.input, vars),
        e.args.map((a) => evaluate(a, vars)),
      );
    case 'cmp': {
      const same = evaluate(e.left, vars) === evaluate(e.right, vars);
      return (e.op === '==' ? same : !same) ? 'True' : '';
    }
  }
}

function renderNodes(nodes: Node[], vars: Vars): string {
  let out = '';
  for (const n of nodes) {
    if (n.kind === 'text') out += n.value;
    else if (n.kind === 'out') out += evaluate(n.expr, vars);
    else out += renderNodes(evaluate(n.cond, vars) !== '' ? n.then : n.otherwise, vars);
  }
  return out;
}

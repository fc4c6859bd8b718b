// Expression parser of the Jinja2 language: Jinja's operator precedence (or, and, not, comparisons,
// + -, ~, * / // %, **, unary, filters/tests), postfix access, calls and literals. Offsets are kept
// on every node for diagnostics. Statements are parsed by parser.ts on top of this class.
import { type Token, TemplateSyntaxError } from './lexer';
import { makeFloat } from './values';

export type Expr =
  | { t: 'lit'; value: unknown; start: number; end: number }
  | { t: 'name'; name: string; start: number; end: number }
  | { t: 'getattr'; obj: Expr; name: string; start: number; end: number }
  | { t: 'getitem'; obj: Expr; index: Expr; start: number; end: number }
  | { t: 'slice'; lo: Expr | null; hi: Expr | null; step: Expr | null; start: number; end: number }
  | { t: 'call'; fn: Expr; args: Expr[]; kwargs: [string, Expr][]; star: Expr | null; dstar: Expr | null; start: number; end: number }
  | { t: 'filter'; name: string; value: Expr; args: Expr[]; kwargs: [string, Expr][]; start: number; end: number }
  | { t: 'test'; name: string; value: Expr; args: Expr[]; kwargs: [string, Expr][]; negated: boolean; start: number; end: number }
  | { t: 'bin'; op: string; l: Expr; r: Expr; start: number; end: number }
  | { t: 'unary'; op: 'not' | '-' | '+'; e: Expr; start: number; end: number }
  | { t: 'logic'; op: 'and' | 'or'; l: Expr; r: Expr; start: number; end: number }
  | { t: 'compare'; first: Expr; ops: [string, Expr][]; start: number; end: number }
  | { t: 'cond'; test: Expr; then: Expr; else: Expr | null; start: number; end: number }
  | { t: 'list' | 'tuple'; items: Expr[]; start: number; end: number }
  | { t: 'dict'; pairs: [Expr, Expr][]; start: number; end: number };

export type Stmt =
  | { t: 'text'; value: string }
  | { t: 'output'; e: Expr }
  | { t: 'if'; branches: { cond: Expr; body: Stmt[] }[]; else: Stmt[] | null }
  | { t: 'for'; targets: string[]; iter: Expr; cond: Expr | null; body: Stmt[]; else: Stmt[] | null; start: number }
  | { t: 'set'; targets: string[]; attr: string | null; e: Expr | null; body: Stmt[] | null; start: number };

const MAX_NESTING = 200;
const COMPARE_OPS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const NO_ARG_TEST_FOLLOWERS = new Set(['else', 'or', 'and', 'if', 'in', 'not', 'is']);

export class ExpressionParser {
  protected i = 0;
  private depth = 0;
  constructor(protected readonly tokens: Token[]) {}

  protected get cur(): Token {
    return this.tokens[this.i];
  }
  protected next(): Token {
    return this.tokens[this.i++];
  }
  protected fail(msg: string, tok: Token = this.cur): never {
    throw new TemplateSyntaxError(msg, tok.start, Math.max(tok.end, tok.start + 1));
  }
  protected is(type: string, value?: string): boolean {
    return this.cur.type === type && (value === undefined || this.cur.value === value);
  }
  protected skip(type: string, value?: string): boolean {
    if (!this.is(type, value)) return false;
    this.i++;
    return true;
  }
  protected expect(type: string, value?: string): Token {
    if (!this.is(type, value)) {
      const what =
        this.cur.type === 'eof'
          ? 'end of template'
          : this.cur.type === 'var_end'
            ? 'end of print statement'
            : this.cur.type === 'block_end'
              ? 'end of statement block'
              : `'${this.cur.value}'`;
      this.fail(`expected '${value ?? type}', got ${what}`);
    }
    return this.next();
  }

  /** A comma-separated expression list becomes a tuple (Jinja's parse_tuple). */
  parseTuple(simplified: boolean): Expr {
    const start = this.cur.start;
    const items: Expr[] = [];
    let comma = false;
    for (;;) {
      if (items.length && !this.skip('op', ',')) break;
      if (items.length) comma = true;
      if (
        this.cur.type === 'var_end' ||
        this.cur.type === 'block_end' ||
        this.is('name', 'if') ||
        this.is('op', ')') ||
        (items.length && this.cur.type === 'eof')
      )
        break;
      items.push(simplified ? this.parsePrimaryWithPostfix() : this.parseExpr());
    }
    if (items.length === 0) this.fail(`expected an expression, got '${this.cur.value || this.cur.type}'`);
    if (!comma && items.length === 1) return items[0];
    return { t: 'tuple', items, start, end: this.tokens[this.i - 1].end };
  }

  parseExpr(): Expr {
    // Bounded nesting keeps hostile templates from exhausting the stack.
    if (++this.depth > MAX_NESTING) this.fail('expression nested too deeply');
    try {
      return this.parseConditional();
    } finally {
      this.depth--;
    }
  }

  private parseConditional(): Expr {
    const start = this.cur.start;
    let e = this.parseOr();
    while (this.skip('name', 'if')) {
      const test = this.parseOr();
      const other = this.skip('name', 'else') ? this.parseExpr() : null;
      e = { t: 'cond', test, then: e, else: other, start, end: this.tokens[this.i - 1].end };
    }
    return e;
  }

  private parseOr(): Expr {
    let l = this.parseAnd();
    while (this.skip('name', 'or')) {
      const r = this.parseAnd();
      l = { t: 'logic', op: 'or', l, r, start: l.start, end: r.end };
    }
    return l;
  }

  private parseAnd(): Expr {
    let l = this.parseNot();
    while (this.skip('name', 'and')) {
      const r = this.parseNot();
      l = { t: 'logic', op: 'and', l, r, start: l.start, end: r.end };
    }
    return l;
  }

  private parseNot(): Expr {
    if (this.is('name', 'not')) {
      const tok = this.next();
      const e = this.parseNot();
      return { t: 'unary', op: 'not', e, start: tok.start, end: e.end };
    }
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const first = this.parseMath1();
    const ops: [string, Expr][] = [];
    for (;;) {
      if (this.cur.type === 'op' && COMPARE_OPS.has(this.cur.value)) ops.push([this.next().value, this.parseMath1()]);
      else if (this.skip('name', 'in')) ops.push(['in', this.parseMath1()]);
      else if (this.is('name', 'not') && this.tokens[this.i + 1].type === 'name' && this.tokens[this.i + 1].value === 'in') {
        this.i += 2;
        ops.push(['notin', this.parseMath1()]);
      } else break;
    }
    if (!ops.length) return first;
    return { t: 'compare', first, ops, start: first.start, end: ops[ops.length - 1][1].end };
  }

  private binLoop(ops: string[], sub: () => Expr): Expr {
    let l = sub();
    while (this.cur.type === 'op' && ops.includes(this.cur.value)) {
      const op = this.next().value;
      const r = sub();
      l = { t: 'bin', op, l, r, start: l.start, end: r.end };
    }
    return l;
  }

  private parseMath1(): Expr {
    return this.binLoop(['+', '-'], () => this.parseConcat());
  }
  private parseConcat(): Expr {
    return this.binLoop(['~'], () => this.parseMath2());
  }
  private parseMath2(): Expr {
    return this.binLoop(['*', '/', '//', '%'], () => this.parsePow());
  }
  private parsePow(): Expr {
    return this.binLoop(['**'], () => this.parseUnary(true));
  }

  private parseUnary(withFilter: boolean): Expr {
    let e: Expr;
    if (this.is('op', '-') || this.is('op', '+')) {
      const tok = this.next();
      const inner = this.parseUnary(false);
      e = { t: 'unary', op: tok.value as '-' | '+', e: inner, start: tok.start, end: inner.end };
    } else {
      e = this.parsePrimary();
    }
    e = this.parsePostfix(e);
    return withFilter ? this.parseFilterExpr(e) : e;
  }

  protected parsePrimaryWithPostfix(): Expr {
    return this.parsePostfix(this.parsePrimary());
  }

  private parsePrimary(): Expr {
    const tok = this.cur;
    if (tok.type === 'name') {
      this.next();
      const lits: Record<string, unknown> = { true: true, True: true, false: false, False: false, none: null, None: null };
      if (tok.value in lits) return { t: 'lit', value: lits[tok.value], start: tok.start, end: tok.end };
      return { t: 'name', name: tok.value, start: tok.start, end: tok.end };
    }
    if (tok.type === 'string') {
      let value = this.next().value;
      let end = tok.end;
      while (this.cur.type === 'string') {
        end = this.cur.end;
        value += this.next().value;
      }
      return { t: 'lit', value, start: tok.start, end };
    }
    if (tok.type === 'int' || tok.type === 'float') {
      this.next();
      const n = Number(tok.value);
      // Python ints are exact: integers beyond ±2^53 stay bigint.
      const int = tok.type === 'float' || Number.isSafeInteger(n) ? n : BigInt(tok.value);
      return { t: 'lit', value: tok.type === 'float' ? makeFloat(n) : int, start: tok.start, end: tok.end };
    }
    if (this.skip('op', '(')) {
      if (this.is('op', ')')) {
        const close = this.next();
        return { t: 'tuple', items: [], start: tok.start, end: close.end };
      }
      const e = this.parseTuple(false);
      const close = this.expect('op', ')');
      return e.t === 'tuple' ? { ...e, start: tok.start, end: close.end } : e;
    }
    if (this.skip('op', '[')) {
      const items: Expr[] = [];
      while (!this.is('op', ']')) {
        if (items.length) this.expect('op', ',');
        if (this.is('op', ']')) break;
        items.push(this.parseExpr());
      }
      const close = this.next();
      return { t: 'list', items, start: tok.start, end: close.end };
    }
    if (this.skip('op', '{')) {
      const pairs: [Expr, Expr][] = [];
      while (!this.is('op', '}')) {
        if (pairs.length) this.expect('op', ',');
        if (this.is('op', '}')) break;
        const k = this.parseExpr();
        this.expect('op', ':');
        pairs.push([k, this.parseExpr()]);
      }
      const close = this.next();
      return { t: 'dict', pairs, start: tok.start, end: close.end };
    }
    const what =
      tok.type === 'eof' ? 'end of template' : tok.type === 'var_end' || tok.type === 'block_end' ? `end of tag` : `'${tok.value}'`;
    return this.fail(`unexpected ${what}`);
  }

  private parsePostfix(e: Expr): Expr {
    for (;;) {
      if (this.is('op', '.')) {
        this.next();
        const tok = this.next();
        if (tok.type === 'name') e = { t: 'getattr', obj: e, name: tok.value, start: e.start, end: tok.end };
        else if (tok.type === 'int')
          e = {
            t: 'getitem',
            obj: e,
            index: { t: 'lit', value: Number(tok.value), start: tok.start, end: tok.end },
            start: e.start,
            end: tok.end,
          };
        else this.fail('expected name or number', tok);
      } else if (this.is('op', '[')) {
        this.next();
        const index = this.parseSubscript();
        const close = this.expect('op', ']');
        e = { t: 'getitem', obj: e, index, start: e.start, end: close.end };
      } else if (this.is('op', '(')) {
        e = this.parseCall(e);
      } else {
        return e;
      }
    }
  }

  private parseSubscript(): Expr {
    const start = this.cur.start;
    const parts: (Expr | null)[] = [];
    let cur: Expr | null = this.is('op', ':') ? null : this.parseExpr();
    if (!this.is('op', ':')) {
      if (this.is('op', ',')) {
        const items = [cur as Expr];
        while (this.skip('op', ',') && !this.is('op', ']')) items.push(this.parseExpr());
        return { t: 'tuple', items, start, end: this.tokens[this.i - 1].end };
      }
      return cur as Expr;
    }
    parts.push(cur);
    while (this.skip('op', ':') && parts.length < 3) {
      cur = this.is('op', ':') || this.is('op', ']') ? null : this.parseExpr();
      parts.push(cur);
    }
    return { t: 'slice', lo: parts[0] ?? null, hi: parts[1] ?? null, step: parts[2] ?? null, start, end: this.cur.start };
  }

  private parseArgs(): { args: Expr[]; kwargs: [string, Expr][]; star: Expr | null; dstar: Expr | null; end: number } {
    this.expect('op', '(');
    const args: Expr[] = [];
    const kwargs: [string, Expr][] = [];
    let star: Expr | null = null;
    let dstar: Expr | null = null;
    while (!this.is('op', ')')) {
      if (args.length || kwargs.length || star || dstar) {
        this.expect('op', ',');
        if (this.is('op', ')')) break;
      }
      if (this.skip('op', '**')) dstar = this.parseExpr();
      else if (this.skip('op', '*')) star = this.parseExpr();
      else if (this.cur.type === 'name' && this.tokens[this.i + 1].value === '=' && this.tokens[this.i + 1].type === 'op') {
        const key = this.next().value;
        this.next();
        kwargs.push([key, this.parseExpr()]);
      } else {
        if (kwargs.length) this.fail('positional argument follows keyword argument');
        args.push(this.parseExpr());
      }
    }
    const end = this.next().end;
    return { args, kwargs, star, dstar, end };
  }

  private parseCall(fn: Expr): Expr {
    const a = this.parseArgs();
    return { t: 'call', fn, args: a.args, kwargs: a.kwargs, star: a.star, dstar: a.dstar, start: fn.start, end: a.end };
  }

  private dottedName(): { name: string; start: number; end: number } {
    const first = this.expect('name');
    let name = first.value;
    let end = first.end;
    while (this.is('op', '.') && this.tokens[this.i + 1].type === 'name') {
      this.next();
      const t = this.next();
      name += '.' + t.value;
      end = t.end;
    }
    return { name, start: first.start, end };
  }

  private parseFilterExpr(e: Expr): Expr {
    for (;;) {
      if (this.skip('op', '|')) {
        const n = this.dottedName();
        const a = this.is('op', '(') ? this.parseArgs() : { args: [], kwargs: [], end: n.end };
        e = { t: 'filter', name: n.name, value: e, args: a.args, kwargs: a.kwargs, start: n.start, end: a.end };
      } else if (this.is('name', 'is')) {
        this.next();
        const negated = this.skip('name', 'not');
        const n = this.dottedName();
        let args: Expr[] = [];
        let kwargs: [string, Expr][] = [];
        let end = n.end;
        if (this.is('op', '(')) {
          const a = this.parseArgs();
          args = a.args;
          kwargs = a.kwargs;
          end = a.end;
        } else if (['name', 'string', 'int', 'float'].includes(this.cur.type) || this.is('op', '[') || this.is('op', '{')) {
          if (!(this.cur.type === 'name' && NO_ARG_TEST_FOLLOWERS.has(this.cur.value))) {
            const arg = this.parsePostfix(this.parsePrimary());
            args = [arg];
            end = arg.end;
          }
        }
        e = { t: 'test', name: n.name, value: e, args, kwargs, negated, start: n.start, end };
      } else if (this.is('op', '(')) {
        e = this.parseCall(e);
      } else {
        return e;
      }
    }
  }
}

// Parser for the Jinja2 template language (statements if/elif/else, for/else with an optional
// filter, set and block set) over the expression parser. Unknown tags are syntax errors, as in the
// reference (the loopcontrols extension is off, so `break`/`continue` are unknown).
import { type Token, tokenize } from './lexer';
import { type Expr, ExpressionParser, type Stmt } from './expressionParser';

export type { Expr, Stmt } from './expressionParser';

class TemplateParser extends ExpressionParser {
  /** Parses statements until one of `endTags` opens a block tag (left unconsumed) or EOF. */
  parseBody(endTags: string[]): Stmt[] {
    const body: Stmt[] = [];
    for (;;) {
      const tok = this.cur;
      if (tok.type === 'eof') {
        if (endTags.length) this.fail(`unexpected end of template, expected '${endTags.join("' or '")}'`);
        return body;
      }
      if (tok.type === 'data') {
        body.push({ t: 'text', value: this.next().value });
      } else if (tok.type === 'var_begin') {
        this.next();
        const e = this.parseTuple(false);
        this.expect('var_end');
        body.push({ t: 'output', e });
      } else if (tok.type === 'block_begin') {
        const tag = this.tokens[this.i + 1];
        if (tag.type === 'name' && endTags.includes(tag.value)) return body;
        this.next();
        body.push(this.parseStatement());
      } else {
        this.fail(`unexpected '${tok.value}'`);
      }
    }
  }

  private parseStatement(): Stmt {
    const tag = this.cur;
    if (tag.type !== 'name') this.fail('tag name expected');
    this.next();
    switch (tag.value) {
      case 'if':
        return this.parseIf();
      case 'for':
        return this.parseFor(tag);
      case 'set':
        return this.parseSet(tag);
      default: {
        const known = ['endif', 'endfor', 'elif', 'else', 'endset'].includes(tag.value);
        return this.fail(known ? `unexpected '${tag.value}' tag` : `Encountered unknown tag '${tag.value}'.`, tag);
      }
    }
  }

  private parseIf(): Stmt {
    const branches: { cond: Expr; body: Stmt[] }[] = [];
    let elseBody: Stmt[] | null = null;
    let cond = this.parseTuple(false);
    for (;;) {
      this.endHeader();
      const body = this.parseBody(['elif', 'else', 'endif']);
      branches.push({ cond, body });
      this.expect('block_begin');
      const tag = this.next().value;
      if (tag === 'elif') {
        cond = this.parseTuple(false);
        continue;
      }
      if (tag === 'else') {
        this.endHeader();
        elseBody = this.parseBody(['endif']);
        this.expect('block_begin');
        this.next();
      }
      this.expect('block_end');
      return { t: 'if', branches, else: elseBody };
    }
  }

  /** Ends a block header; like Jinja's parse_statements, a Python-style `:` is tolerated. */
  private endHeader(): void {
    this.skip('op', ':');
    this.expect('block_end');
  }

  private parseTargets(): string[] {
    const names = [this.expect('name').value];
    while (this.skip('op', ',')) names.push(this.expect('name').value);
    return names;
  }

  private parseFor(tag: Token): Stmt {
    const targets = this.is('op', '(') ? (this.next(), this.parseTargets().concat(this.expect('op', ')') && [])) : this.parseTargets();
    this.expect('name', 'in');
    const iter = this.parseTuple(true);
    const cond = this.skip('name', 'if') ? this.parseExpr() : null;
    if (this.skip('name', 'recursive')) this.fail('recursive loops are not supported', this.tokens[this.i - 1]);
    this.endHeader();
    const body = this.parseBody(['endfor', 'else']);
    this.expect('block_begin');
    let elseBody: Stmt[] | null = null;
    if (this.next().value === 'else') {
      this.endHeader();
      elseBody = this.parseBody(['endfor']);
      this.expect('block_begin');
      this.next();
    }
    this.expect('block_end');
    return { t: 'for', targets, iter, cond, body, else: elseBody, start: tag.start };
  }

  private parseSet(tag: Token): Stmt {
    const first = this.expect('name').value;
    let attr: string | null = null;
    if (this.skip('op', '.')) attr = this.expect('name').value;
    const targets = [first];
    while (!attr && this.skip('op', ',')) targets.push(this.expect('name').value);
    if (this.skip('op', '=')) {
      const e = this.parseTuple(false);
      this.expect('block_end');
      return { t: 'set', targets, attr, e, body: null, start: tag.start };
    }
    if (attr || targets.length > 1) this.fail("expected '='");
    this.endHeader();
    const body = this.parseBody(['endset']);
    this.expect('block_begin');
    this.next();
    this.expect('block_end');
    return { t: 'set', targets, attr: null, e: null, body, start: tag.start };
  }
}

/** Parses a template into statements. Throws TemplateSyntaxError with the offending offsets. */
export function parseTemplate(source: string): Stmt[] {
  const parser = new TemplateParser(tokenize(source));
  return parser.parseBody([]);
}

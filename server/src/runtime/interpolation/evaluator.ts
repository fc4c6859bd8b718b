// Renders a parsed template to text with Jinja2 semantics over the Python value model. Every
// evaluation runs under a budget (steps, wall time, output size) so no template can hang or exhaust
// the host; names resolve to locals, then the context's own keys, then the sandbox globals.
import { Namespace, defineKey, getAttr, getItem, sliceValue } from './attributes';
import { AIRBYTE_FILTERS } from './filtersAirbyte';
import { type FilterHost, JINJA_FILTERS } from './filtersJinja';
import { JINJA_TESTS } from './jinjaTests';
import { checkItems, MAX_SEQUENCE, withMeter, WorkMeter } from './limits';
import { binaryOp, compareOp } from './operators';
import type { Expr, Stmt } from './parser';
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
  isFloat,
  iterate,
  makeFloat,
  numberOf,
  pyStr,
  truthy,
  typeName,
} from './values';

/** Limits of one evaluation. */
export interface Budget {
  /** Maximum evaluated nodes. */
  maxSteps: number;
  /** Maximum characters of output. */
  maxOutput: number;
  /** Wall-clock limit in milliseconds. */
  maxMillis: number;
}

export const DEFAULT_BUDGET: Budget = { maxSteps: 1_000_000, maxOutput: MAX_SEQUENCE, maxMillis: 1000 };

/** Looks a filter up: the CDK's filters override Jinja's (§3.1). */
export function findFilter(
  name: string,
): ((v: unknown, a: unknown[], kw: Record<string, unknown>, host: FilterHost) => unknown) | undefined {
  if (Object.hasOwn(AIRBYTE_FILTERS, name)) return AIRBYTE_FILTERS[name];
  if (Object.hasOwn(JINJA_FILTERS, name)) return JINJA_FILTERS[name];
  return undefined;
}

/** Whether a Jinja test of that name exists. */
/** Every filter name, Airbyte's and Jinja's. */
export function filterNames(): string[] {
  return [...Object.keys(AIRBYTE_FILTERS), ...Object.keys(JINJA_FILTERS)];
}

/** Every test name (`is defined`, `is none`, ...). */
export function testNames(): string[] {
  return Object.keys(JINJA_TESTS);
}

export function hasTest(name: string): boolean {
  return Object.hasOwn(JINJA_TESTS, name) || name === 'filter' || name === 'test';
}

export class Renderer implements FilterHost {
  private readonly meter: WorkMeter;
  private scopes: Map<string, unknown>[] = [new Map()];
  private output = 0;

  constructor(
    private readonly context: PyDict,
    private readonly globals: Record<string, unknown>,
    private readonly budget: Budget = DEFAULT_BUDGET,
  ) {
    this.meter = new WorkMeter(budget);
  }

  private tick(): void {
    this.meter.charge(1);
  }

  /** Renders statements to text; filters, methods and operators charge their own work to this evaluation. */
  render(stmts: Stmt[]): string {
    return withMeter(this.meter, () => this.renderBody(stmts));
  }

  private renderBody(stmts: Stmt[]): string {
    const parts: string[] = [];
    this.exec(stmts, parts);
    return parts.join('');
  }

  private emit(parts: string[], text: string): void {
    this.output += text.length;
    if (this.output > this.budget.maxOutput)
      throw new TemplateValueError(`template output exceeded ${this.budget.maxOutput} characters`, 'LimitError');
    parts.push(text);
  }

  private exec(stmts: Stmt[], out: string[]): void {
    for (const s of stmts) {
      this.tick();
      switch (s.t) {
        case 'text':
          this.emit(out, s.value);
          break;
        case 'output':
          this.emit(out, pyStr(this.eval(s.e)));
          break;
        case 'if': {
          const branch = s.branches.find((b) => truthy(this.eval(b.cond)));
          if (branch) this.exec(branch.body, out);
          else if (s.else) this.exec(s.else, out);
          break;
        }
        case 'for':
          this.execFor(s, out);
          break;
        case 'set': {
          const value = s.e ? this.eval(s.e) : this.renderBody(s.body ?? []);
          if (s.attr !== null) {
            const ns = this.lookup(s.targets[0]);
            if (!(ns instanceof Namespace)) throw new TemplateValueError('can only set attributes on namespace objects', 'TypeError');
            ns.attrs.set(s.attr, value);
          } else this.assign(s.targets, value);
          break;
        }
      }
    }
  }

  private assign(targets: string[], value: unknown): void {
    const scope = this.scopes[this.scopes.length - 1];
    if (targets.length === 1) {
      scope.set(targets[0], value);
      return;
    }
    const items = iterate(value);
    if (items.length !== targets.length) throw new TemplateValueError(`cannot unpack ${items.length} values into ${targets.length} names`);
    targets.forEach((t, i) => scope.set(t, items[i]));
  }

  private execFor(s: Extract<Stmt, { t: 'for' }>, out: string[]): void {
    let items = iterate(this.eval(s.iter));
    if (s.cond) {
      const cond = s.cond;
      items = items.filter((item) => {
        this.scopes.push(new Map());
        try {
          this.assign(s.targets, item);
          return truthy(this.eval(cond));
        } finally {
          this.scopes.pop();
        }
      });
    }
    if (items.length === 0) {
      if (s.else) this.exec(s.else, out);
      return;
    }
    const n = items.length;
    items.forEach((item, i) => {
      // Each iteration builds its `loop` object: an empty body still costs steps.
      this.tick();
      this.scopes.push(new Map());
      try {
        const loop: PyDict = {};
        const fields: [string, unknown][] = [
          ['index', i + 1],
          ['index0', i],
          ['revindex', n - i],
          ['revindex0', n - i - 1],
          ['first', i === 0],
          ['last', i === n - 1],
          ['length', n],
          ['depth', 1],
          ['depth0', 0],
          ['previtem', i > 0 ? items[i - 1] : new Undefined('there is no previous item')],
          ['nextitem', i < n - 1 ? items[i + 1] : new Undefined('there is no next item')],
          ['cycle', new PyFunction('cycle', (a) => (a.length ? a[i % a.length] : null))],
          ['changed', new PyFunction('changed', () => true)],
        ];
        for (const [k, v] of fields) defineKey(loop, k, v);
        this.scopes[this.scopes.length - 1].set('loop', loop);
        this.assign(s.targets, item);
        this.exec(s.body, out);
      } finally {
        this.scopes.pop();
      }
    });
  }

  private lookup(name: string): unknown {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i].has(name)) return this.scopes[i].get(name);
    if (hasKey(this.context, name)) return this.context[name];
    // Spec §3.2 step 2: stream_interval and stream_partition are the stream_slice object.
    if ((name === 'stream_interval' || name === 'stream_partition') && hasKey(this.context, 'stream_slice'))
      return this.context.stream_slice;
    if (Object.hasOwn(this.globals, name)) return this.globals[name];
    return new Undefined(`'${name}' is undefined`);
  }

  /** Evaluates an expression to a Python value. */
  eval(e: Expr): unknown {
    this.tick();
    switch (e.t) {
      case 'lit':
        return e.value;
      case 'name':
        return this.lookup(e.name);
      case 'getattr':
        return getAttr(this.eval(e.obj), e.name);
      case 'getitem': {
        const obj = this.eval(e.obj);
        if (e.index.t === 'slice') {
          const sl = e.index;
          return sliceValue(obj, sl.lo ? this.eval(sl.lo) : null, sl.hi ? this.eval(sl.hi) : null, sl.step ? this.eval(sl.step) : null);
        }
        return getItem(obj, this.eval(e.index));
      }
      case 'slice':
        throw new TemplateValueError('slice outside of a subscript');
      case 'call':
        return this.call(e);
      case 'filter': {
        const value = this.eval(e.value);
        const { args, kw } = this.evalArgs(e.args, e.kwargs, null, null);
        return this.filter(e.name, value, args, kw);
      }
      case 'test': {
        const value = this.eval(e.value);
        const { args } = this.evalArgs(e.args, e.kwargs, null, null);
        const r = this.test(e.name, value, args);
        return e.negated ? !r : r;
      }
      case 'bin':
        return binaryOp(e.op, this.eval(e.l), this.eval(e.r));
      case 'unary': {
        const v = this.eval(e.e);
        if (e.op === 'not') return !truthy(v);
        if (v instanceof Undefined) throw new UndefinedAccessError(v.hint);
        const n = numberOf(v);
        if (n === undefined) throw new TemplateValueError(`bad operand type for unary ${e.op}: '${typeName(v)}'`, 'TypeError');
        const r = e.op === '-' ? -n : n;
        return isFloat(v) ? makeFloat(r) : r === 0 ? 0 : r;
      }
      case 'logic': {
        const l = this.eval(e.l);
        if (e.op === 'and') return truthy(l) ? this.eval(e.r) : l;
        return truthy(l) ? l : this.eval(e.r);
      }
      case 'compare': {
        let left = this.eval(e.first);
        for (const [op, rhsExpr] of e.ops) {
          const right = this.eval(rhsExpr);
          if (!compareOp(op, left, right)) return false;
          left = right;
        }
        return true;
      }
      case 'cond':
        return truthy(this.eval(e.test))
          ? this.eval(e.then)
          : e.else
            ? this.eval(e.else)
            : new Undefined('the inline if-expression evaluated to false and no else section was defined.');
      case 'list':
        return e.items.map((x) => this.eval(x));
      case 'tuple':
        return new PyTuple(e.items.map((x) => this.eval(x)));
      case 'dict': {
        const out: PyDict = {};
        for (const [k, v] of e.pairs) {
          const key = this.eval(k);
          if (typeof key !== 'string' && numberOf(key) === undefined && key !== null)
            throw new TemplateValueError(`unhashable type: '${typeName(key)}'`, 'TypeError');
          defineKey(out, pyStr(key instanceof PyFloat ? key.value : key), this.eval(v));
        }
        return out;
      }
    }
  }

  private evalArgs(
    args: Expr[],
    kwargs: [string, Expr][],
    star: Expr | null,
    dstar: Expr | null,
  ): { args: unknown[]; kw: Record<string, unknown> } {
    const a = args.map((x) => this.eval(x));
    if (star) {
      const extra = iterate(this.eval(star));
      checkItems(a.length + extra.length, 'argument list');
      for (const x of extra) a.push(x);
    }
    const kw: Record<string, unknown> = Object.create(null);
    for (const [k, v] of kwargs) kw[k] = this.eval(v);
    if (dstar) {
      const d = this.eval(dstar);
      if (!isDict(d)) throw new TemplateValueError('argument after ** must be a mapping', 'TypeError');
      for (const k of Object.keys(d)) kw[k] = d[k];
    }
    return { args: a, kw };
  }

  private call(e: Extract<Expr, { t: 'call' }>): unknown {
    const fn = this.eval(e.fn);
    if (fn instanceof Undefined) throw new UndefinedAccessError(fn.hint || 'undefined value is not callable');
    const { args, kw } = this.evalArgs(e.args, e.kwargs, e.star, e.dstar);
    // Functions a caller put in the context (e.g. json_loads for JWT fields) are called with positional arguments.
    if (typeof fn === 'function' && hasKeyValue(this.context, fn)) return (fn as (...a: unknown[]) => unknown)(...args);
    if (!(fn instanceof PyFunction)) throw new TemplateValueError(`'${typeName(fn)}' object is not callable`, 'TypeError');
    const result = fn.call(args, kw);
    // Macros and methods check sizes before allocating; this catches bounded expansions (strftime of a long format).
    if ((typeof result === 'string' || Array.isArray(result)) && result.length > MAX_SEQUENCE) checkItems(result.length, `${fn.name}()`);
    return result;
  }

  filter(name: string, value: unknown, args: unknown[], kw: Record<string, unknown>): unknown {
    this.tick();
    const f = findFilter(name);
    if (!f) throw new TemplateValueError(`No filter named '${name}'.`);
    const result = f(value, args, kw, this);
    // Filters check sizes before allocating; this catches the bounded expansions they leave unchecked (upper of 'ß').
    if ((typeof result === 'string' || Array.isArray(result)) && result.length > MAX_SEQUENCE)
      checkItems(result.length, `filter '${name}'`);
    return result;
  }

  test(name: string, value: unknown, args: unknown[]): boolean {
    this.tick();
    if (name === 'filter') return findFilter(pyStr(value)) !== undefined;
    if (name === 'test') return hasTest(pyStr(value));
    if (!Object.hasOwn(JINJA_TESTS, name)) throw new TemplateValueError(`No test named '${name}'.`);
    return JINJA_TESTS[name](value, args);
  }
}

/** Whether `value` is itself one of the context's top-level values (only those JS functions are callable). */
function hasKeyValue(context: PyDict, value: unknown): boolean {
  return Object.keys(context).some((k) => context[k] === value);
}

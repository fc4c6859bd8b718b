// Static facts about a parsed template, shared by the runtime and the editor: which names it reads
// without assigning them first (Jinja's find_undeclared_variables, §3.2 step 5), and which filters
// and tests it uses, each with its offsets inside the template.
import type { Expr, Stmt } from './parser';

/** A name, filter or test occurrence with its UTF-16 offsets inside the template text. */
export interface NameUse {
  name: string;
  start: number;
  end: number;
}

/** Config-key accesses such as `config.a.b`, `config['a']`, `config.get('a')`: the key path and its span. */
export interface ConfigAccess {
  path: string[];
  start: number;
  end: number;
  /** The last key is read with `.get(...)`, i.e. the template tolerates its absence. */
  tolerant: boolean;
}

export interface TemplateFacts {
  /** Names read before any assignment in scope (undeclared unless the context or globals provide them). */
  undeclared: NameUse[];
  filters: NameUse[];
  tests: NameUse[];
  configAccesses: ConfigAccess[];
}

function stringKey(e: Expr): string | null {
  return e.t === 'lit' && typeof e.value === 'string' ? e.value : null;
}

/** The config key path of `config.a['b'].get('c')`-style chains, or null. */
function configPath(e: Expr): ConfigAccess | null {
  if (e.t === 'name') return e.name === 'config' ? { path: [], start: e.start, end: e.end, tolerant: false } : null;
  if (e.t === 'getattr') {
    const base = configPath(e.obj);
    return base && { path: [...base.path, e.name], start: e.start, end: e.end, tolerant: false };
  }
  if (e.t === 'getitem') {
    const base = configPath(e.obj);
    const key = stringKey(e.index);
    return base && key !== null ? { path: [...base.path, key], start: e.start, end: e.end, tolerant: false } : null;
  }
  if (e.t === 'call' && e.fn.t === 'getattr' && e.fn.name === 'get' && e.args.length >= 1) {
    const base = configPath(e.fn.obj);
    const key = stringKey(e.args[0]);
    return base && key !== null ? { path: [...base.path, key], start: e.start, end: e.end, tolerant: true } : null;
  }
  return null;
}

/** Walks a template and collects its facts. `scope` names are treated as already declared. */
export function analyzeTemplate(stmts: Stmt[]): TemplateFacts {
  const facts: TemplateFacts = { undeclared: [], filters: [], tests: [], configAccesses: [] };
  const scopes: Set<string>[] = [new Set()];
  const declared = (n: string) => scopes.some((s) => s.has(n));

  const recordConfig = (e: Expr): boolean => {
    const p = configPath(e);
    if (!p || p.path.length === 0) return false;
    const last = facts.configAccesses[facts.configAccesses.length - 1];
    // Only the outermost access of a chain is recorded (`config.a.b`, not also `config.a`).
    if (!(last && last.start === p.start && last.end >= p.end)) facts.configAccesses.push(p);
    return true;
  };

  const expr = (e: Expr | null): void => {
    if (!e) return;
    switch (e.t) {
      case 'lit':
        return;
      case 'name':
        if (!declared(e.name)) facts.undeclared.push({ name: e.name, start: e.start, end: e.end });
        return;
      case 'getattr':
        if (!declared('config')) recordConfig(e);
        expr(e.obj);
        return;
      case 'getitem':
        if (!declared('config')) recordConfig(e);
        expr(e.obj);
        expr(e.index);
        return;
      case 'slice':
        expr(e.lo);
        expr(e.hi);
        expr(e.step);
        return;
      case 'call':
        if (!declared('config')) recordConfig(e);
        expr(e.fn);
        e.args.forEach(expr);
        e.kwargs.forEach(([, v]) => expr(v));
        expr(e.star);
        expr(e.dstar);
        return;
      case 'filter':
        expr(e.value);
        facts.filters.push({ name: e.name, start: e.start, end: e.start + e.name.length });
        e.args.forEach(expr);
        e.kwargs.forEach(([, v]) => expr(v));
        return;
      case 'test':
        expr(e.value);
        facts.tests.push({ name: e.name, start: e.start, end: e.start + e.name.length });
        e.args.forEach(expr);
        return;
      case 'bin':
      case 'logic':
        expr(e.l);
        expr(e.r);
        return;
      case 'unary':
        expr(e.e);
        return;
      case 'compare':
        expr(e.first);
        e.ops.forEach(([, x]) => expr(x));
        return;
      case 'cond':
        expr(e.then);
        expr(e.test);
        expr(e.else);
        return;
      case 'list':
      case 'tuple':
        e.items.forEach(expr);
        return;
      case 'dict':
        e.pairs.forEach(([k, v]) => {
          expr(k);
          expr(v);
        });
        return;
    }
  };

  const body = (stmts: Stmt[]): void => {
    for (const s of stmts) {
      switch (s.t) {
        case 'text':
          break;
        case 'output':
          expr(s.e);
          break;
        case 'if':
          for (const b of s.branches) {
            expr(b.cond);
            body(b.body);
          }
          if (s.else) body(s.else);
          break;
        case 'for':
          expr(s.iter);
          scopes.push(new Set([...s.targets, 'loop']));
          expr(s.cond);
          body(s.body);
          scopes.pop();
          if (s.else) body(s.else);
          break;
        case 'set':
          if (s.e) expr(s.e);
          if (s.body) body(s.body);
          if (s.attr !== null) {
            if (!declared(s.targets[0])) facts.undeclared.push({ name: s.targets[0], start: s.start, end: s.start });
          } else for (const t of s.targets) scopes[scopes.length - 1].add(t);
          break;
      }
    }
  };
  body(stmts);
  return facts;
}

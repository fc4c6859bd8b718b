// JinjaInterpolation.eval of the reference (§3.2) over our own Jinja engine.
//
// Engine decision: a purpose-built parser + evaluator rather than @huggingface/jinja or nunjucks.
// Both libraries evaluate with JavaScript semantics (null vs None rendering, `1.0` vs `1`, str() of
// dicts/lists as JSON-ish text, JS truthiness of `[]`/`{}`, no dict methods like `.get`/`.items`,
// different Undefined rules, JS property access reaching prototypes), so matching Python would mean
// patching their core paths. The corpus (492 manifests, ~13k templates) uses a small subset: output
// tags, if/elif/else, for, set, filters, tests, method calls and literals; this module implements
// that language with Python's value model (values.ts), sandboxed attribute access (attributes.ts)
// and a step/time/output budget (evaluator.ts).
import { RuntimeError } from '../errors';
import type { RuntimeEnv } from '../types';
import { analyzeTemplate, type TemplateFacts } from './analysis';
import { type Budget, DEFAULT_BUDGET, Renderer } from './evaluator';
import { TemplateSyntaxError } from './lexer';
import { type LiteralType, literalEval } from './literal';
import { createGlobals, DEFAULT_GLOBAL_NAMES, MACRO_NAMES } from './macros';
import { filterNames, findFilter, hasTest, testNames } from './evaluator';
import { closestMatch } from '../suggest';
import { parseTemplate, type Stmt } from './parser';
import { type PyDict, TemplateValueError, UndefinedAccessError, hasKey } from './values';

/** A parsed template with its static facts. */
export interface CompiledTemplate {
  stmts: Stmt[];
  facts: TemplateFacts;
}

const CACHE_LIMIT = 2000;
const cache = new Map<string, CompiledTemplate | TemplateSyntaxError>();

/** Names every template may use without a context entry (macros and Jinja's remaining globals). */
export const GLOBAL_NAMES: ReadonlySet<string> = new Set([...MACRO_NAMES, ...DEFAULT_GLOBAL_NAMES]);

/** The known name close to a misspelt one, if any (the editor offers it as a quick fix). */
function closeName(name: string, known: readonly string[]): string | undefined {
  const hint = closestMatch(name, known);
  return hint && hint !== name ? hint : undefined;
}

/** The error for an unknown filter or test name, with its "did you mean" in the message and as data. */
function unknownName(what: 'filter' | 'test', name: string, known: readonly string[], start: number, end: number): TemplateSyntaxError {
  const hint = closeName(name, known);
  return new TemplateSyntaxError(`No ${what} named '${name}'.${hint ? ` Did you mean \`${hint}\`?` : ''}`, start, end, hint);
}

/**
 * Parses a template (cached) and checks filter/test names as Jinja's compiler does.
 * Throws TemplateSyntaxError (offsets inside the template).
 */
export function compileTemplate(source: string): CompiledTemplate {
  const hit = cache.get(source);
  if (hit instanceof TemplateSyntaxError) throw hit;
  if (hit) return hit;
  let result: CompiledTemplate | TemplateSyntaxError;
  try {
    const stmts = parseTemplate(source);
    const facts = analyzeTemplate(stmts);
    const badFilter = facts.filters.find((f) => !findFilter(f.name));
    if (badFilter) throw unknownName('filter', badFilter.name, filterNames(), badFilter.start, badFilter.end);
    const badTest = facts.tests.find((t) => !hasTest(t.name));
    if (badTest) throw unknownName('test', badTest.name, testNames(), badTest.start, badTest.end);
    result = { stmts, facts };
  } catch (e) {
    if (!(e instanceof TemplateSyntaxError)) throw e;
    result = e;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, result);
  if (result instanceof TemplateSyntaxError) throw result;
  return result;
}

/** Options of one evaluation (§3.2 `default`, `valid_types`). */
export interface EvalOptions {
  /** Template evaluated when the result renders empty or hits an undefined chain; null = return null. */
  default?: string | null;
  /** Python types the literal-evaluated result may have; otherwise the rendered text is returned. */
  validTypes?: readonly LiteralType[];
  /** Evaluation limits (tests may lower them). */
  budget?: Budget;
}

/** A template error of the public API: RuntimeError with `kind` and the offsets inside the template. */
export function templateError(message: string, kind: string, cause?: unknown): RuntimeError {
  return new RuntimeError(message, 'config_error', { kind, cause });
}

/** Spec §3.2 step 2: aliases of `stream_slice`, resolved on lookup instead of copying the context. */
export const STREAM_SLICE_ALIASES: ReadonlySet<string> = new Set(['stream_interval', 'stream_partition']);

/** Whether the context provides `name` (directly or as a stream_slice alias). */
function contextHas(ctx: PyDict, name: string): boolean {
  return hasKey(ctx, name) || (STREAM_SLICE_ALIASES.has(name) && hasKey(ctx, 'stream_slice'));
}

const sharedGlobals = new WeakMap<object, ReturnType<typeof createGlobals>>();
let defaultGlobals: ReturnType<typeof createGlobals> | null = null;

/** Globals bound to an environment's clock, built once per environment object. */
function globalsFor(env: RuntimeEnv | undefined): ReturnType<typeof createGlobals> {
  if (!env) return (defaultGlobals ??= createGlobals(undefined));
  let g = sharedGlobals.get(env);
  if (!g) sharedGlobals.set(env, (g = createGlobals(env)));
  return g;
}

function renderOnce(source: string, ctx: PyDict, env: RuntimeEnv | undefined, budget: Budget): string {
  let compiled: CompiledTemplate;
  try {
    compiled = compileTemplate(source);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) {
      throw templateError(`Template syntax error: ${e.message} (at offset ${e.start} of "${preview(source)}")`, 'template_syntax_error', e);
    }
    throw e;
  }
  // Spec §3.2 step 5: names read but not in the context are a hard error, not an empty string.
  const missing = [...new Set(compiled.facts.undeclared.map((u) => u.name))].filter((n) => !contextHas(ctx, n) && !GLOBAL_NAMES.has(n));
  if (missing.length) {
    const available = [...Object.keys(ctx), ...(hasKey(ctx, 'stream_slice') ? STREAM_SLICE_ALIASES : [])].sort().join(', ');
    throw templateError(
      `Template uses undeclared variable${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}; available here: ${available}`,
      'undeclared_variable',
    );
  }
  try {
    return new Renderer(ctx, globalsFor(env), budget).render(compiled.stmts);
  } catch (e) {
    if (e instanceof TemplateValueError && e.pyType === 'TypeError') {
      // Reference quirk (§3.2 `_eval`): a TypeError while rendering is swallowed and the raw template text is the result.
      return source;
    }
    if (e instanceof RangeError) throw templateError(`Template evaluation failed: ${e.message}`, 'value_error', e);
    throw e;
  }
}

function preview(source: string): string {
  return source.length > 80 ? `${source.slice(0, 77)}...` : source;
}

/** The reference's words (JinjaInterpolation.eval) for a template that mentions stream_state (source-open-exchange-rates). */
export const STREAM_STATE_MESSAGE =
  '`stream_state` is no longer supported for interpolation. We recommend using `stream_interval` instead. Please reference the CDK Migration Guide for more information.';

/**
 * JinjaInterpolation.eval (§3.2): returns the literal-evaluated result (§3.3), falling back to
 * `default` when the render is empty or an undefined chain is hit. Throws RuntimeError with kind
 * template_syntax_error | undeclared_variable | config_error | value_error.
 */
export function evaluateTemplate(template: unknown, context: object, options: EvalOptions = {}, env?: RuntimeEnv): unknown {
  const ctx = context as PyDict;
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (typeof template === 'string' && template.includes('stream_state')) {
    // Spec §3.2 step 3: the substring anywhere rejects the template.
    throw templateError(STREAM_STATE_MESSAGE, 'config_error');
  }
  if (typeof template !== 'string')
    throw templateError(`Expected a string template, got ${template === null ? 'null' : typeof template}`, 'value_error');
  // Plain text (no markup, no trailing newline for Jinja to strip) renders as itself.
  if (template !== '' && !template.includes('{') && !/[\r\n]$/.test(template)) return literalEval(template, options.validTypes);
  try {
    try {
      const rendered = renderOnce(template, ctx, env, budget);
      if (rendered !== '') return literalEval(rendered, options.validTypes);
    } catch (e) {
      if (!(e instanceof UndefinedAccessError)) throw e;
    }
    const dflt = options.default ?? null;
    if (dflt === null) return null;
    return literalEval(renderOnce(dflt, ctx, env, budget), options.validTypes);
  } catch (e) {
    if (e instanceof RuntimeError) throw e;
    if (e instanceof UndefinedAccessError)
      throw templateError(`Template evaluation failed: ${e.message} (in "${preview(template)}")`, 'value_error', e);
    if (e instanceof TemplateValueError)
      throw templateError(`Template evaluation failed: ${e.message} (in "${preview(template)}")`, 'value_error', e);
    throw templateError(`Template evaluation failed: ${(e as Error).message}`, 'value_error', e);
  }
}

// The reference's Interpolated* wrappers (§3.4) as used by requests, pagination and record selection,
// on top of the template evaluator's `interpolate`. Keeping them in one module means the request
// pipeline switches evaluator helpers in one place.
import { interpolate } from '../interpolation';
import type { RuntimeEnv } from '../types';
import { configError } from '../errors';

export type TemplateContext = Record<string, unknown>;

/** InterpolatedString.eval: a manifest string field; an empty render gives "" (§3.4). Non-strings pass through. */
export function evalString(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): unknown {
  if (typeof value !== 'string') return value;
  return interpolate(value, ctx, 'string', env);
}

/** Plain evaluation with no default: an empty render gives null (§3.2 step 9). */
export function evalNullable(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): unknown {
  if (typeof value !== 'string') return value;
  return interpolate(value, ctx, 'jinja', env);
}

/** InterpolatedBoolean (§3.4): real booleans pass through; null is true, empty/"False"/0/[] false. */
export function evalBoolean(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): boolean {
  if (typeof value === 'boolean') return value;
  if (value === undefined || value === null) return false;
  return Boolean(interpolate(String(value), ctx, 'boolean', env));
}

/** `str()` of a value as Python prints it, for header values and query/form serialisation. */
export function pythonStr(v: unknown): string {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? pyNumber(v) : String(v);
  return JSON.stringify(v);
}

function pyNumber(n: number): string {
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Number.isNaN(n)) return 'nan';
  return String(n);
}

/**
 * InterpolatedMapping (§3.4) for request_parameters / request_body_data (`stringOrList`: values stay
 * strings unless they evaluate to a list) and request_headers (values literal-evaluated). Values that
 * evaluate to null are dropped; keys are rendered as strings.
 */
export function evalMapping(mapping: unknown, ctx: TemplateContext, opts: { stringOrList: boolean; what: string }, env?: RuntimeEnv): Record<string, unknown> {
  if (mapping === undefined || mapping === null) return {};
  if (typeof mapping === 'string') {
    // Spec §4.3: a whole-mapping template must render to an object literal.
    const v = evalNullable(mapping, ctx, env);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return evalMapping(v, {}, opts, env);
    if (opts.what === 'request_headers') throw configError(`request_headers template must render to an object, got ${typeof v}; headers cannot be a string.`);
    return {};
  }
  if (typeof mapping !== 'object' || Array.isArray(mapping)) throw configError(`${opts.what} must be an object or a template string.`);
  const out: Record<string, unknown> = {};
  for (const [rawKey, rawValue] of Object.entries(mapping as Record<string, unknown>)) {
    const key = rawKey.includes('{') ? pythonStr(evalString(rawKey, ctx, env)) : rawKey;
    let value: unknown;
    if (typeof rawValue === 'string') {
      value = evalNullable(rawValue, ctx, env);
      if (opts.stringOrList && value !== null && !Array.isArray(value)) value = renderedText(rawValue, value);
    } else value = rawValue;
    if (value === null || value === undefined) continue;
    if (opts.stringOrList && typeof value === 'object' && !Array.isArray(value)) {
      throw configError(`Invalid value for \`${key}\` in ${opts.what}: values of request params cannot be an object.`);
    }
    out[key] = value;
  }
  return out;
}

/** The text a template rendered to, for fields that keep strings (valid types str/list). */
function renderedText(template: string, evaluated: unknown): string {
  if (typeof evaluated === 'string') return evaluated;
  // A template without markup is plain text and must not be reinterpreted ("007" stays "007").
  if (!template.includes('{{') && !template.includes('{%')) return template;
  return pythonStr(evaluated);
}

/** InterpolatedNestedMapping (§3.4): recursive, typed values; null entries removed from objects. */
export function evalNestedMapping(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): unknown {
  if (typeof value === 'string') return evalNullable(value, ctx, env);
  if (Array.isArray(value)) return value.map((v) => evalNestedMapping(v, ctx, env));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const key = k.includes('{') ? pythonStr(evalString(k, ctx, env)) : k;
      const ev = evalNestedMapping(v, ctx, env);
      if (ev !== null && ev !== undefined) out[key] = ev;
    }
    return out;
  }
  return value;
}

/** Python truthiness of a JSON value (falsy: null, false, 0, "", [], {}). */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

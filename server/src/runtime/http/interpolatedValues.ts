// The reference's Interpolated* wrappers (§3.4) as used by requests, pagination and record selection,
// on top of the template evaluator's helpers (interpolation/wrappers.ts). Keeping them in one module means the request
// pipeline switches evaluator helpers in one place.
import {
  interpolate,
  evalString as evalInterpolatedString,
  evalText as evalInterpolatedText,
  evalBoolean as evalInterpolatedBoolean,
  evalMapping as evalInterpolatedMapping,
  evalNestedMapping as evalInterpolatedNested,
  pythonText,
} from '../interpolation';
import type { RuntimeEnv } from '../types';
import { configError } from '../errors';
import { setOwn } from '../shared/safeObject';

export type TemplateContext = Record<string, unknown>;

/** InterpolatedString.eval: a manifest string field; an empty render gives "" (§3.4). Non-strings pass through. */
export function evalString(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): unknown {
  if (typeof value !== 'string') return value;
  return evalInterpolatedString(value, ctx, {}, env);
}

/**
 * Python's `str()` of InterpolatedString.eval: what the reference sends when it stringifies a field (URL
 * parts, plain-text bodies). A float stays a float (`{{ 1710028800 * 1000 }}` → "1710028800000.0").
 */
export function evalText(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): string {
  if (typeof value !== 'string') return pythonStr(value);
  return evalInterpolatedText(value, ctx, {}, env);
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
  return evalInterpolatedBoolean(String(value), ctx, env);
}

/** `str()` of a value as Python prints it, for header values and query/form serialisation. */
export function pythonStr(v: unknown): string {
  if (v === undefined) return 'None';
  return pythonText(v);
}

/**
 * InterpolatedMapping (§3.4) for request_parameters / request_body_data (`stringOrList`: values stay
 * strings unless they evaluate to a list) and request_headers (values literal-evaluated). Values that
 * evaluate to null are dropped; keys are rendered as strings.
 */
export function evalMapping(
  mapping: unknown,
  ctx: TemplateContext,
  opts: { stringOrList: boolean; what: string },
  env?: RuntimeEnv,
): Record<string, unknown> {
  if (mapping === undefined || mapping === null) return {};
  if (typeof mapping === 'string') {
    // Spec §4.3: a whole-mapping template must render to an object literal.
    const v = evalNullable(mapping, ctx, env);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return evalMapping(v, {}, opts, env);
    if (opts.what === 'request_headers')
      throw configError(`request_headers template must render to an object, got ${typeof v}; headers cannot be a string.`);
    return {};
  }
  if (typeof mapping !== 'object' || Array.isArray(mapping)) throw configError(`${opts.what} must be an object or a template string.`);
  // Values are str()-ed later (query, form, headers) as Python would: integral floats stay floats.
  const evaluated = evalInterpolatedMapping(
    mapping as Record<string, unknown>,
    ctx,
    opts.stringOrList ? { validValueTypes: ['str', 'list'], keepFloats: true } : { keepFloats: true },
    env,
  );
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(evaluated)) {
    // Spec §3.4: a value that renders empty becomes null and its key is dropped.
    if (value === null || value === undefined) continue;
    if (opts.stringOrList && typeof value === 'object' && !Array.isArray(value)) {
      throw configError(`Invalid value for \`${key}\` in ${opts.what}: values of request params cannot be an object.`);
    }
    setOwn(out, key, value);
  }
  return out;
}

/**
 * InterpolatedNestedMapping (§3.4): recursive, typed values; null entries removed from objects. Integral
 * floats stay PyFloat so that a JSON body carries Python's `1.0` (pythonJsonDumps).
 */
export function evalNestedMapping(value: unknown, ctx: TemplateContext, env?: RuntimeEnv): unknown {
  return evalInterpolatedNested(value, ctx, env, true);
}

/** Python truthiness of a JSON value (falsy: null, false, 0, "", [], {}). */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

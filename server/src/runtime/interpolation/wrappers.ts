// The reference's interpolation wrappers (§3.4): InterpolatedString, InterpolatedBoolean,
// InterpolatedMapping and InterpolatedNestedMapping, as functions over a template context
// (`{ config, parameters, ...field variables }`, see variables.ts for what each field provides).
import type { RuntimeEnv } from '../types';
import { type EvalOptions, evaluateTemplate } from './jinja';
import type { LiteralType } from './literal';
import { PyTuple, isDict, pyEquals, pyStr, toPlain } from './values';

/** Options of evalString: `default` (null = none; omitted = the template itself) and `validTypes`. */
export interface StringOptions {
  default?: string | null;
  validTypes?: readonly LiteralType[];
}

/**
 * InterpolatedString.eval (§3.4): the template is its own default, so an empty render re-renders
 * and yields "". Returns the typed value (numbers, booleans, null, objects, strings; ints beyond
 * ±2^53 as their exact digit text). Throws RuntimeError with `kind` on template errors.
 */
export function evalString(template: string, context: object, options: StringOptions = {}, env?: RuntimeEnv): unknown {
  return toPlain(evalStringTyped(template, context, options, env));
}

function evalStringTyped(template: string, context: object, options: StringOptions, env?: RuntimeEnv): unknown {
  const opts: EvalOptions = { default: options.default === undefined ? template : options.default, validTypes: options.validTypes };
  return evaluateTemplate(template, context, opts, env);
}

/**
 * Python's str() of what InterpolatedString.eval returns: what the reference sends when it
 * stringifies the result (header values, tokens, URL parts): `1e10` → "10000000000.0", null → "None".
 */
export function evalText(template: string, context: object, options: StringOptions = {}, env?: RuntimeEnv): string {
  return pyStr(evalStringTyped(template, context, options, env));
}

/** Python's str() of a value returned by these helpers (null → "None", true → "True", dicts as repr). */
export function pythonText(value: unknown): string {
  return pyStr(value);
}

const FALSE_VALUES: unknown[] = ['False', 'false', '{}', '[]', '()', '', '0', '0.0', {}, false, [], new PyTuple([]), new Set()];

/**
 * InterpolatedBoolean.eval (§3.4): a real boolean is returned as is; otherwise the template is
 * evaluated with default "False" and is false iff the result equals one of the reference's false
 * values. Reference quirk: a result of null is TRUE.
 */
export function evalBoolean(condition: string | boolean, context: object, env?: RuntimeEnv): boolean {
  if (typeof condition === 'boolean') return condition;
  const value = evaluateTemplate(condition, context, { default: 'False' }, env);
  return !FALSE_VALUES.some((f) => pyEquals(value, f));
}

/** Options of evalMapping: types accepted for keys (default str) and values (default any). */
export interface MappingOptions {
  validKeyTypes?: readonly LiteralType[];
  validValueTypes?: readonly LiteralType[];
  /** Keep integral floats as PyFloat (see toPlain) for values serialised as Python would. */
  keepFloats?: boolean;
}

/**
 * InterpolatedMapping.eval (§3.4): keys and string values are interpolated, values with no default
 * (an empty render gives null; callers drop such keys). Non-string values pass through unchanged.
 */
export function evalMapping(
  mapping: Record<string, unknown>,
  context: object,
  options: MappingOptions = {},
  env?: RuntimeEnv,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(mapping)) {
    const key = evaluateTemplate(name, context, { default: null, validTypes: options.validKeyTypes ?? ['str'] }, env);
    const v =
      typeof value === 'string' ? evaluateTemplate(value, context, { default: null, validTypes: options.validValueTypes }, env) : value;
    Object.defineProperty(out, typeof key === 'string' ? key : pyStr(key), {
      value: toPlain(v, options.keepFloats === true),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * InterpolatedNestedMapping.eval (§3.4): recursive over objects and lists; strings are evaluated
 * with no default; entries of objects whose value is null are removed (nulls in lists are kept).
 * `keepFloats` keeps integral floats as PyFloat (see toPlain).
 */
export function evalNestedMapping(value: unknown, context: object, env?: RuntimeEnv, keepFloats = false): unknown {
  return toPlain(nested(value, context, env), keepFloats);
}

function nested(value: unknown, context: object, env?: RuntimeEnv): unknown {
  if (typeof value === 'string') return evaluateTemplate(value, context, { default: null }, env);
  if (Array.isArray(value)) return value.map((v) => nested(v, context, env));
  if (isDict(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = nested(k, context, env);
      const val = nested(v, context, env);
      if (val !== null)
        Object.defineProperty(out, typeof key === 'string' ? key : pyStr(key), {
          value: val,
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
    return out;
  }
  return value;
}

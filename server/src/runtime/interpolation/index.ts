// Public surface of template evaluation (airbyte_cdk/sources/declarative/interpolation/jinja.py): `interpolate` as fixed by
// docs/runtime.md, and the wrapper helpers other runtime modules call (auth, requester, paginator).
// The engine, its decision record and the §3.2 algorithm live in jinja.ts.
import type { RuntimeEnv } from '../types';
import { evaluateTemplate } from './jinja';
import { evalBoolean, evalString } from './wrappers';
import { toPlain } from './values';

export type InterpolationMode = 'jinja' | 'string' | 'boolean';

/**
 * Evaluates a manifest template as the reference does (§3.2–§3.4). `context` holds `config`,
 * `parameters` and the field's variables. Modes: "jinja" = plain evaluation, empty result → null;
 * "string" = a manifest string field (InterpolatedString), empty → ""; "boolean" = a condition
 * (InterpolatedBoolean). Throws RuntimeError (failureType config_error) with `kind`
 * "template_syntax_error" | "undeclared_variable" | "config_error" | "value_error".
 */
export function interpolate(template: string, context: object, mode: InterpolationMode, env?: RuntimeEnv): unknown {
  if (mode === 'boolean') return evalBoolean(template as string | boolean, context, env);
  if (mode === 'string') {
    if (typeof template !== 'string') return evaluateTemplate(template, context, {}, env);
    return evalString(template, context, {}, env);
  }
  return toPlain(evaluateTemplate(template, context, { default: null }, env));
}

export { evalString, evalText, evalBoolean, evalMapping, evalNestedMapping, pythonText } from './wrappers';
export type { StringOptions, MappingOptions } from './wrappers';
export type { LiteralType } from './literal';
export { literalEval } from './literal';
export { jsonLoads } from './macros';
export { compileTemplate, GLOBAL_NAMES } from './jinja';
export { TemplateSyntaxError } from './lexer';
export type { TemplateFacts, NameUse, ConfigAccess } from './analysis';

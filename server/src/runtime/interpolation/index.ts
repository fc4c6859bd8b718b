// Public surface of template evaluation: interpolate(template, context, mode, env).
// PLACEHOLDER for the evaluator of issue #4 (replaced wholesale by the Jinja-compatible evaluator):
// it handles only `{{ a.b['c'] }}` lookups and literals so that other modules can be developed
// against the final signature in the meantime.
import type { RuntimeEnv } from '../types';
import { RuntimeError } from '../errors';

export type InterpolationMode = 'jinja' | 'string' | 'boolean';

/** Evaluates a manifest template as the reference does (§3.2–§3.4). Throws RuntimeError with `kind`. */
export function interpolate(template: string, context: object, mode: InterpolationMode, _env?: RuntimeEnv): unknown {
  if (typeof template !== 'string') {
    if (mode === 'boolean' && typeof template === 'boolean') return template;
    return template;
  }
  const rendered = template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_m, expr: string) => {
    const v = lookup(expr, context as Record<string, unknown>);
    return v === undefined ? '' : v === null ? 'None' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
  if (mode === 'boolean') return !['', 'False', 'false', '0', '0.0', '{}', '[]', '()'].includes(rendered);
  if (rendered === '') return mode === 'string' ? '' : null;
  if (/^-?\d+$/.test(rendered)) return Number(rendered);
  if (rendered === 'None') return null;
  return rendered;
}

function lookup(expr: string, context: Record<string, unknown>): unknown {
  const parts = expr.match(/[A-Za-z_][A-Za-z0-9_]*|\[\s*'[^']*'\s*\]|\[\s*"[^"]*"\s*\]|\[\s*\d+\s*\]/g) ?? [];
  if (parts.length === 0) throw new RuntimeError(`Unsupported template expression: ${expr}`, 'config_error', { kind: 'template_syntax_error' });
  let cur: unknown = context;
  for (const p of parts) {
    const key = p.startsWith('[') ? p.slice(1, -1).trim().replace(/^['"]|['"]$/g, '') : p;
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = Object.prototype.hasOwnProperty.call(cur, key) ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return cur;
}

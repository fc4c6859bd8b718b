// Backoff strategies of DefaultErrorHandler (§9.5): how long to wait before a retry, in seconds.
// A strategy returns null when it has no opinion; the first non-null, truthy wait wins.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError, RuntimeError } from '../errors';
import type { RE2JS } from 're2js';
import { compilePythonRegex, pythonMatchPrefix } from '../interpolation/pythonRegex';
import { TemplateValueError } from '../interpolation/values';
import { evalNullable, type TemplateContext } from './interpolatedValues';
import { headerValue } from './headers';

/** Computes a wait in seconds for retry number `attempt` (1 = first retry), or null. */
export type BackoffStrategy = (response: HttpResponse | null, attempt: number) => number | null;

/** Builds one backoff strategy component. Throws a config error for unknown or custom types. */
export function createBackoffStrategy(
  component: Record<string, unknown>,
  config: object,
  parameters: object,
  env: RuntimeEnv | undefined,
  random: () => number = Math.random,
): BackoffStrategy {
  const ctx: TemplateContext = { config, parameters };
  const num = (field: string, fallback?: number): number | undefined => {
    const raw = component[field];
    if (raw === undefined || raw === null) return fallback;
    const v = evalNullable(raw, ctx, env);
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(n)) throw configError(`${String(component.type)}.${field} must be a number, got ${JSON.stringify(raw)}.`);
    return n;
  };
  const jitter = () => {
    const j = num('jitter_range_in_seconds', 0) ?? 0;
    return j > 0 ? random() * 2 * j : 0;
  };
  switch (component.type) {
    case 'ConstantBackoffStrategy': {
      const b = num('backoff_time_in_seconds');
      if (b === undefined) throw configError('ConstantBackoffStrategy requires backoff_time_in_seconds.');
      return () => b + jitter();
    }
    case 'ExponentialBackoffStrategy': {
      const factor = num('factor', 5) ?? 5;
      return (_r, attempt) => factor * 2 ** attempt + jitter();
    }
    case 'WaitTimeFromHeader': {
      const header = String(evalNullable(component.header, ctx, env) ?? '');
      const regex = headerRegex(component);
      const max = num('max_waiting_time_in_seconds');
      return (response) => {
        const value = headerNumber(response, header, regex);
        if (value === null) return null;
        checkMax(value, max, header);
        return value;
      };
    }
    case 'WaitUntilTimeFromHeader': {
      const header = String(evalNullable(component.header, ctx, env) ?? '');
      const regex = headerRegex(component);
      const minWait = num('min_wait');
      const max = num('max_waiting_time_in_seconds');
      return (response) => {
        const until = headerNumber(response, header, regex);
        if (until === null) return minWait ?? null;
        const nowSeconds = (env?.now?.() ?? new Date()).getTime() / 1000;
        let wait = until - nowSeconds;
        if (minWait !== undefined) wait = Math.max(wait, minWait);
        checkMax(wait, max, header);
        return wait > 0 ? wait : null;
      };
    }
    case 'CustomBackoffStrategy':
      throw configError('CustomBackoffStrategy runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(`Unknown backoff strategy type ${JSON.stringify(component.type)}.`);
  }
}

/** The optional `regex` of a header strategy: Python syntax, run on RE2 (a header cannot make it backtrack). */
function headerRegex(component: Record<string, unknown>): RE2JS | null {
  if (typeof component.regex !== 'string') return null;
  try {
    return compilePythonRegex(component.regex, `${String(component.type)}.regex`);
  } catch (e) {
    throw configError(e instanceof TemplateValueError ? e.message : String(e));
  }
}

function headerNumber(response: HttpResponse | null, header: string, regex: RE2JS | null): number | null {
  if (!response) return null;
  // requests' headers are case-insensitive: `X-RateLimit-Reset` finds `x-ratelimit-reset`.
  const raw = headerValue(response.headers, header);
  if (raw === undefined) return null;
  let text = raw.trim();
  if (regex) {
    // Spec §9.5: the whole match anchored at the start is used, not a capture group.
    let m: string | null;
    try {
      m = pythonMatchPrefix(regex, text, 'header regex');
    } catch {
      // A header too long for the pattern's cost bound cannot hold a usable number.
      return null;
    }
    if (m === null) return null;
    text = m;
  }
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function checkMax(wait: number, max: number | undefined, header: string): void {
  if (max !== undefined && wait >= max) {
    throw new RuntimeError(
      `Header ${header} asks to wait ${wait} s, which reaches max_waiting_time_in_seconds (${max} s); stopping the stream.`,
      'transient_error',
    );
  }
}

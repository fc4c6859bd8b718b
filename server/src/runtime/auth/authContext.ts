// What every authenticator is built from: the component, the (mutable) config, its $parameters,
// the runtime environment and the hooks that report token requests and obtained secrets. Also the
// interpolation helpers shared by all authenticators (airbyte_cdk/sources/declarative/interpolation/interpolated_string.py, §3.6).
import type { AuthParts, AuthenticatorHooks, RequestOptionCompat, RuntimeEnv } from '../types';
import { evalMapping, evalText, interpolate } from '../interpolation';
import { configError } from '../errors';
import { pythonStr } from '../pythonText';

/** A built authenticator: one `authenticate()` call per outgoing data request. */
export interface Authenticator {
  /**
   * Performs token refreshes / logins as needed and returns what it adds to the data request.
   * `sending: true` when the result goes on a request about to be sent by the requester: the
   * reference then reads a header token twice (requester, then the session's auth hook, §6.1).
   */
  authenticate(request?: { sending?: boolean }): Promise<AuthParts>;
  /** Secret values this authenticator has obtained so far (access and session tokens), for masking (§11). */
  secrets(): string[];
  /** Forces a token refresh before the next request (REFRESH_TOKEN_THEN_RETRY, §9.4); no-op when nothing can be refreshed. */
  invalidate(): void;
}

export type Component = Record<string, unknown>;

/** Everything an authenticator factory receives. */
export type AuthBuildContext = {
  config: Record<string, unknown>;
  parameters: Record<string, unknown>;
  urlBase?: string;
  /** Test reads disable the retries of requesters built by authenticators (login requester). */
  disableRetries: boolean;
  env: RuntimeEnv;
  hooks: AuthenticatorHooks;
  /** How RequestOptions treat fields the manifest's declared CDK version did not have. */
  requestOptionCompat?: RequestOptionCompat;
  /** Builds a nested authenticator (login requester, selective, profile assertion). */
  build(component: unknown, parameters?: Record<string, unknown>): Authenticator;
};

/** An empty AuthParts object. */
export function emptyAuthParts(): AuthParts {
  return { request_parameters: {}, request_headers: {}, request_body_data: {}, request_body_json: {} };
}

/** The `$parameters` of a component merged over the inherited ones. */
export function parametersOf(component: Component, inherited: Record<string, unknown>): Record<string, unknown> {
  const own = component.$parameters;
  return own && typeof own === 'object' && !Array.isArray(own) ? { ...inherited, ...(own as Record<string, unknown>) } : inherited;
}

/** Template context of authenticator fields: config and parameters (§3.6), plus extras. */
export function templateContext(ctx: AuthBuildContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { config: ctx.config, parameters: ctx.parameters, ...extra };
}

/**
 * InterpolatedString semantics (§3.4): a non-string value passes through; a template that renders
 * empty gives "". Returns the typed value (a numeric-looking string comes back as a number).
 */
export function renderValue(ctx: AuthBuildContext, template: unknown, extra: Record<string, unknown> = {}): unknown {
  if (template === undefined || template === null) return template ?? null;
  if (typeof template !== 'string') return template;
  return interpolate(template, templateContext(ctx, extra), 'string', ctx.env);
}

/**
 * A rendered field converted with Python `str()` exactly as the reference prints it (a rendered
 * `1e3` becomes "1000.0"); an absent field gives `fallback`.
 */
export function renderText(ctx: AuthBuildContext, template: unknown, fallback = '', extra: Record<string, unknown> = {}): string {
  if (template === undefined || template === null) return fallback;
  if (typeof template !== 'string') return pythonStr(template);
  return evalText(template, templateContext(ctx, extra), {}, ctx.env);
}

/**
 * InterpolatedMapping semantics (§3.4): keys rendered to text, values rendered with no default
 * (an empty render becomes null). Non-string values pass through unchanged.
 */
export function renderMapping(
  ctx: AuthBuildContext,
  mapping: unknown,
  field: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  if (mapping === undefined || mapping === null) return {};
  if (typeof mapping !== 'object' || Array.isArray(mapping)) throw configError(`${field} must be an object of key/value pairs.`);
  return evalMapping(mapping as Record<string, unknown>, templateContext(ctx, extra), {}, ctx.env);
}

/** Reads a required string-ish field of a component, with a located config error when absent. */
export function requireField(component: Component, field: string): unknown {
  const value = component[field];
  if (value === undefined || value === null) throw configError(`${String(component.type)} requires the field '${field}'.`);
  return value;
}

/** Reads a value at a path of keys in an object; undefined when any step is missing. */
export function valueAtPath(root: unknown, path: readonly string[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

// setValueAtPath is the runtime's one writer by path (safePath.ts); the authenticators take it from here too.
export { setValueAtPath } from '../safePath';

/** Validates that a manifest field is an array of strings (paths are not interpolated, §3.5). */
export function stringArray(value: unknown, field: string, fallback?: string[]): string[] {
  if (value === undefined || value === null) {
    if (fallback) return fallback;
    throw configError(`${field} is required and must be a list of strings.`);
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' && typeof v !== 'number')) {
    throw configError(`${field} must be a list of strings.`);
  }
  return value.map(String);
}

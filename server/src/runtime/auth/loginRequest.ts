// The login request of SessionTokenAuthenticator (reference-behaviour.md §6.9): builds and sends the
// request its `login_requester` (an HttpRequester) describes — URL joining (§4.2), typed request
// options (§4.3), body variants (§4.4), its own authenticator — and applies its error handler's
// response filters and retries (§9) in a reduced form.
import type { HttpRequest, HttpResponse } from '../types';
import { configError, systemError, transientError, type FailureType, RuntimeError } from '../errors';
import { interpolate } from '../interpolation';
import { encodeForm, pythonJsonDumps, pythonStr } from './pythonText';
import { safeUrl, sendRequest } from './authHttp';
import { renderMapping, templateContext, type AuthBuildContext, type Authenticator, type Component } from './authContext';

/** Default mapping of §9.3 for the statuses a login can answer. */
function defaultAction(status: number): { action: 'SUCCESS' | 'FAIL' | 'RETRY'; failureType: FailureType } {
  if (status < 400) return { action: 'SUCCESS', failureType: 'system_error' };
  if (status === 401 || status === 403) return { action: 'FAIL', failureType: 'config_error' };
  if ([400, 404, 405].includes(status)) return { action: 'FAIL', failureType: 'system_error' };
  if (status === 408 || status === 429 || status >= 500) return { action: 'RETRY', failureType: 'transient_error' };
  return { action: 'RETRY', failureType: 'system_error' };
}

/** A login requester ready to send: `send()` returns the successful response or throws a RuntimeError. */
export type LoginRequester = { send(onExchange: (req: HttpRequest, res: HttpResponse | null) => void): Promise<HttpResponse> };

/** Builds the login requester; its own authenticator is built now (build-time errors surface here). */
export function createLoginRequester(requester: Component, ctx: AuthBuildContext): LoginRequester {
  if (!requester || typeof requester !== 'object') throw configError('SessionTokenAuthenticator.login_requester must be an HttpRequester.');
  if (requester.request_body_data !== undefined && requester.request_body_json !== undefined) {
    throw configError('login_requester: only one of request_body_data and request_body_json may be set.');
  }
  const own: Authenticator = ctx.build(requester.authenticator);
  const handler = (requester.error_handler ?? {}) as Component;
  const maxRetries = typeof handler.max_retries === 'number' ? handler.max_retries : 5;
  const sleep = ctx.env.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    async send(onExchange) {
      for (let attempt = 0; ; attempt++) {
        const request = await buildRequest(requester, ctx, own);
        let response: HttpResponse | null = null;
        try {
          response = await sendRequest(ctx.env, request);
        } catch (err) {
          onExchange(request, null);
          if (attempt < maxRetries) {
            await sleep(1000 * 2 ** attempt);
            continue;
          }
          throw transientError(`The login request to ${safeUrl(request.url)} failed (${(err as { code?: string }).code ?? 'network error'}).`, { cause: err });
        }
        onExchange(request, response);
        const verdict = resolve(handler, response, ctx);
        if (verdict.action === 'SUCCESS') return response;
        if (verdict.action === 'IGNORE') throw systemError('Failed to get session token: the login response was ignored by the error handler.', { status: response.status });
        if (verdict.action === 'RETRY' && attempt < maxRetries) {
          await sleep(1000 * 2 ** attempt);
          continue;
        }
        const base = verdict.message ?? `The login request to ${safeUrl(request.url)} failed with HTTP ${response.status}.`;
        throw new RuntimeError(verdict.action === 'RETRY' ? `${base} Retries were exhausted.` : base, verdict.failureType, { status: response.status });
      }
    },
  };
}

function resolve(handler: Component, response: HttpResponse, ctx: AuthBuildContext): { action: string; failureType: FailureType; message?: string } {
  let body: unknown = {};
  try {
    body = JSON.parse(response.body);
  } catch {
    body = {};
  }
  const filters = Array.isArray(handler.response_filters) ? (handler.response_filters as Component[]) : [];
  for (const f of filters) {
    const codes = Array.isArray(f.http_codes) ? f.http_codes.map(Number) : [];
    const contains = typeof f.error_message_contains === 'string' && response.body.includes(f.error_message_contains);
    const predicate =
      typeof f.predicate === 'string' && interpolate(f.predicate, { config: null, parameters: ctx.parameters, response: body, headers: response.headers }, 'boolean', ctx.env) === true;
    if (codes.includes(response.status) || contains || predicate) {
      const action = String(f.action ?? 'FAIL');
      const failureType = (action === 'FAIL' && typeof f.failure_type === 'string' ? f.failure_type : defaultAction(response.status).failureType) as FailureType;
      const message =
        typeof f.error_message === 'string'
          ? pythonStr(interpolate(f.error_message, { config: ctx.config, parameters: ctx.parameters, response: body, headers: response.headers }, 'string', ctx.env))
          : undefined;
      return { action: action === 'RATE_LIMITED' ? 'RETRY' : action, failureType, message };
    }
  }
  return defaultAction(response.status);
}

async function buildRequest(requester: Component, ctx: AuthBuildContext, own: Authenticator): Promise<HttpRequest> {
  const extra = { stream_slice: {}, stream_interval: {}, stream_partition: {}, next_page_token: null };
  const context = templateContext(ctx, extra);
  const text = (t: unknown) => (typeof t === 'string' ? pythonStr(interpolate(t, context, 'string', ctx.env)) : '');
  const base = text(requester.url_base);
  const path = text(requester.path).replace(/^\/+/, '');
  const url = text(requester.url);
  // Spec §4.2: url_base + path when url_base is set, else url (+ path).
  let target = base ? joinUrl(base, path) : path ? joinUrl(url, path) : url;
  if (!target) throw configError('login_requester has no url; set url to the login endpoint.');
  const auth = await own.authenticate();
  const params = { ...typedParams(renderMapping(ctx, requester.request_parameters, 'login_requester.request_parameters', extra)), ...auth.request_parameters };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...renderMapping(ctx, requester.request_headers, 'login_requester.request_headers', extra), ...auth.request_headers })) {
    if (v !== null && v !== undefined) headers[k] = pythonStr(v);
  }
  const query = encodeForm(params);
  if (query) target += (target.includes('?') ? '&' : '?') + query;
  const { json, form, raw } = bodies(requester, ctx, extra);
  const jsonBody = { ...json, ...auth.request_body_json };
  const formBody = { ...form, ...auth.request_body_data };
  let body: string | null = null;
  if (raw !== null) body = raw;
  else if (Object.keys(jsonBody).length) {
    body = pythonJsonDumps(jsonBody);
    headers['Content-Type'] ??= 'application/json';
  } else if (Object.keys(formBody).length) {
    body = encodeForm(formBody);
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  }
  return { method: String(requester.http_method ?? 'GET').toUpperCase(), url: target, headers, body };
}

/** Spec §4.3: query and form values stay text unless they are lists; empty renders are dropped. */
function typedParams(mapping: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(mapping)) {
    if (v === null || v === undefined) continue;
    out[k] = Array.isArray(v) ? v : pythonStr(v);
  }
  return out;
}

function bodies(requester: Component, ctx: AuthBuildContext, extra: Record<string, unknown>): { json: Record<string, unknown>; form: Record<string, unknown>; raw: string | null } {
  const body = requester.request_body as Component | undefined;
  const nested = (value: unknown): Record<string, unknown> => renderNested(value, ctx, extra) as Record<string, unknown>;
  if (body && typeof body === 'object') {
    if (body.type === 'RequestBodyPlainText') return { json: {}, form: {}, raw: pythonStr(interpolate(String(body.value ?? ''), templateContext(ctx, extra), 'string', ctx.env)) };
    if (body.type === 'RequestBodyUrlEncodedForm') return { json: {}, form: typedParams(renderMapping(ctx, body.value, 'request_body.value', extra)), raw: null };
    if (body.type === 'RequestBodyJsonObject') return { json: nested(body.value ?? {}), form: {}, raw: null };
    if (body.type === 'RequestBodyGraphQL') return { json: nested(body.value ?? {}), form: {}, raw: null };
  }
  if (requester.request_body_json && typeof requester.request_body_json === 'object') return { json: nested(requester.request_body_json), form: {}, raw: null };
  if (typeof requester.request_body_data === 'string') return { json: {}, form: {}, raw: pythonStr(interpolate(requester.request_body_data, templateContext(ctx, extra), 'string', ctx.env)) };
  if (requester.request_body_data && typeof requester.request_body_data === 'object') {
    return { json: {}, form: typedParams(renderMapping(ctx, requester.request_body_data, 'request_body_data', extra)), raw: null };
  }
  return { json: {}, form: {}, raw: null };
}

/** InterpolatedNestedMapping (§3.4): typed values, null entries removed from objects. */
function renderNested(value: unknown, ctx: AuthBuildContext, extra: Record<string, unknown>): unknown {
  if (typeof value === 'string') return interpolate(value, templateContext(ctx, extra), 'jinja', ctx.env);
  if (Array.isArray(value)) return value.map((v) => renderNested(v, ctx, extra));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const rendered = renderNested(v, ctx, extra);
      if (rendered !== null && rendered !== undefined) out[pythonStr(interpolate(k, templateContext(ctx, extra), 'string', ctx.env))] = rendered;
    }
    return out;
  }
  return value;
}

/** Spec §4.2 join: append `/` to the base when missing, then resolve the path as a relative reference. */
function joinUrl(base: string, path: string): string {
  if (!path) return base;
  try {
    return new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
  } catch {
    throw configError(`login_requester URL '${safeUrl(base)}' is not a valid absolute URL.`);
  }
}

// DefaultErrorHandler, HttpResponseFilter and CompositeErrorHandler (§9.1-§9.4): maps a response or a
// network failure to an action, a failure type and a message. The retry loop lives in requester.ts.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError, type FailureType } from '../errors';
import { evalBoolean, evalNullable, pythonStr } from './interpolatedValues';
import { createBackoffStrategy, type BackoffStrategy } from './backoffStrategies';
import { caseInsensitiveHeaders } from './headers';

export type ResponseAction = 'SUCCESS' | 'FAIL' | 'RETRY' | 'IGNORE' | 'RESET_PAGINATION' | 'RATE_LIMITED' | 'REFRESH_TOKEN_THEN_RETRY';

/** What to do with one response; `message` is null when the default text applies. */
export type ErrorResolution = { action: ResponseAction; failureType: FailureType; message: string | null };

/** A built error handler. */
export type ErrorHandler = {
  interpret(response: HttpResponse | null, error: unknown): ErrorResolution;
  maxRetries: number;
  backoffStrategies: BackoffStrategy[];
};

const ACTIONS = new Set<ResponseAction>([
  'SUCCESS',
  'FAIL',
  'RETRY',
  'IGNORE',
  'RESET_PAGINATION',
  'RATE_LIMITED',
  'REFRESH_TOKEN_THEN_RETRY',
]);

// Spec §9.3: the default mapping by status code, with the reference's own texts (DEFAULT_ERROR_MAPPING).
const DEFAULT_MAPPING: Record<number, [ResponseAction, FailureType, string]> = {
  400: ['FAIL', 'system_error', 'HTTP Status Code: 400. Error: Bad request. Please check your request parameters.'],
  401: ['FAIL', 'config_error', 'HTTP Status Code: 401. Error: Unauthorized. Please ensure you are authenticated correctly.'],
  403: ['FAIL', 'config_error', "HTTP Status Code: 403. Error: Forbidden. You don't have permission to access this resource."],
  404: ['FAIL', 'system_error', 'HTTP Status Code: 404. Error: Not found. The requested resource was not found on the server.'],
  405: ['FAIL', 'system_error', 'HTTP Status Code: 405. Error: Method not allowed. Please check your request method.'],
  408: ['RETRY', 'transient_error', 'HTTP Status Code: 408. Error: Request timeout.'],
  429: ['RATE_LIMITED', 'transient_error', 'HTTP Status Code: 429. Error: Too many requests.'],
  500: ['RETRY', 'transient_error', 'HTTP Status Code: 500. Error: Internal server error.'],
  502: ['RETRY', 'transient_error', 'HTTP Status Code: 502. Error: Bad gateway.'],
  503: ['RETRY', 'transient_error', 'HTTP Status Code: 503. Error: Service unavailable.'],
  504: ['RETRY', 'transient_error', 'HTTP Status Code: 504. Error: Gateway timeout.'],
};

/** The default text for a status, used when no filter supplies error_message. */
export function defaultMessage(status: number): string {
  return DEFAULT_MAPPING[status]?.[2] ?? `Unexpected HTTP status ${status}.`;
}

/** The reference's own text for a status, or null where it has none. */
export function referenceStatusMessage(status: number): string | null {
  return DEFAULT_MAPPING[status]?.[2] ?? null;
}

/** Builds DefaultErrorHandler / CompositeErrorHandler; absent → default handler with no filters. */
export function createErrorHandler(
  component: Record<string, unknown> | undefined,
  config: object,
  parameters: object,
  env?: RuntimeEnv,
): ErrorHandler {
  if (!component) return buildDefault({ type: 'DefaultErrorHandler' }, config, parameters, env);
  if (component.type === 'CompositeErrorHandler') {
    const handlers = ((component.error_handlers as Record<string, unknown>[]) ?? []).map((h) =>
      createErrorHandler(h, config, parameters, env),
    );
    if (handlers.length === 0) throw configError('CompositeErrorHandler needs at least one error handler.');
    return {
      maxRetries: handlers[0].maxRetries,
      backoffStrategies: handlers.flatMap((h) => h.backoffStrategies),
      interpret(response, error) {
        let last: ErrorResolution | null = null;
        for (const h of handlers) {
          last = h.interpret(response, error);
          if (['SUCCESS', 'RETRY', 'IGNORE', 'RESET_PAGINATION'].includes(last.action)) return last;
        }
        return last as ErrorResolution;
      },
    };
  }
  if (component.type === 'CustomErrorHandler')
    throw configError('CustomErrorHandler runs Python code and is not runnable outside the Python CDK.');
  if (component.type !== undefined && component.type !== 'DefaultErrorHandler')
    throw configError(`Unknown error handler type ${JSON.stringify(component.type)}.`);
  return buildDefault(component, config, parameters, env);
}

function buildDefault(component: Record<string, unknown>, config: object, parameters: object, env?: RuntimeEnv): ErrorHandler {
  const params = (component.$parameters as object) ?? parameters;
  let maxRetries = 5;
  if (component.max_retries !== undefined && component.max_retries !== null) {
    const v = evalNullable(component.max_retries, { config, parameters: params }, env);
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw configError(`DefaultErrorHandler.max_retries must evaluate to an integer, got ${JSON.stringify(component.max_retries)}.`);
    maxRetries = v;
  }
  const filters = ((component.response_filters as Record<string, unknown>[]) ?? []).map((f) => buildFilter(f, config, params, env));
  const backoffStrategies = ((component.backoff_strategies as Record<string, unknown>[]) ?? []).map((s) =>
    createBackoffStrategy(s, config, params, env),
  );
  return {
    maxRetries,
    backoffStrategies,
    interpret(response, error) {
      if (response) {
        for (const f of filters) {
          const r = f(response);
          if (r) return r;
        }
        if (response.status < 400) return { action: 'SUCCESS', failureType: 'system_error', message: null };
        const mapped = DEFAULT_MAPPING[response.status];
        if (mapped) return { action: mapped[0], failureType: mapped[1], message: null };
        // Spec §9.1 step 4: anything unmapped is retried as a system error (e.g. 409, 422).
        return { action: 'RETRY', failureType: 'system_error', message: null };
      }
      const code = (error as { code?: string })?.code;
      if (code === 'ERR_INVALID_URL_SCHEME') return { action: 'FAIL', failureType: 'config_error', message: (error as Error).message };
      return { action: 'RETRY', failureType: 'transient_error', message: (error as Error)?.message ?? 'Network error.' };
    },
  };
}

function buildFilter(
  f: Record<string, unknown>,
  config: object,
  parameters: object,
  env?: RuntimeEnv,
): (r: HttpResponse) => ErrorResolution | null {
  const action = String(f.action ?? '') as ResponseAction;
  if (!ACTIONS.has(action))
    throw configError(`HttpResponseFilter.action must be one of ${[...ACTIONS].join(', ')}; got ${JSON.stringify(f.action)}.`);
  const codes = new Set(((f.http_codes as number[]) ?? []).map(Number));
  const contains = typeof f.error_message_contains === 'string' ? f.error_message_contains : null;
  return (response) => {
    const body = parseJson(response.body);
    // As the CDK's HttpResponseFilter (airbyte_cdk/sources/declarative/requesters/error_handlers/http_response_filter.py): the filter's templates see requests' case-insensitive headers.
    const headers = caseInsensitiveHeaders(response.headers);
    const inCodes = codes.has(response.status);
    // Spec §3.6: the predicate sees response and headers, and config is null there.
    const predicate =
      !inCodes && f.predicate ? evalBoolean(f.predicate, { config: null, parameters, response: body ?? {}, headers }, env) : false;
    const containsMatch =
      !inCodes && !predicate && contains !== null ? (parsedErrorMessage(body, response.body) ?? '').includes(contains) : false;
    if (!inCodes && !predicate && !containsMatch) return null;
    const mapped = DEFAULT_MAPPING[response.status];
    const failureType: FailureType =
      action === 'FAIL' && typeof f.failure_type === 'string' ? (f.failure_type as FailureType) : (mapped?.[1] ?? 'system_error');
    const message = f.error_message
      ? pythonStr(evalNullable(f.error_message, { config, parameters, response: body ?? {}, headers }, env))
      : null;
    return { action, failureType, message };
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const MESSAGE_KEYS = [
  'message',
  'messages',
  'error',
  'errors',
  'failures',
  'failure',
  'detail',
  'err',
  'error_message',
  'msg',
  'reason',
  'status_message',
];

/** The API's own error text: first hit of the usual keys, searched recursively (§9.2); raw text otherwise. */
export function parsedErrorMessage(body: unknown, raw: string): string | null {
  if (body === null || body === undefined) return raw || null;
  const found = searchMessage(body, 0);
  return found ?? null;
}

function searchMessage(v: unknown, depth: number): string | null {
  if (depth > 20) return null;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const parts = v.map((x) => searchMessage(x, depth + 1)).filter((x): x is string => !!x);
    return parts.length ? parts.join(', ') : null;
  }
  if (v && typeof v === 'object') {
    for (const k of MESSAGE_KEYS) {
      if (k in (v as object)) {
        const hit = searchMessage((v as Record<string, unknown>)[k], depth + 1);
        if (hit) return hit;
      }
    }
  }
  return null;
}

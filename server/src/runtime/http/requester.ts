// HttpRequester (§4): builds the request for a slice and page token from every option provider, sends it
// through the transport and applies the error handler with retries (§9.5). Nothing here knows about pages.
import type { AuthParts, HttpRequest, HttpResponse, RequestParts, RuntimeEnv } from '../types';
import { configError, RuntimeError, type FailureType } from '../errors';
import { evalMapping, evalNestedMapping, evalString, evalText, pythonStr, type TemplateContext } from './interpolatedValues';
import { PyFloat } from '../interpolation/values';
import { appendQuery, combineMappings, encodeForm, joinUrl, pythonJsonDumps } from './requestOptions';
import {
  createErrorHandler,
  defaultMessage,
  parsedErrorMessage,
  referenceStatusMessage,
  type ErrorHandler,
  type ErrorResolution,
} from './errorHandler';
import { resolveFetch, safeUrl, type FetchFunction } from './transport';
import { templateSlice, type StreamSlice } from '../records/streamSlice';
import { headerValue } from './headers';
import { splitQueryProperties, withQueryProperties } from './queryPropertiesParameter';
import type { ApiBudget } from './apiBudget';

/** Anything that authenticates a data request (docs/runtime.md createAuthenticator result). */
export type Authenticator = {
  authenticate(request?: {
    sending?: boolean;
  }): Promise<AuthParts> /** Forces a token refresh before the next request (REFRESH_TOKEN_THEN_RETRY). */;
  invalidate?(): void;
};

/** One request to build: the slice, the wrapped page token and the retriever-level option providers. */
export type RequestInput = {
  slice: StreamSlice;
  /** `{ next_page_token: t }` or null on a first page (§3.6). */
  nextPageToken: { next_page_token: unknown } | null;
  /** Paginator and partition/cursor parts, in merge order (§4.3). */
  retrieverParts: RequestParts[];
};

/** The last exchange of a send: what went out, what came back, how the error handler read it. */
export type Exchange = { request: HttpRequest; response: HttpResponse; resolution: ErrorResolution };

/** Error of a failed request; carries the exchange so a test read can still show the failing page. */
export class RequestFailedError extends RuntimeError {
  readonly exchange: { request: HttpRequest; response: HttpResponse | null };
  /**
   * What the reference's test read logs for this failure, word for word ("API rate limit exceeded.",
   * "HTTP Status Code: 404. Error: Not found. …"); `message` adds where and what the API said.
   */
  referenceMessage: string | null = null;
  constructor(
    message: string,
    failureType: FailureType,
    exchange: { request: HttpRequest; response: HttpResponse | null },
    status?: number,
    cause?: unknown,
  ) {
    super(message, failureType, { ...(status !== undefined ? { status } : {}), ...(cause !== undefined ? { cause } : {}) });
    this.exchange = exchange;
  }
}

/** The reference's message for a failed request (http_client.py): FAIL, rate limit or exhausted retries. */
function withReferenceMessage(e: RequestFailedError, resolution: ErrorResolution, exhausted: boolean): RequestFailedError {
  const response = e.exchange.response;
  if (!response) {
    // Without a response the reference names requests' exception. Our own transport limits (a time-out, the
    // body size cap) and other socket errors keep our message, which says what happened.
    const network = networkText(e.cause);
    if (network !== null) e.referenceMessage = exhausted ? `${EXHAUSTED}${network}` : network;
    return e;
  }
  const own = resolution.message ?? referenceStatusMessage(response.status);
  if (!exhausted) e.referenceMessage = own;
  // A 429 that used up its retries is "API rate limit exceeded." whatever the action was.
  else if (response.status === 429) e.referenceMessage = 'API rate limit exceeded.';
  else
    e.referenceMessage = `${EXHAUSTED}${own ?? `Request to ${safeUrl(e.exchange.request.url)} failed with failure type ${resolution.failureType}, response action ${resolution.action}.`}`;
  return e;
}

const EXHAUSTED = 'Exhausted available request attempts. Please see logs for more details. Exception: ';

/**
 * A network failure as the reference prints requests' exception: a connection closed without a response is
 * the same text; others keep Node's own words (requests names internal objects by address, docs/fidelity.md).
 */
function networkText(cause: unknown): string | null {
  const c = cause as { message?: string; code?: string; cause?: { code?: string; message?: string } } | undefined;
  const code = c?.cause?.code ?? c?.code;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
    return "ConnectionError: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))";
  return null;
}

export type RequesterOptions = {
  parameters?: object;
  authenticator?: Authenticator;
  /** Spec §9.5: Builder test reads force max_retries to 0. */
  disableRetries?: boolean;
  signal?: AbortSignal;
  /** Upper bound for a Retry-After header wait, in seconds. */
  maxRetryAfterSeconds?: number;
  /** The source's api_budget (http/apiBudget.ts), shared by its requesters. */
  apiBudget?: ApiBudget | null;
};

export type HttpRequester = {
  /** The raw url_base (or url) template, for paginators and authenticators. */
  urlBase: string | undefined;
  build(input: RequestInput): Promise<HttpRequest>;
  send(input: RequestInput): Promise<Exchange>;
};

const MAX_TIME_SECONDS = 600;

/** Builds an HttpRequester. Throws a config error for combinations the reference rejects at build time. */
export function createHttpRequester(
  component: Record<string, unknown>,
  config: object,
  options: RequesterOptions = {},
  env: RuntimeEnv = {},
): HttpRequester {
  const parameters = (component.$parameters as object) ?? options.parameters ?? {};
  if (component.request_body_data !== undefined && component.request_body_json !== undefined) {
    throw configError('HttpRequester defines both request_body_data and request_body_json; only one of them may be set.');
  }
  const method = String(component.http_method ?? 'GET').toUpperCase();
  const errorHandler: ErrorHandler = createErrorHandler(
    component.error_handler as Record<string, unknown> | undefined,
    config,
    parameters,
    env,
  );
  const fetch: FetchFunction = resolveFetch(env, { signal: options.signal });
  const sleep = env.sleep ?? ((ms: number) => abortableDelay(ms, options.signal));
  const authenticator = options.authenticator;
  // A QueryProperties value of request_parameters is the retriever's chunk of properties, not a template.
  const { parameters: requestParameters, key: queryPropertiesKey } = splitQueryProperties(component.request_parameters);

  async function build(input: RequestInput): Promise<HttpRequest> {
    const ctx: TemplateContext = {
      config,
      parameters,
      stream_slice: templateSlice(input.slice),
      next_page_token: input.nextPageToken,
      ...(input.slice.extra_fields ?? {}),
    };
    const pathToken = input.retrieverParts.map((p) => p.path).find((p) => p !== null && p !== undefined && p !== '') ?? null;
    // The reference's order: the URL, the requester's headers, then the authenticator (a token request),
    // then parameters and bodies. A template failing in the URL or headers costs no token request.
    const url = buildUrl(component, ctx, pathToken, env);
    const ownHeaders = evalMapping(component.request_headers, ctx, { stringOrList: false, what: 'request_headers' }, env);
    const auth = authenticator ? await authenticator.authenticate({ sending: true }) : null;
    const ownParams = evalMapping(requestParameters, ctx, { stringOrList: true, what: 'request_parameters' }, env);
    const params = combineMappings(
      [
        queryPropertiesKey === null ? ownParams : withQueryProperties(ownParams, queryPropertiesKey, input.slice),
        auth?.request_parameters,
        ...input.retrieverParts.map((p) => p.request_parameters),
      ],
      { json: false, what: 'request parameters' },
    );
    if (typeof params === 'string') throw configError('Request parameters must be key/value pairs, not a string.');
    const headers = combineMappings([ownHeaders, auth?.request_headers, ...input.retrieverParts.map((p) => p.request_headers)], {
      json: false,
      what: 'request headers',
    });
    if (typeof headers === 'string') throw configError('Request headers must be key/value pairs; headers cannot be a string.');
    const { data, json } = requesterBodies(component, ctx, env);
    const form = combineMappings([data, auth?.request_body_data, ...input.retrieverParts.map((p) => p.request_body_data)], {
      json: false,
      what: 'request_body_data',
    });
    const jsonBody = combineMappings([json, auth?.request_body_json, ...input.retrieverParts.map((p) => p.request_body_json)], {
      json: true,
      what: 'request_body_json',
    });
    const hasForm = typeof form === 'string' ? form !== '' : Object.keys(form).length > 0;
    const hasJson = typeof jsonBody === 'string' ? jsonBody !== '' : Object.keys(jsonBody).length > 0;
    if (hasForm && hasJson)
      throw configError('Request has both a form body and a JSON body; only one of request_body_data and request_body_json may be used.');
    const finalHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== null && v !== undefined) finalHeaders[k] = pythonStr(v);
    let body: string | null = null;
    const hasHeader = (name: string) => Object.keys(finalHeaders).some((k) => k.toLowerCase() === name);
    if (hasJson) {
      body = typeof jsonBody === 'string' ? jsonBody : pythonJsonDumps(jsonBody);
      if (!hasHeader('content-type')) finalHeaders['Content-Type'] = 'application/json';
    } else if (hasForm) {
      body = typeof form === 'string' ? form : encodeForm(form);
      if (typeof form !== 'string' && !hasHeader('content-type')) finalHeaders['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    return { method, url: appendQuery(url, params), headers: finalHeaders, body };
  }

  async function send(input: RequestInput): Promise<Exchange> {
    const maxRetries = options.disableRetries ? 0 : errorHandler.maxRetries;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      if (options.signal?.aborted) throw new RuntimeError('The read was cancelled.', 'system_error');
      const request = await build(input);
      await options.apiBudget?.acquire(request);
      let response: HttpResponse | null = null;
      let error: unknown = null;
      try {
        response = await fetch(request);
      } catch (e) {
        if (options.signal?.aborted) throw new RuntimeError('The read was cancelled.', 'system_error');
        error = e;
      }
      // The budget reads the API's rate-limit headers of every response (LimiterSession.send).
      if (response) options.apiBudget?.update(request, response);
      const resolution = errorHandler.interpret(response, error);
      // The resolution rides along so a caller can word the failure as the reference does (check).
      const exchange = { request, response, resolution };
      switch (resolution.action) {
        case 'SUCCESS':
        case 'IGNORE':
        case 'RESET_PAGINATION':
          return { request, response: response as HttpResponse, resolution };
        case 'FAIL':
          throw withReferenceMessage(failure(resolution, exchange, error), resolution, false);
        default: {
          const rateLimited = resolution.action === 'RATE_LIMITED';
          if (attempt >= maxRetries) {
            const why = rateLimited ? 'API rate limit exceeded' : 'Exhausted available request attempts';
            throw withReferenceMessage(
              new RequestFailedError(
                `${why} (${attempt + 1} attempt${attempt ? 's' : ''}): ${describe(resolution, exchange, error)}`,
                resolution.failureType,
                exchange,
                response?.status,
                error ?? undefined,
              ),
              resolution,
              true,
            );
          }
          const seconds = waitSeconds(response, attempt + 1, rateLimited);
          if (!rateLimited && waited + seconds > MAX_TIME_SECONDS) {
            throw new RequestFailedError(
              `Exhausted the retry time budget of ${MAX_TIME_SECONDS} s: ${describe(resolution, exchange, error)}`,
              resolution.failureType,
              exchange,
              response?.status,
            );
          }
          waited += seconds;
          await sleep(seconds * 1000);
          // Spec §9.4: REFRESH_TOKEN_THEN_RETRY forces a token refresh before the retry (a plain
          // retry for authenticators that have nothing to refresh).
          if (resolution.action === 'REFRESH_TOKEN_THEN_RETRY') authenticator?.invalidate?.();
        }
      }
    }
  }

  function waitSeconds(response: HttpResponse | null, attempt: number, rateLimited: boolean): number {
    for (const strategy of errorHandler.backoffStrategies) {
      const s = strategy(response, attempt);
      // Spec §9.5: the first truthy wait wins and one second is added to it.
      if (s) return s + 1;
    }
    const retryAfter = retryAfterSeconds(response, env);
    if (retryAfter !== null) return Math.min(retryAfter, options.maxRetryAfterSeconds ?? 60);
    return rateLimited ? 2 ** (attempt - 1) : 2 ** (attempt - 1);
  }

  return { urlBase: (component.url_base ?? component.url) as string | undefined, build, send };
}

function failure(
  resolution: ErrorResolution,
  exchange: { request: HttpRequest; response: HttpResponse | null },
  error: unknown,
): RequestFailedError {
  return new RequestFailedError(
    describe(resolution, exchange, error),
    resolution.failureType,
    exchange,
    exchange.response?.status,
    error ?? undefined,
  );
}

function describe(resolution: ErrorResolution, exchange: { request: HttpRequest; response: HttpResponse | null }, error: unknown): string {
  const { request, response } = exchange;
  const where = `${request.method} ${safeUrl(request.url)}`;
  if (!response) return resolution.message ?? `${(error as Error)?.message ?? 'Network error'} (${where})`;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    /* not JSON: the raw text is used */
  }
  const apiText = parsedErrorMessage(parsed, response.body.slice(0, 300));
  const head = resolution.message ?? defaultMessage(response.status);
  return `${head} HTTP ${response.status} for ${where}${apiText ? `; the API said: ${apiText.slice(0, 300)}` : ''}`;
}

/** Retry-After in seconds (delta or HTTP date), or null. */
function retryAfterSeconds(response: HttpResponse | null, env: RuntimeEnv): number | null {
  const raw = headerValue(response?.headers, 'retry-after');
  if (!raw) return null;
  const n = Number(raw);
  if (Number.isFinite(n)) return Math.max(0, n);
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return null;
  return Math.max(0, (date - (env.now?.() ?? new Date()).getTime()) / 1000);
}

/** §4.2 URL construction from url / url_base / path and a paginator path token. */
function buildUrl(component: Record<string, unknown>, ctx: TemplateContext, pathToken: string | null, env: RuntimeEnv): string {
  const render = (v: unknown) => (v === undefined || v === null ? '' : evalText(v, ctx, env));
  const u = render(component.url);
  const b = render(component.url_base);
  // Spec §4.2: a paginator path token is used as is; the requester's own path loses leading slashes.
  const p = pathToken !== null ? pathToken : render(component.path).replace(/^\/+/, '');
  if (b) return joinUrl(b, p);
  // The reference joins an empty url with the path (`urljoin("/", path)`): a path that renders a whole URL
  // (`path: "{{ download_target }}"` with `url_base: ""`, source-amazon-ads) is the URL.
  if (!u && /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(p)) return joinUrl(p, '');
  if (!u) throw configError('HttpRequester needs url (or url_base); it rendered empty. Check the config values it uses.');
  return p ? joinUrl(u, p) : u;
}

/** Requester-level form and JSON bodies from request_body_data / request_body_json / request_body (§4.4). */
function requesterBodies(
  component: Record<string, unknown>,
  ctx: TemplateContext,
  env: RuntimeEnv,
): { data: Record<string, unknown> | string; json: Record<string, unknown> | string } {
  let data: Record<string, unknown> | string = {};
  let json: Record<string, unknown> | string = {};
  const rb = component.request_body as Record<string, unknown> | undefined;
  if (rb) {
    switch (rb.type) {
      case 'RequestBodyPlainText':
        return { data: textBody(rb.value, ctx, env), json };
      case 'RequestBodyUrlEncodedForm':
        return { data: evalMapping(rb.value, ctx, { stringOrList: true, what: 'request_body' }, env), json };
      case 'RequestBodyJsonObject':
        return { data, json: asJsonBody(evalNestedMapping(rb.value, ctx, env)) };
      case 'RequestBodyGraphQL': {
        const value = { query: 'query {\n    \n}', ...((rb.value as object) ?? {}) };
        return { data, json: asJsonBody(evalNestedMapping(value, ctx, env)) };
      }
      default:
        throw configError(`Unknown request_body type ${JSON.stringify(rb.type)}.`);
    }
  }
  const d = component.request_body_data;
  if (typeof d === 'string') data = textBody(d, ctx, env);
  else if (d) data = evalMapping(d, ctx, { stringOrList: true, what: 'request_body_data' }, env);
  const j = component.request_body_json;
  if (typeof j === 'string') json = asJsonBody(evalString(j, ctx, env));
  else if (j) json = asJsonBody(evalNestedMapping(j, ctx, env));
  return { data, json };
}

/**
 * A body given as one string (request_body_data, RequestBodyPlainText) is an InterpolatedString, so its typed
 * result counts: a str is sent as is, a dict becomes a form (floats keep their text), and anything else (a
 * number such as "12", a list) is dropped by the reference's combine_mappings: no body is sent.
 */
function textBody(value: unknown, ctx: TemplateContext, env: RuntimeEnv): Record<string, unknown> | string {
  const v = typeof value === 'string' ? evalNestedMapping(value, ctx, env) : value;
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof PyFloat)) return v as Record<string, unknown>;
  return {};
}

function asJsonBody(v: unknown): Record<string, unknown> | string {
  if (v === null || v === undefined || v === '') return {};
  if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof PyFloat)) return v as Record<string, unknown>;
  if (Array.isArray(v)) return pythonJsonDumps(v);
  return pythonStr(v);
}

function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RuntimeError('The read was cancelled.', 'system_error'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new RuntimeError('The read was cancelled.', 'system_error'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

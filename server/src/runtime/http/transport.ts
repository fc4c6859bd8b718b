// The runtime's one HTTP transport: turns an HttpRequest into an HttpResponse over undici, with a
// per-request timeout, a response size cap, a redirect limit, cancellation and HTTPS_PROXY support.
// Every outgoing request of the runtime goes through `resolveFetch`, so env.fetch replaces it whole.
import type { Dispatcher } from 'undici';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HttpRequest, HttpResponse, RuntimeEnv } from '../types';
import { RuntimeError } from '../errors';
import { DEFAULT_MAX_RESPONSE_BYTES } from './limits';
import { attachBody, readBodyText } from './responseBody';
import { headerValue, headersFromRaw } from './headers';

/**
 * undici, loaded on the first request: evaluating it cost ~40 ms of every language-server start (a
 * sixth of loading the bundle), and most editing sessions send no request.
 */
let undiciModule: typeof import('undici') | undefined;
// A lazy require is the point (the bundles are CommonJS).
function undici(): typeof import('undici') {
  undiciModule ??= require('undici') as typeof import('undici');
  return undiciModule;
}

/** Limits of the default transport. Every field is optional; defaults are in DEFAULT_TRANSPORT_OPTIONS. */
export type TransportOptions = {
  /** Whole-exchange timeout per request (connect, headers and body), in milliseconds. */
  timeoutMs?: number;
  /** Largest accepted response body in bytes (after decompression); larger bodies fail clearly. */
  maxResponseBytes?: number;
  /** How many redirects one request may follow before failing. */
  maxRedirects?: number;
  /** Cancels in-flight requests. */
  signal?: AbortSignal;
};

/** Defaults of the transport: 30 s per exchange, 20 MB per body, 10 redirects. */
export const DEFAULT_TRANSPORT_OPTIONS = { timeoutMs: 30_000, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES, maxRedirects: 10 };

/** The fetch function of docs/runtime.md. */
export type FetchFunction = (req: HttpRequest) => Promise<HttpResponse>;

/** A network-level failure; `code` mimics Node's error codes (ECONNREFUSED, ETIMEDOUT, ...). */
export class TransportError extends RuntimeError {
  readonly code: string;
  constructor(
    message: string,
    code: string,
    failureType: 'transient_error' | 'system_error' | 'config_error' = 'transient_error',
    cause?: unknown,
  ) {
    super(message, failureType, cause !== undefined ? { cause } : {});
    this.code = code;
  }
}

let sharedDispatcher: Dispatcher | null = null;

/** One dispatcher per process: honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY when set, keep-alive otherwise. */
function dispatcher(): Dispatcher {
  if (sharedDispatcher) return sharedDispatcher;
  const env = process.env;
  const proxied = env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;
  sharedDispatcher = proxied ? new (undici().EnvHttpProxyAgent)() : new (undici().Agent)({ keepAliveTimeout: 10_000 });
  return sharedDispatcher;
}

/** Returns env.fetch when given, otherwise the default transport with the given limits. */
export function resolveFetch(env: RuntimeEnv | undefined, options: TransportOptions = {}): FetchFunction {
  if (env?.fetch) return env.fetch;
  return createHttpFetch(options);
}

/** Builds the default transport. The returned function never resolves with a partial body. */
export function createHttpFetch(options: TransportOptions = {}): FetchFunction {
  const opts = { ...DEFAULT_TRANSPORT_OPTIONS, ...stripUndefined(options) };
  return async (req) => {
    let current: HttpRequest = { ...req, headers: { ...req.headers } };
    const followed: Redirect[] = [];
    for (let hop = 0; ; hop++) {
      const res = await sendOnce(current, opts);
      const location = headerValue(res.headers, 'location');
      if (!isRedirect(res.status) || !location) return followed.length ? attachRedirects(res, followed) : res;
      if (hop >= opts.maxRedirects) {
        throw new TransportError(
          `Too many redirects (more than ${opts.maxRedirects}) starting from ${req.method} ${safeUrl(req.url)}; the server may be in a redirect loop.`,
          'ERR_TOO_MANY_REDIRECTS',
        );
      }
      const { next, redirect } = redirectedRequest(current, res.status, location);
      followed.push(redirect);
      current = next;
    }
  };
}

type ResolvedOptions = typeof DEFAULT_TRANSPORT_OPTIONS & { signal?: AbortSignal };

async function sendOnce(req: HttpRequest, opts: ResolvedOptions): Promise<HttpResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new TransportError(
      `Invalid URL: ${safeUrl(req.url)}. Check url/url_base and the config values used in it.`,
      'ERR_INVALID_URL',
      'config_error',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TransportError(
      `Unsupported URL scheme "${url.protocol}" in ${safeUrl(req.url)}; only http and https are allowed.`,
      'ERR_INVALID_URL_SCHEME',
      'config_error',
    );
  }
  if (opts.signal?.aborted) throw cancelled();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await undici().request(url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? undefined,
      signal: controller.signal,
      dispatcher: dispatcher(),
      // Raw headers keep the names as the server sent them (templates see them case-sensitively).
      responseHeaders: 'raw',
    });
    const headers = headersFromRaw(res.headers as unknown as string[]);
    const bytes = await readBody(res.body, headerValue(headers, 'content-encoding'), opts.maxResponseBytes, req);
    const { text, keepBytes } = readBodyText(bytes, headerValue(headers, 'content-type'));
    return attachBody({ status: res.statusCode, headers, body: text }, keepBytes ? bytes : null, opts.maxResponseBytes);
  } catch (e) {
    if (e instanceof RuntimeError) throw e;
    if (timedOut) {
      throw new TransportError(
        `No complete response within ${opts.timeoutMs} ms for ${req.method} ${safeUrl(req.url)}.`,
        'ETIMEDOUT',
        'transient_error',
        e,
      );
    }
    if (opts.signal?.aborted) throw cancelled();
    throw networkError(e, req);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** Reads the body's bytes, decompressing gzip/deflate/br, refusing more than `cap` bytes. */
async function readBody(body: Readable, encoding: string | undefined, cap: number, req: HttpRequest): Promise<Buffer> {
  const tooLarge = () =>
    new TransportError(
      `Response of ${req.method} ${safeUrl(req.url)} exceeds the size limit of ${cap} bytes; refusing to read it (raise the response size cap if this is expected).`,
      'ERR_RESPONSE_TOO_LARGE',
      'system_error',
    );
  const decoder = decompressor(encoding);
  const chunks: Buffer[] = [];
  let size = 0;
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > cap) throw tooLarge();
      chunks.push(chunk);
    }
  };
  // pipeline() destroys every stream on the first failure and keeps listening for their late
  // 'error' events: stopping a body mid-stream (over the cap) must never leave an unhandled
  // 'error' that crashes a long-running caller such as the language server.
  try {
    if (decoder) await pipeline(body, decoder, collect);
    else await pipeline(body, collect);
  } catch (e) {
    // Destroying the streams makes them report an abort; the cap is the real reason.
    throw size > cap ? tooLarge() : e;
  }
  return Buffer.concat(chunks, size);
}

function decompressor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** One redirect the transport followed, as the test read shows it (URLs without their query strings). */
export type Redirect = {
  status: number;
  method: string;
  from: string;
  to: string;
  /** True when the target is another origin (scheme, host or port differ). */
  crossOrigin: boolean;
  /** Names of the headers not sent to the other origin (credentials and anything not known to be harmless). */
  droppedHeaders: string[];
};

/** The redirects the default transport followed to get this response (none: undefined). */
export function redirectsOf(response: HttpResponse | null | undefined): Redirect[] | undefined {
  return (response as { redirects?: Redirect[] } | null | undefined)?.redirects;
}

/** Non-enumerable, like bodyBytes: the response's JSON shape stays that of docs/runtime.md. */
function attachRedirects(response: HttpResponse, redirects: Redirect[]): HttpResponse {
  Object.defineProperty(response, 'redirects', { value: redirects, enumerable: false, writable: true, configurable: true });
  return response;
}

/**
 * Headers that carry no credential and may follow a redirect to another origin. Every other header is
 * dropped there: Authorization, Cookie and Proxy-Authorization, but also API-key headers of any name
 * and headers a manifest renders from config, since the transport cannot know which of those are secret.
 */
const HEADERS_SAFE_ACROSS_ORIGINS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-type',
  'content-length',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'pragma',
  'range',
  'user-agent',
]);

/** Whether a header may carry a credential (anything not known to be harmless). */
export function mayCarryCredential(headerName: string): boolean {
  return !HEADERS_SAFE_ACROSS_ORIGINS.has(headerName.toLowerCase());
}

/**
 * The request to send after a redirect: 303 (and 301/302 after POST) become a bodiless GET, as browsers
 * and requests do. To another origin only harmless headers go along, and a 307/308 that would send the
 * body again (a token request with client_secret and refresh_token, say) is refused.
 */
function redirectedRequest(prev: HttpRequest, status: number, location: string): { next: HttpRequest; redirect: Redirect } {
  let target: URL;
  try {
    target = new URL(location, prev.url);
  } catch {
    throw new TransportError(
      `${prev.method} ${safeUrl(prev.url)} answered ${status} with an invalid Location header; not following it.`,
      'ERR_INVALID_REDIRECT',
      'system_error',
    );
  }
  const from = new URL(prev.url);
  const crossOrigin = from.origin !== target.origin;
  const headers = { ...prev.headers };
  const dropped: string[] = [];
  if (crossOrigin) {
    for (const k of Object.keys(headers)) {
      if (mayCarryCredential(k)) {
        delete headers[k];
        dropped.push(k);
      }
    }
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && prev.method === 'POST');
  if (!toGet && crossOrigin && prev.body !== null && prev.body !== '') {
    throw new TransportError(
      `Refused to follow the ${status} redirect of ${prev.method} ${safeUrl(prev.url)} to another origin (${target.origin}): ` +
        'it would send the request body again, and a body may carry credentials (client_secret, refresh_token, passwords). ' +
        'Use the final URL in the manifest if this redirect is expected.',
      'ERR_UNSAFE_REDIRECT',
      'system_error',
    );
  }
  const redirect: Redirect = {
    status,
    method: prev.method,
    from: safeUrl(prev.url),
    to: safeUrl(target.toString()),
    crossOrigin,
    droppedHeaders: dropped,
  };
  if (toGet) {
    for (const k of Object.keys(headers)) if (/^content-(type|length)$/i.test(k)) delete headers[k];
    return { next: { method: 'GET', url: target.toString(), headers, body: null }, redirect };
  }
  return { next: { ...prev, url: target.toString(), headers }, redirect };
}

/** One line for a test read's log about a redirect that was followed. */
export function describeRedirect(r: Redirect): string {
  const dropped = r.droppedHeaders.length ? `; not sent there: ${r.droppedHeaders.join(', ')}` : '';
  return `Redirect: ${r.method} ${r.from} answered ${r.status}, followed to ${r.to}${r.crossOrigin ? ` (another origin${dropped})` : ''}.`;
}

function networkError(e: unknown, req: HttpRequest): TransportError {
  const err = e as { code?: string; cause?: { code?: string }; message?: string };
  const code =
    err.code && /^E[A-Z]/.test(err.code) && !err.code.startsWith('UND_') ? err.code : (err.cause?.code ?? err.code ?? 'ENETWORK');
  const mapped =
    code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' ? 'ETIMEDOUT' : code;
  return new TransportError(
    `Network error for ${req.method} ${safeUrl(req.url)}: ${mapped}${err.message ? ` (${err.message})` : ''}`,
    mapped,
    'transient_error',
    e,
  );
}

function cancelled(): TransportError {
  return new TransportError('The request was cancelled.', 'ABORT_ERR', 'system_error');
}

/** The URL without its query string, so that keys passed as query parameters never reach a message. */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q)}?…`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

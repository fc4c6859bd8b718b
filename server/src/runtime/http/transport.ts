// The runtime's one HTTP transport: turns an HttpRequest into an HttpResponse over undici, with a
// per-request timeout, a response size cap, a redirect limit, cancellation and HTTPS_PROXY support.
// Every outgoing request of the runtime goes through `resolveFetch`, so env.fetch replaces it whole.
import { Agent, EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HttpRequest, HttpResponse, RuntimeEnv } from '../types';
import { RuntimeError } from '../errors';
import { DEFAULT_MAX_RESPONSE_BYTES } from './limits';
import { attachBody, readBodyText } from './responseBody';

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

/** The fetch function of runtime-api.md. */
export type FetchFunction = (req: HttpRequest) => Promise<HttpResponse>;

/** A network-level failure; `code` mimics Node's error codes (ECONNREFUSED, ETIMEDOUT, ...). */
export class TransportError extends RuntimeError {
  readonly code: string;
  constructor(message: string, code: string, failureType: 'transient_error' | 'system_error' | 'config_error' = 'transient_error', cause?: unknown) {
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
  sharedDispatcher = proxied ? new EnvHttpProxyAgent() : new Agent({ keepAliveTimeout: 10_000 });
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
    for (let hop = 0; ; hop++) {
      const res = await sendOnce(current, opts);
      const location = res.headers.location;
      if (!isRedirect(res.status) || !location) return res;
      if (hop >= opts.maxRedirects) {
        throw new TransportError(
          `Too many redirects (more than ${opts.maxRedirects}) starting from ${req.method} ${safeUrl(req.url)}; the server may be in a redirect loop.`,
          'ERR_TOO_MANY_REDIRECTS',
        );
      }
      current = redirectedRequest(current, res.status, location);
    }
  };
}

type ResolvedOptions = typeof DEFAULT_TRANSPORT_OPTIONS & { signal?: AbortSignal };

async function sendOnce(req: HttpRequest, opts: ResolvedOptions): Promise<HttpResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new TransportError(`Invalid URL: ${safeUrl(req.url)}. Check url/url_base and the config values used in it.`, 'ERR_INVALID_URL', 'config_error');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TransportError(`Unsupported URL scheme "${url.protocol}" in ${safeUrl(req.url)}; only http and https are allowed.`, 'ERR_INVALID_URL_SCHEME', 'config_error');
  }
  if (opts.signal?.aborted) throw cancelled();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, opts.timeoutMs);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await undiciRequest(url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? undefined,
      signal: controller.signal,
      dispatcher: dispatcher(),
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    }
    const bytes = await readBody(res.body, headers['content-encoding'], opts.maxResponseBytes, req);
    const { text, keepBytes } = readBodyText(bytes, headers['content-type']);
    return attachBody({ status: res.statusCode, headers, body: text }, keepBytes ? bytes : null, opts.maxResponseBytes);
  } catch (e) {
    if (e instanceof RuntimeError) throw e;
    if (timedOut) {
      throw new TransportError(`No complete response within ${opts.timeoutMs} ms for ${req.method} ${safeUrl(req.url)}.`, 'ETIMEDOUT', 'transient_error', e);
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
    case 'gzip': case 'x-gzip': return createGunzip();
    case 'deflate': return createInflate();
    case 'br': return createBrotliDecompress();
    default: return null;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The request to send after a redirect: 303 (and 301/302 after POST) become a bodiless GET, as browsers and requests do. */
function redirectedRequest(prev: HttpRequest, status: number, location: string): HttpRequest {
  const next = new URL(location, prev.url);
  const headers = { ...prev.headers };
  // Credentials must not leak to another origin through a redirect.
  if (new URL(prev.url).origin !== next.origin) {
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'authorization' || k.toLowerCase() === 'cookie') delete headers[k];
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && prev.method === 'POST');
  if (toGet) {
    for (const k of Object.keys(headers)) if (/^content-(type|length)$/i.test(k)) delete headers[k];
    return { method: 'GET', url: next.toString(), headers, body: null };
  }
  return { ...prev, url: next.toString(), headers };
}

function networkError(e: unknown, req: HttpRequest): TransportError {
  const err = e as { code?: string; cause?: { code?: string }; message?: string };
  const code = err.code && /^E[A-Z]/.test(err.code) && !err.code.startsWith('UND_') ? err.code : (err.cause?.code ?? err.code ?? 'ENETWORK');
  const mapped = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' ? 'ETIMEDOUT' : code;
  return new TransportError(`Network error for ${req.method} ${safeUrl(req.url)}: ${mapped}${err.message ? ` (${err.message})` : ''}`, mapped, 'transient_error', e);
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

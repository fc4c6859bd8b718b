// How authenticators talk to token and login endpoints: every request goes through env.fetch when
// given (docs/runtime.md), else through the runtime's transport; each exchange can be reported
// as an auxiliary request (§10.4) with the obtained secrets masked (§11).
import type { AuxiliaryRequest, HttpRequest, HttpResponse, RuntimeEnv } from '../types';
import { resolveFetch } from '../http/transport';
import { systemError } from '../errors';
import { compileSecrets, maskSecretsIn } from '../shared/secretPatterns';
import type { AuthBuildContext } from './authContext';

/** Sends one request through env.fetch or the runtime's default transport (http/transport.ts); a test read's AbortSignal cancels it. */
export async function sendRequest(env: RuntimeEnv, request: HttpRequest): Promise<HttpResponse> {
  return resolveFetch(env, { signal: signalOf(env) })(request);
}

/** The AbortSignal of a test read's env, when there is one. */
export function signalOf(env: RuntimeEnv): AbortSignal | undefined {
  return (env as { signal?: AbortSignal }).signal;
}

/** Waits through env.sleep, or a real timer that the env's AbortSignal interrupts. */
export async function authSleep(env: RuntimeEnv, ms: number): Promise<void> {
  if (env.sleep) return env.sleep(ms);
  const signal = signalOf(env);
  await new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(systemError('The read was cancelled.'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(systemError('The read was cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The URL without its query string and credentials, for error messages (queries may carry secrets). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Reports one auth exchange to the hooks, with the given secrets masked in every part and every encoding (shared/secretPatterns.ts). */
export function reportAuxiliaryRequest(
  ctx: AuthBuildContext,
  meta: { title: string; description: string },
  request: HttpRequest,
  response: HttpResponse | null,
  secrets: readonly string[],
): void {
  if (!ctx.hooks.onAuxiliaryRequest) return;
  // Tokens a login or refresh returned are masked in its own report whatever their length.
  const compiled = compileSecrets(secrets, 1);
  const mask = (s: string) => maskSecretsIn(s, compiled);
  const maskRecord = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, mask(v)]));
  const entry: AuxiliaryRequest = {
    title: meta.title,
    type: 'AUTH',
    description: meta.description,
    request: {
      url: mask(request.url),
      headers: maskRecord(request.headers),
      http_method: request.method,
      body: request.body === null ? null : mask(request.body),
    },
    response: response ? { status: response.status, body: mask(response.body), headers: maskRecord(response.headers) } : null,
  };
  ctx.hooks.onAuxiliaryRequest(entry);
}

/** Reports a newly obtained secret to the hooks (masking, §11). */
export function reportSecret(ctx: AuthBuildContext, value: string): void {
  if (value) ctx.hooks.onSecret?.(value);
}

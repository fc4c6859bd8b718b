// "Copy request as cURL (with secrets)": the request of a test read has its secrets masked (`****`);
// this re-renders the masked headers and query parameters from the stream's requester with the real
// testing values. Only static credentials are re-rendered (no token is fetched); whatever cannot be
// re-rendered stays masked and is named in `stillMasked`.
import { createAuthenticator } from '../../auth';
import { interpolate } from '../../interpolation';
import { getOwn } from '../../shared/safeObject';

export type MaskedRequest = { url: string; headers: Record<string, string> | null; http_method: string; body: string | null };

const MASK = '****';
const STATIC_AUTH = new Set(['BearerAuthenticator', 'ApiKeyAuthenticator', 'BasicHttpAuthenticator', 'NoAuth']);
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/** The request with what could be re-rendered in clear. `resolved` is the resolved manifest. Throws only on a malformed authenticator. */
export async function unmaskRequest(
  resolved: Obj,
  streamName: string,
  request: MaskedRequest,
  config: Obj,
): Promise<{ request: MaskedRequest; stillMasked: string[] }> {
  const streams = Array.isArray(resolved.streams) ? resolved.streams : [];
  const stream = streams.map(obj).find((s) => s?.name === streamName);
  const requester = obj(obj(obj(stream)?.retriever)?.requester);
  const stillMasked: string[] = [];
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  let url = request.url;
  const authComponent = obj(requester?.authenticator);
  const auth =
    authComponent && STATIC_AUTH.has(String(authComponent.type))
      ? await createAuthenticator(authComponent, config, { parameters: obj(requester?.$parameters) ?? {} }).authenticate()
      : undefined;
  const render = (template: unknown): string | undefined => {
    if (typeof template !== 'string') return undefined;
    try {
      const v = interpolate(template, { config, parameters: obj(requester?.$parameters) ?? {} }, 'string');
      return v === undefined || v === null ? undefined : String(v);
    } catch {
      return undefined;
    }
  };
  const lookup = (parts: unknown, name: string): unknown => {
    const o = obj(parts);
    if (!o) return undefined;
    const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : getOwn(o, key);
  };

  for (const [name, value] of Object.entries(headers)) {
    if (!value.includes(MASK)) continue;
    const fromAuth = lookup(auth?.request_headers, name);
    const real = fromAuth !== undefined ? String(fromAuth) : render(lookup(requester?.request_headers, name));
    if (real !== undefined && !real.includes(MASK)) headers[name] = real;
    else stillMasked.push(`header ${name}`);
  }
  const q = url.indexOf('?');
  if (q !== -1 && url.slice(q).includes(MASK)) {
    const params = new URLSearchParams(url.slice(q + 1));
    for (const [name, value] of [...params]) {
      if (!value.includes(MASK)) continue;
      const fromAuth = lookup(auth?.request_parameters, name);
      const real = fromAuth !== undefined ? String(fromAuth) : render(lookup(requester?.request_parameters, name));
      if (real !== undefined) params.set(name, real);
      else stillMasked.push(`query parameter ${name}`);
    }
    url = `${url.slice(0, q)}?${params.toString()}`;
  }
  if (request.body?.includes(MASK)) stillMasked.push('body');
  if (authComponent && !auth && Object.values(headers).some((v) => v.includes(MASK)))
    stillMasked.push(`the ${String(authComponent.type)} credentials (a token is never fetched for a copy)`);
  return { request: { ...request, url, headers }, stillMasked };
}

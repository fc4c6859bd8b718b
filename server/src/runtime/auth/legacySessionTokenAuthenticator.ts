// LegacySessionTokenAuthenticator (airbyte_cdk/sources/declarative/auth/token.py, deprecated): validates a stored
// session token or logs in with username/password; URLs are the requester's base URL plus the
// configured paths by plain concatenation. Its calls are not auxiliary requests in the reference.
import { configError, systemError, transientError } from '../errors';
import { pythonStr } from '../pythonText';
import { pythonJsonDumps } from '../http/requestOptions';
import { reportSecret, safeUrl, sendRequest } from './authHttp';
import { emptyAuthParts, renderText, requireField, type AuthBuildContext, type Authenticator, type Component } from './authContext';

/** Spec §6.10: login results are cached for a day. */
const CACHE_MS = 86_400_000;

/** Builds a LegacySessionTokenAuthenticator; the login result is cached per authenticator for 24 h. */
export function createLegacySessionTokenAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  for (const f of ['header', 'login_url', 'session_token_response_key', 'validate_session_url']) requireField(component, f);
  const now = () => (ctx.env.now?.() ?? new Date()).getTime();
  const cache = new Map<string, { token: string; at: number }>();
  const obtained: string[] = [];

  const send = async (method: string, url: string, headers: Record<string, string>, body: string | null) => {
    try {
      return await sendRequest(ctx.env, { method, url, headers, body });
    } catch (err) {
      throw transientError(
        `Could not reach ${safeUrl(url)} for the session login (${(err as { code?: string }).code ?? 'network error'}).`,
        { cause: err },
      );
    }
  };

  const resolveToken = async (): Promise<string> => {
    const apiUrl = renderText(ctx, ctx.urlBase ?? '', '');
    const header = renderText(ctx, component.header);
    const stored = renderText(ctx, component.session_token, '');
    if (stored) {
      const url = apiUrl + renderText(ctx, component.validate_session_url);
      const res = await send('GET', url, { [header]: stored }, null);
      if (res.status < 400) return stored;
      // Spec §6.10: 401 falls through to a login; any other error is a connection error.
      if (res.status !== 401)
        throw systemError(`Validating the session token at ${safeUrl(url)} failed with HTTP ${res.status}.`, { status: res.status });
    }
    const username = renderText(ctx, component.username, '');
    const password = renderText(ctx, component.password, '');
    if (!username || !password)
      throw configError('Invalid credentials: the session token is missing or invalid, and no username and password are configured.');
    const url = apiUrl + renderText(ctx, component.login_url);
    const key = renderText(ctx, component.session_token_response_key);
    const cacheKey = JSON.stringify([url, username, password, key]);
    const hit = cache.get(cacheKey);
    if (hit && now() - hit.at < CACHE_MS) return hit.token;
    const res = await send('POST', url, { 'Content-Type': 'application/json' }, pythonJsonDumps({ username, password }));
    if (res.status >= 400) {
      const message = `The session login at ${safeUrl(url)} failed with HTTP ${res.status}.`;
      throw res.status === 401 || res.status === 403
        ? configError(`${message} Check the username and password.`, { status: res.status })
        : systemError(message, { status: res.status });
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(res.body) as Record<string, unknown>;
    } catch {
      throw systemError(`The session login at ${safeUrl(url)} did not answer JSON.`);
    }
    if (!body || typeof body !== 'object' || body[key] === undefined) throw systemError(`The session login response has no key '${key}'.`);
    const token = pythonStr(body[key]);
    cache.set(cacheKey, { token, at: now() });
    obtained.push(token);
    reportSecret(ctx, token);
    return token;
  };

  return {
    async authenticate(request?: { sending?: boolean }) {
      let token = await resolveToken();
      // The reference reads `token` twice per sent request (requester, then the session's auth hook,
      // §6.1), and each read of a stored token validates it again: two validation requests per page.
      // A login is cached, so the second read costs nothing then.
      if (request?.sending) token = await resolveToken();
      const parts = emptyAuthParts();
      parts.request_headers[renderText(ctx, component.header)] = token;
      return parts;
    },
    secrets: () => [...obtained],
    invalidate: () => cache.clear(),
  };
}

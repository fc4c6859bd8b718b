// SessionTokenAuthenticator (airbyte_cdk/sources/declarative/auth/token_provider.py): logs in through its login_requester,
// reads the token at session_token_path, keeps it for expiration_duration and injects it as an API
// key or a Bearer token. Each login is reported as an auxiliary request "Login request".
import { configError, systemError } from '../errors';
import { pythonStr } from '../pythonText';
import { apiKeyRequestOption, injectToken } from './apiKeyAuthenticator';
import { reportAuxiliaryRequest, reportSecret } from './authHttp';
import { addIsoDuration, parseIsoDuration, type IsoDuration } from './isoDuration';
import { createLoginRequester } from './loginRequest';
import {
  emptyAuthParts,
  renderText,
  stringArray,
  valueAtPath,
  type AuthBuildContext,
  type Authenticator,
  type Component,
} from './authContext';
import type { RequestOption } from '../http/requestOption';
import { decodeXml } from '../records/xmlDecoder';

const LOGIN_META = { title: 'Login request', description: 'Obtains session token' };

/** Builds a SessionTokenAuthenticator; throws config errors at build time (paths, duration, injection, decoder). */
export function createSessionTokenAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  const tokenPath = stringArray(component.session_token_path, 'SessionTokenAuthenticator.session_token_path');
  const duration: IsoDuration | null =
    component.expiration_duration === undefined || component.expiration_duration === null
      ? null
      : parseIsoDuration(component.expiration_duration, 'SessionTokenAuthenticator.expiration_duration');
  const decoder = component.decoder as Component | undefined;
  // Spec §6.9: the login response is decoded with JsonDecoder (default) or XmlDecoder.
  const xml = decoder?.type === 'XmlDecoder';
  if (decoder && !xml && decoder.type !== 'JsonDecoder') {
    throw configError(
      `SessionTokenAuthenticator.decoder ${String(decoder.type)} is not supported; the login response can be decoded with JsonDecoder or XmlDecoder.`,
    );
  }
  const injection = buildInjection(component, ctx);
  const login = createLoginRequester(component.login_requester as Component, ctx);
  // How many times the reference reads the token for one sent request (§6.1): `get_auth_header` runs twice
  // (the requester's headers, then the session's auth hook); a Bearer header reads the token once per run, an
  // ApiKey header three times (`auth_header` twice, whose name comes from rendering the option with the
  // token, then `token`); a query, body or form option is read once, by the requester.
  const readsPerRequest = injection.kind === 'bearer' ? 2 : injection.option.inject_into === 'header' ? 6 : 1;
  const now = () => (ctx.env.now?.() ?? new Date()).getTime();
  const obtained: string[] = [];
  let token: string | null = null;
  let expiry = Number.NEGATIVE_INFINITY;

  const fetchToken = async (): Promise<string> => {
    let found: string | null = null;
    const response = await login.send((req, res) => {
      if (res && res.status < 400) found = extractToken(res.body, tokenPath, xml);
      if (found) {
        obtained.push(found);
        reportSecret(ctx, found);
      }
      reportAuxiliaryRequest(ctx, LOGIN_META, req, res, obtained);
    });
    const value = found ?? extractToken(response.body, tokenPath, xml);
    if (value === null) throw systemError(`The login response has no value at session_token_path ${JSON.stringify(tokenPath)}.`);
    return value;
  };

  return {
    async authenticate(request?: { sending?: boolean }) {
      // Spec §6.9: without expiration_duration every token read logs in again.
      if (token === null || duration === null || now() > expiry) {
        token = await fetchToken();
        if (duration) expiry = addIsoDuration(now(), duration);
        // Without expiration_duration every read of the token is a login: the token of the last one is sent.
        else if (request?.sending) for (let read = 1; read < readsPerRequest; read++) token = await fetchToken();
      }
      const parts = emptyAuthParts();
      if (injection.kind === 'bearer') parts.request_headers.Authorization = `Bearer ${token}`;
      else injectToken(injection.option, parts, renderText(ctx, injection.template, '', { session_token: token }));
      return parts;
    },
    secrets: () => [...obtained],
    invalidate: () => {
      token = null;
    },
  };
}

type Injection = { kind: 'bearer' } | { kind: 'api_key'; option: RequestOption; template: unknown };

function buildInjection(component: Component, ctx: AuthBuildContext): Injection {
  const auth = component.request_authentication as Component | undefined;
  if (!auth || typeof auth !== 'object') {
    throw configError('SessionTokenAuthenticator requires request_authentication (type ApiKey with inject_into, or type Bearer).');
  }
  if (auth.type === 'Bearer') return { kind: 'bearer' };
  if (auth.type === 'ApiKey') {
    if (!auth.inject_into) throw configError('SessionTokenAuthenticator.request_authentication of type ApiKey requires inject_into.');
    return {
      kind: 'api_key',
      option: apiKeyRequestOption(auth, ctx, 'SessionTokenAuthenticator.request_authentication'),
      template: auth.api_token ?? '{{ session_token }}',
    };
  }
  throw configError(
    `SessionTokenAuthenticator.request_authentication.type must be ApiKey or Bearer; got ${JSON.stringify(auth.type ?? null)}.`,
  );
}

/** Spec §6.9: the first decoded element of the login response, then the value at the token path. */
function extractToken(body: string, path: string[], xml: boolean): string | null {
  let first: unknown;
  if (xml) {
    const decoded = decodeXml(body);
    if (decoded.problem) throw systemError(`The login response ${decoded.problem}, so the session token cannot be read from it.`);
    first = decoded.elements[0];
  } else {
    let decoded: unknown;
    try {
      decoded = JSON.parse(body);
    } catch {
      throw systemError('The login response is not JSON, so the session token cannot be read from it.');
    }
    first = Array.isArray(decoded) ? decoded[0] : decoded;
  }
  const value = valueAtPath(first, path);
  return value === undefined || value === null ? null : pythonStr(value);
}

// OAuthAuthenticator (airbyte_cdk/sources/declarative/auth/oauth.py): obtains access tokens from a token endpoint
// (refresh_token, client_credentials or JWT-bearer grants) and sends `Authorization: Bearer <token>`.
// With refresh_token_updater the single-use variant reads and writes tokens in the config (§6.7.7).
import { configError, systemError } from '../errors';
import { mayCarryCredential } from '../http/transport';
import { pythonStr } from '../pythonText';
import { reportSecret } from './authHttp';
import { expiryFromResponse, formatExpiry, parseExpiryMoment } from './oauthExpiry';
import { findInResponse, sendTokenRequest, type RefreshErrorRule } from './oauthTokenRequest';
import { generateJwtToken } from './jwtAuthenticator';
import {
  emptyAuthParts,
  renderMapping,
  renderText,
  setValueAtPath,
  stringArray,
  valueAtPath,
  type AuthBuildContext,
  type Authenticator,
  type Component,
} from './authContext';
import { setOwn } from '../shared/safeObject';
import { refusePrototypePath } from '../safePath';

const DAY_MS = 86_400_000;
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const DEFAULT_ERROR_RULE: RefreshErrorRule = { statusCodes: [400], key: 'error', values: ['invalid_grant', 'invalid_permissions'] };

/** Where the single-use variant keeps its tokens in the config (§6.7.7). */
type ConfigPaths = { access: string[]; refresh: string[]; expiry: string[]; refreshName: string };

/**
 * Builds an OAuthAuthenticator. Throws config errors at build time for the invalid combinations of
 * §6.7.1 (missing client credentials, refresh_token grant without refresh_token, error rules twice).
 */
export function createOAuthAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  const updater = component.refresh_token_updater;
  const singleUse = updater !== undefined && updater !== null;
  const u = (singleUse ? updater : {}) as Record<string, unknown>;
  const useProfileAssertion = component.use_profile_assertion === true;
  if (useProfileAssertion && !component.profile_assertion) {
    throw configError('OAuthAuthenticator: use_profile_assertion is true but profile_assertion (a JwtAuthenticator) is missing.');
  }
  if (!useProfileAssertion) {
    for (const field of ['client_id', 'client_secret']) {
      if (component[field] === undefined || component[field] === null)
        throw configError(`OAuthAuthenticator requires the field '${field}' (or use_profile_assertion with a profile_assertion).`);
    }
  }
  const grantTypeOf = () => renderText(ctx, component.grant_type, 'refresh_token');
  if (
    !singleUse &&
    !useProfileAssertion &&
    grantTypeOf() === 'refresh_token' &&
    (component.refresh_token === undefined || component.refresh_token === null)
  ) {
    throw configError(
      "OAuthAuthenticator with grant_type refresh_token requires the field 'refresh_token'; set grant_type (e.g. client_credentials) if no refresh token is used.",
    );
  }
  const errorRule = buildErrorRule(component, u);
  if (useProfileAssertion && (component.profile_assertion as Component).type !== 'JwtAuthenticator') {
    throw configError('OAuthAuthenticator.profile_assertion must be a JwtAuthenticator.');
  }
  const paths: ConfigPaths | null = singleUse
    ? {
        access: stringArray(u.access_token_config_path, 'refresh_token_updater.access_token_config_path', ['credentials', 'access_token']),
        refresh: stringArray(u.refresh_token_config_path, 'refresh_token_updater.refresh_token_config_path', [
          'credentials',
          'refresh_token',
        ]),
        expiry: stringArray(u.token_expiry_date_config_path, 'refresh_token_updater.token_expiry_date_config_path', [
          'credentials',
          'token_expiry_date',
        ]),
        refreshName: typeof u.refresh_token_name === 'string' ? u.refresh_token_name : 'refresh_token',
      }
    : null;
  // Refused at build time, before any token is requested: the write-back could reach a prototype.
  if (paths) {
    for (const [name, path] of [
      ['access_token_config_path', paths.access],
      ['refresh_token_config_path', paths.refresh],
      ['token_expiry_date_config_path', paths.expiry],
    ] as const) {
      refusePrototypePath(path, `refresh_token_updater.${name}`);
    }
  }

  // Spec §6.7.7: the single-use variant renders its string fields once, at build time.
  const frozen = singleUse ? freezeFields(component, ctx) : null;
  const field = (name: string, fallback = ''): string =>
    frozen ? (frozen.text[name] ?? fallback) : renderText(ctx, component[name], fallback);
  const now = () => (ctx.env.now?.() ?? new Date()).getTime();
  const isMoment = typeof component.token_expiry_date_format === 'string' && component.token_expiry_date_format !== '';
  const obtained: string[] = [];
  const sent = new Set<string>();

  let accessToken = '';
  let expiry = 0;
  // The single-use variant keeps nothing of its own: on every use it reads the access token and its expiry
  // from the config, where any authenticator built from the same config (a parent stream's, a child's) may
  // have written a refreshed one (SingleUseRefreshTokenOauth2Authenticator.access_token / get_token_expiry_date).
  const readStored = () => {
    if (!paths) return;
    accessToken = pythonStr(valueAtPath(ctx.config, paths.access) ?? '');
    const stored = pythonStr(valueAtPath(ctx.config, paths.expiry) ?? '');
    expiry = stored === '' ? now() - DAY_MS : parseExpiryMoment(stored, 'The stored token expiry date');
  };
  if (paths) readStored();
  else {
    accessToken = renderText(ctx, component.access_token_value, '');
    expiry = initialExpiry(component, ctx, accessToken, now());
  }
  const staticToken =
    !paths && accessToken !== '' && (component.token_refresh_endpoint === undefined || component.token_refresh_endpoint === null);
  let forced = false;
  let pending: Promise<void> | null = null;

  const refresh = async (): Promise<void> => {
    const headers = stringHeaders(
      frozen ? frozen.headers : renderMapping(ctx, component.refresh_request_headers, 'refresh_request_headers'),
    );
    const args = await buildArgs(component, ctx, field, headers, paths, useProfileAssertion);
    // What goes to the token endpoint (client_secret, refresh_token, assertion, credential headers;
    // not the manifest's refresh_request_body extras)
    // is secret even when the spec does not flag it: masked like the tokens that come back.
    const plain = new Set([field('grant_type_name', 'grant_type'), field('client_id_name', 'client_id'), 'scopes']);
    for (const [k, v] of Object.entries(args)) if (!plain.has(k) && typeof v === 'string') sent.add(v);
    for (const [k, v] of Object.entries(headers)) if (mayCarryCredential(k)) sent.add(v);
    for (const v of sent) reportSecret(ctx, v);
    const extras = frozen ? frozen.body : renderMapping(ctx, component.refresh_request_body, 'refresh_request_body');
    // Spec §6.7.2: body extras never override the standard arguments.
    for (const [k, v] of Object.entries(extras)) if (!Object.hasOwn(args, k)) setOwn(args, k, v);
    await sendTokenRequest(
      ctx,
      {
        endpoint: field('token_refresh_endpoint'),
        args,
        headers,
        asQueryParams: component.send_refresh_request_as_query_params === true,
        errorRule,
        knownSecrets: () => [...obtained, ...sent, accessToken],
      },
      (body) => {
        // Without refresh_token_updater the reference never looks for a refresh token: the search here is
        // only for masking, so a response too deep for it leaves the access token's error to speak.
        const newRefresh = ((): unknown => {
          try {
            return findInResponse(body, paths ? paths.refreshName : field('refresh_token_name', 'refresh_token'));
          } catch (e) {
            if (paths) throw e;
            return undefined;
          }
        })();
        const rotated = paths !== null && typeof newRefresh === 'string' && newRefresh !== '';
        // A refresh token in the response is a secret even when this variant does not keep it.
        if (!rotated && typeof newRefresh === 'string' && newRefresh !== '') {
          obtained.push(newRefresh);
          reportSecret(ctx, newRefresh);
        }
        if (paths && rotated) {
          // Spec §6.7.7: the consumed refresh token is gone server-side, so the new one is written
          // back first; it is reported with the rest below, or at once if reading the rest fails.
          setValueAtPath(ctx.config, paths.refresh, newRefresh, 'refresh_token_config_path');
          obtained.push(newRefresh);
          reportSecret(ctx, newRefresh);
        }
        try {
          const token = findInResponse(body, field('access_token_name', 'access_token'));
          if (token === undefined || token === null || token === '') {
            // The reference raises a plain Exception here, reported as a system error.
            throw systemError(
              `Token refresh API response was missing access token ${field('access_token_name', 'access_token')}. The token response has no '${field('access_token_name', 'access_token')}' value; check access_token_name.`,
            );
          }
          accessToken = pythonStr(token);
          obtained.push(accessToken);
          reportSecret(ctx, accessToken);
          expiry = expiryFromResponse(findInResponse(body, field('expires_in_name', 'expires_in')), isMoment, now(), expiry);
        } catch (e) {
          if (rotated) ctx.env.onConfigUpdate?.(ctx.config);
          throw e;
        }
        if (paths) {
          setValueAtPath(ctx.config, paths.access, accessToken, 'access_token_config_path');
          setValueAtPath(ctx.config, paths.expiry, formatExpiry(expiry), 'token_expiry_date_config_path');
          // One CONNECTOR_CONFIG update per refresh, as the reference emits it.
          ctx.env.onConfigUpdate?.(ctx.config);
        }
      },
    );
    forced = false;
  };

  return {
    async authenticate(request?: { sending?: boolean }) {
      // The reference reads the token twice per sent request (requester, then the session's auth hook,
      // §6.1): a token whose new expiry is already past (an expiry date in the past) is refreshed twice.
      for (let read = 0; read < (request?.sending ? 2 : 1); read++) {
        if (!pending) readStored();
        if (staticToken || !(forced || now() > expiry)) break;
        // Refreshes are serialised: concurrent callers wait for the one in flight (§6.7.3).
        pending ??= refresh().finally(() => {
          pending = null;
        });
        await pending;
      }
      readStored();
      const parts = emptyAuthParts();
      parts.request_headers.Authorization = `Bearer ${accessToken}`;
      return parts;
    },
    secrets: () => [...obtained],
    invalidate: () => {
      if (!staticToken) forced = true;
    },
  };
}

async function buildArgs(
  component: Component,
  ctx: AuthBuildContext,
  field: (name: string, fallback?: string) => string,
  headers: Record<string, string>,
  paths: ConfigPaths | null,
  useProfileAssertion: boolean,
): Promise<Record<string, unknown>> {
  const grantTypeName = field('grant_type_name', 'grant_type');
  if (useProfileAssertion) {
    // Spec §6.7.8: exactly the grant type and the assertion, nothing else.
    const assertion = await generateJwtToken(component.profile_assertion as Component, ctx);
    return { [grantTypeName]: JWT_BEARER_GRANT, assertion };
  }
  const args: Record<string, unknown> = { [grantTypeName]: field('grant_type', 'refresh_token') };
  // Spec §6.7.2: credentials are omitted when the refresh headers carry an exact `Authorization` key.
  if (!('Authorization' in headers)) {
    let clientId = field('client_id');
    let clientSecret = field('client_secret');
    if (paths) {
      // Reference quirk (§6.7.7): config credentials.client_id / client_secret win over the manifest.
      const cid = valueAtPath(ctx.config, ['credentials', 'client_id']);
      const cs = valueAtPath(ctx.config, ['credentials', 'client_secret']);
      if (cid !== undefined) clientId = pythonStr(cid);
      if (cs !== undefined) clientSecret = pythonStr(cs);
    }
    if (!clientId)
      throw configError(
        'OAuthAuthenticator was unable to evaluate client_id parameter. The client id is empty; set client_id (usually from the config).',
      );
    args[field('client_id_name', 'client_id')] = clientId;
    args[field('client_secret_name', 'client_secret')] = clientSecret;
  }
  if (paths) {
    const stored = valueAtPath(ctx.config, paths.refresh);
    args[paths.refreshName] = stored === undefined || stored === null ? '' : pythonStr(stored);
  } else {
    const hasRefresh = component.refresh_token !== undefined && component.refresh_token !== null;
    // Spec §6.7.2: the key is always present; a null value is dropped by the form encoding.
    args[field('refresh_token_name', 'refresh_token')] = hasRefresh ? renderText(ctx, component.refresh_token) : null;
  }
  const scopes = Array.isArray(component.scopes) ? component.scopes.map(String) : [];
  if (scopes.length) args.scopes = scopes;
  return args;
}

function buildErrorRule(component: Component, updater: Record<string, unknown>): RefreshErrorRule {
  const keys = ['refresh_token_error_status_codes', 'refresh_token_error_key', 'refresh_token_error_values'];
  const set = (o: Record<string, unknown>) =>
    keys.some((k) => o[k] !== undefined && o[k] !== null && !(Array.isArray(o[k]) && (o[k] as unknown[]).length === 0) && o[k] !== '');
  const onAuth = set(component);
  const onUpdater = set(updater);
  if (onAuth && onUpdater) {
    throw configError(
      'OAuthAuthenticator: the refresh_token_error_* fields are set both on the authenticator and on refresh_token_updater; keep them on the authenticator only.',
    );
  }
  const src = onAuth ? component : onUpdater ? updater : null;
  if (!src) return DEFAULT_ERROR_RULE;
  return {
    statusCodes: Array.isArray(src.refresh_token_error_status_codes) ? src.refresh_token_error_status_codes.map(Number) : [],
    key: typeof src.refresh_token_error_key === 'string' ? src.refresh_token_error_key : '',
    values: Array.isArray(src.refresh_token_error_values) ? src.refresh_token_error_values.map(String) : [],
  };
}

function initialExpiry(component: Component, ctx: AuthBuildContext, accessToken: string, nowMs: number): number {
  // Spec §6.7.3: without an access token the first request always refreshes.
  if (!accessToken) return Number.NEGATIVE_INFINITY;
  const raw = component.token_expiry_date;
  if (raw === undefined || raw === null || raw === '') return nowMs - DAY_MS;
  if (typeof raw === 'number' || /^\d+$/.test(String(raw))) return parseExpiryMoment(raw, 'OAuthAuthenticator.token_expiry_date');
  return parseExpiryMoment(renderText(ctx, raw), 'OAuthAuthenticator.token_expiry_date');
}

function stringHeaders(mapping: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(mapping)) if (v !== null && v !== undefined) out[k] = pythonStr(v);
  return out;
}

type FrozenFields = { text: Record<string, string>; headers: Record<string, unknown>; body: Record<string, unknown> };

/** Renders the string fields and mappings of the single-use variant once (§6.7.7). */
function freezeFields(component: Component, ctx: AuthBuildContext): FrozenFields {
  const names = [
    'token_refresh_endpoint',
    'client_id_name',
    'client_id',
    'client_secret_name',
    'client_secret',
    'access_token_name',
    'expires_in_name',
    'grant_type_name',
    'grant_type',
  ];
  const text: Record<string, string> = {};
  for (const n of names) if (component[n] !== undefined && component[n] !== null) text[n] = renderText(ctx, component[n]);
  return {
    text,
    headers: renderMapping(ctx, component.refresh_request_headers, 'refresh_request_headers'),
    body: renderMapping(ctx, component.refresh_request_body, 'refresh_request_body'),
  };
}

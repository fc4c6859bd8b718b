// Entry point of the authenticators (built as airbyte_cdk/sources/declarative/parsers/model_to_component_factory.py builds them): createAuthenticator builds the
// authenticator a manifest component describes, one file per authenticator type.
import type { AuthParts, AuthenticatorOptions, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { mayCarryCredential } from '../http/transport';
import { parametersOf, type AuthBuildContext, type Authenticator, type Component } from './authContext';
import { createNoAuth } from './noAuth';
import { createBasicHttpAuthenticator } from './basicHttpAuthenticator';
import { createBearerAuthenticator } from './bearerAuthenticator';
import { createApiKeyAuthenticator } from './apiKeyAuthenticator';
import { createSelectiveAuthenticator } from './selectiveAuthenticator';
import { createCustomAuthenticator } from './customAuthenticator';
import { createJwtAuthenticator } from './jwtAuthenticator';
import { createOAuthAuthenticator } from './oauthAuthenticator';
import { createSessionTokenAuthenticator } from './sessionTokenAuthenticator';
import { createLegacySessionTokenAuthenticator } from './legacySessionTokenAuthenticator';
import { createRateLimitedMultipleTokenAuthenticator } from './rateLimitedMultipleTokenAuthenticator';

export type { Authenticator } from './authContext';

type Factory = (component: Component, ctx: AuthBuildContext) => Authenticator;

const FACTORIES: Record<string, Factory> = {
  NoAuth: () => createNoAuth(),
  BasicHttpAuthenticator: createBasicHttpAuthenticator,
  BearerAuthenticator: createBearerAuthenticator,
  ApiKeyAuthenticator: createApiKeyAuthenticator,
  SelectiveAuthenticator: createSelectiveAuthenticator,
  CustomAuthenticator: createCustomAuthenticator,
  JwtAuthenticator: createJwtAuthenticator,
  OAuthAuthenticator: createOAuthAuthenticator,
  SessionTokenAuthenticator: createSessionTokenAuthenticator,
  LegacySessionTokenAuthenticator: createLegacySessionTokenAuthenticator,
  RateLimitedMultipleTokenAuthenticator: createRateLimitedMultipleTokenAuthenticator,
};

/**
 * Builds the authenticator of a manifest component (types explicit, references resolved).
 * `config` may be updated in place by single-use refresh tokens (§6.7.7). Throws a RuntimeError
 * with failureType config_error at build time for anything the reference rejects at build time.
 * A missing or null component gives NoAuth.
 */
export function createAuthenticator(
  component: object | null | undefined,
  config: object,
  options: AuthenticatorOptions = {},
  env: RuntimeEnv = {},
): Authenticator & { authenticate(request?: { sending?: boolean }): Promise<AuthParts> } {
  const hooks = { onAuxiliaryRequest: options.onAuxiliaryRequest, onSecret: options.onSecret };
  const inherited = (options.parameters ?? {}) as Record<string, unknown>;
  const build = (sub: unknown, parameters: Record<string, unknown>): Authenticator => {
    if (sub === undefined || sub === null) return createNoAuth();
    if (typeof sub !== 'object' || Array.isArray(sub)) throw configError('An authenticator must be an object with a type.');
    const c = sub as Component;
    const type = c.type;
    if (typeof type !== 'string') throw configError('The authenticator has no type; set type (e.g. BearerAuthenticator).');
    const factory = FACTORIES[type];
    if (!factory) throw configError(`Unknown authenticator type '${type}'.`);
    const ctx: AuthBuildContext = {
      config: config as Record<string, unknown>,
      parameters: parametersOf(c, parameters),
      urlBase: options.urlBase,
      disableRetries: options.disableRetries === true,
      env,
      hooks,
      requestOptionCompat: options.requestOptionCompat,
      build: (nested, p) => build(nested, p ?? parametersOf(c, parameters)),
    };
    return reportingCredentials(factory(c, ctx), hooks.onSecret);
  };
  return build(component, inherited);
}

/**
 * Every value an authenticator adds to a request is a credential, flagged in the spec or not: it is
 * reported for masking (§11; stricter than the reference, which masks only airbyte_secret fields). For
 * `Scheme value` headers the value alone is reported, and for Basic the decoded password.
 */
function reportingCredentials(auth: Authenticator, onSecret: ((value: string) => void) | undefined): Authenticator {
  if (!onSecret) return auth;
  return {
    ...auth,
    async authenticate(request?: { sending?: boolean }) {
      const parts = await auth.authenticate(request);
      for (const value of credentialValues(parts)) onSecret(value);
      return parts;
    },
  };
}

function credentialValues(parts: AuthParts): string[] {
  const out: string[] = [];
  const leaves = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number') out.push(String(v));
    else if (v && typeof v === 'object') for (const x of Object.values(v)) leaves(x);
  };
  for (const [name, value] of Object.entries(parts.request_headers ?? {})) {
    if (!mayCarryCredential(name) || typeof value !== 'string') continue;
    // `Bearer xyz` shows as `Bearer ****`, as the reference shows it.
    const scheme = /^([A-Za-z][\w-]*) +(\S.*)$/.exec(value);
    if (!scheme) {
      out.push(value);
      continue;
    }
    out.push(scheme[2]);
    if (scheme[1].toLowerCase() === 'basic') {
      const decoded = Buffer.from(scheme[2], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) out.push(decoded.slice(colon + 1));
    }
  }
  leaves(parts.request_parameters);
  leaves(parts.request_body_data);
  leaves(parts.request_body_json);
  return out;
}

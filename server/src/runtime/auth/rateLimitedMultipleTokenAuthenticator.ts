// RateLimitedMultipleTokenAuthenticator (airbyte_cdk/sources/declarative/auth/rate_limited_multiple_token.py), approximated for test reads:
// the tokens are used in turn, one per request; quota tracking and 429 rotation are not reproduced.
import { configError } from '../errors';
import {
  emptyAuthParts,
  renderText,
  renderValue,
  requireField,
  type AuthBuildContext,
  type Authenticator,
  type Component,
} from './authContext';
import { pythonStr } from '../pythonText';

/** Builds the round-robin approximation; throws a config error when no token is configured. */
export function createRateLimitedMultipleTokenAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  requireField(component, 'tokens');
  const tokensOf = (): string[] => {
    const raw = component.tokens;
    const delimiter = typeof component.token_delimiter === 'string' ? component.token_delimiter : ',';
    const values = Array.isArray(raw) ? raw.map((t) => pythonStr(renderValue(ctx, t))) : renderText(ctx, raw).split(delimiter);
    const tokens = values.map((t) => t.trim()).filter(Boolean);
    if (!tokens.length)
      throw configError('RateLimitedMultipleTokenAuthenticator.tokens renders to no token; check the config value it reads.');
    return tokens;
  };
  let next = 0;
  return {
    async authenticate() {
      const tokens = tokensOf();
      const token = tokens[next % tokens.length];
      next++;
      const parts = emptyAuthParts();
      parts.request_headers[renderText(ctx, component.header, 'Authorization')] =
        `${renderText(ctx, component.auth_method, 'Bearer')} ${token}`;
      return parts;
    },
    secrets: () => [],
    invalidate: () => undefined,
  };
}

// BearerAuthenticator (airbyte_cdk/sources/declarative/auth/token.py): `Authorization: Bearer <token>` with a fixed prefix.
import { emptyAuthParts, renderText, requireField, type AuthBuildContext, type Authenticator, type Component } from './authContext';

/** Builds a BearerAuthenticator; throws a config error when `api_token` is missing. */
export function createBearerAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  const tokenTemplate = requireField(component, 'api_token');
  return {
    async authenticate() {
      const parts = emptyAuthParts();
      parts.request_headers.Authorization = `Bearer ${renderText(ctx, tokenTemplate)}`;
      return parts;
    },
    secrets: () => [],
    invalidate: () => undefined,
  };
}

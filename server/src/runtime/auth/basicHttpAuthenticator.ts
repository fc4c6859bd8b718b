// BasicHttpAuthenticator (airbyte_cdk/sources/declarative/auth/token.py): `Authorization: Basic base64(user:pass)`,
// both parts rendered from config on every request.
import { emptyAuthParts, renderText, requireField, type AuthBuildContext, type Authenticator, type Component } from './authContext';

/** Builds a BasicHttpAuthenticator; throws a config error when `username` is missing. */
export function createBasicHttpAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  const usernameTemplate = requireField(component, 'username');
  return {
    async authenticate() {
      // Spec §6.3: an absent or empty password is still joined with ':' (user: → "dXNlcjo=").
      const username = renderText(ctx, usernameTemplate);
      const password = renderText(ctx, component.password, '');
      const parts = emptyAuthParts();
      parts.request_headers.Authorization = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
      return parts;
    },
    secrets: () => [],
    invalidate: () => undefined,
  };
}

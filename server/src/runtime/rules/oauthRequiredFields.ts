// Rule `oauth-required-fields`: the build-time checks of an OAuthAuthenticator that the schema cannot
// express (Spec §6.7.1, §6.7.3): credentials unless a profile assertion is used, a refresh token for
// the refresh_token grant, and a token endpoint unless a fixed access token is given.
import type { Rule, RuleFinding } from './types';

// Spec §6.7.1 checks whether the fields are written at all: an empty string counts as present.
const present = (v: unknown) => v !== undefined && v !== null;

export const oauthRequiredFields: Rule = {
  code: 'oauth-required-fields',
  check(ctx) {
    const out: RuleFinding[] = [];
    for (const c of ctx.components) {
      if (c.type !== 'OAuthAuthenticator') continue;
      const n = c.node;
      const missing = (field: string, why: string) =>
        out.push({
          code: this.code,
          severity: 'error',
          path: c.path,
          anchor: 'component',
          message: `OAuthAuthenticator: missing \`${field}\` (${why}).`,
        });
      if (n.use_profile_assertion === true) {
        if (!present(n.profile_assertion)) missing('profile_assertion', 'required when `use_profile_assertion` is true');
      } else {
        if (!present(n.client_id)) missing('client_id', 'required unless `use_profile_assertion` is true');
        if (!present(n.client_secret)) missing('client_secret', 'required unless `use_profile_assertion` is true');
      }
      const grant = n.grant_type ?? 'refresh_token';
      if (grant === 'refresh_token' && !present(n.refresh_token) && n.refresh_token_updater == null && n.use_profile_assertion !== true) {
        missing('refresh_token', 'the `refresh_token` grant needs one; set `grant_type: client_credentials` otherwise');
      }
      if (!present(n.token_refresh_endpoint) && !present(n.access_token_value)) {
        missing('token_refresh_endpoint', 'where new access tokens are requested');
      }
    }
    return out;
  },
};

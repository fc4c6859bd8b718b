// Turns a described credential (API key in a header or query parameter, HTTP basic or bearer, OAuth 2
// client credentials or refresh token) into an authenticator component and the spec inputs it
// reads. Shared by every scaffolder; the secrets become `airbyte_secret` inputs, never values.
import { addInput, configRef, type NotedComponent, type SpecInput } from './connectorDraft';

/** A credential as a scaffolder found it. */
export type Credential =
  | { kind: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string }
  | { kind: 'basic' }
  | { kind: 'bearer' }
  | { kind: 'oauth2ClientCredentials'; tokenUrl: string; scopes: string[] }
  | { kind: 'oauth2RefreshToken'; tokenUrl: string; scopes: string[] };

/** The authenticator for `credential`, adding its inputs to `inputs`; `why` is the source of the guess. */
export function credentialAuthenticator(credential: Credential, why: string, inputs: SpecInput[]): NotedComponent {
  const secret = (name: string, title: string, description: string) =>
    configRef(addInput(inputs, { name, title, type: 'string', secret: true, required: true, description, why }));
  const plain = (name: string, title: string, description: string) =>
    configRef(addInput(inputs, { name, title, type: 'string', required: true, description, why }));
  switch (credential.kind) {
    case 'apiKey': {
      const token = secret(
        'api_key',
        'API Key',
        `Sent as the ${credential.in === 'query' ? 'query parameter' : credential.in} "${credential.name}".`,
      );
      if (credential.in === 'query') {
        return {
          why,
          value: {
            type: 'ApiKeyAuthenticator',
            api_token: token,
            inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: credential.name },
          },
        };
      }
      // A cookie is one header; the key's name goes in front of the value.
      const header = credential.in === 'cookie' ? 'Cookie' : credential.name;
      const value = credential.in === 'cookie' ? `${credential.name}=${token}` : token;
      return {
        why,
        value: {
          type: 'ApiKeyAuthenticator',
          api_token: value,
          inject_into: { type: 'RequestOption', inject_into: 'header', field_name: header },
        },
      };
    }
    case 'basic':
      return {
        why,
        value: {
          type: 'BasicHttpAuthenticator',
          username: plain('username', 'Username', 'HTTP basic authentication user name.'),
          password: secret('password', 'Password', 'HTTP basic authentication password.'),
        },
      };
    case 'bearer':
      return {
        why,
        value: { type: 'BearerAuthenticator', api_token: secret('api_token', 'API Token', 'Sent as "Authorization: Bearer <token>".') },
      };
    case 'oauth2ClientCredentials':
    case 'oauth2RefreshToken': {
      const value: Record<string, unknown> = {
        type: 'OAuthAuthenticator',
        token_refresh_endpoint: credential.tokenUrl,
        client_id: secret('client_id', 'Client ID', 'OAuth 2 client ID.'),
        client_secret: secret('client_secret', 'Client Secret', 'OAuth 2 client secret.'),
      };
      if (credential.kind === 'oauth2ClientCredentials') value.grant_type = 'client_credentials';
      else value.refresh_token = secret('refresh_token', 'Refresh Token', 'OAuth 2 refresh token (from the authorization code flow).');
      if (credential.scopes.length > 0) value.scopes = credential.scopes;
      return { why, value };
    }
  }
}

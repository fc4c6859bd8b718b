// Catalog of authenticators (airbyte_cdk/sources/declarative/auth/token.py): how requests prove who is calling.
import { bool, int, many, num, obj, one, raw, str, strs, type ComponentDef } from '../types';

const requestOption = ['RequestOption'];

export const AUTH_COMPONENTS: ComponentDef[] = [
  {
    type: 'NoAuth',
    area: 'auth',
    label: 'No Authentication',
    description: 'Sends requests without any credentials.',
    fields: {},
    example: 'type: NoAuth',
  },
  {
    type: 'ApiKeyAuthenticator',
    area: 'auth',
    label: 'API Key Authenticator',
    description: 'Sends an API key with every request, in a header, a query parameter or the body, as `inject_into` says.',
    fields: {
      api_token: str('The key to send. Usually read from the user config; may carry a prefix such as `Token `.', {
        label: 'API Key',
        templateContext: 'static',
        example: '"{{ config[\'api_key\'] }}"',
        examples: ["{{ config['api_key'] }}", "Token token={{ config['api_key'] }}"],
      }),
      header: str('Older way to name the header that carries the key. Use `inject_into` instead; the two cannot be combined.', {
        label: 'Header Name',
        templateContext: 'static',
        deprecated: 'use `inject_into` with `inject_into: header`',
        example: 'X-Api-Key',
        examples: ['Authorization', 'Api-Token', 'X-Auth-Token'],
      }),
      inject_into: one(requestOption, 'Where the key goes in each request and under which name.', {
        label: 'Inject API Key Into Outgoing HTTP Request',
        example: '{ type: RequestOption, inject_into: header, field_name: X-Api-Key }',
      }),
    },
    example:
      'type: ApiKeyAuthenticator\napi_token: "{{ config[\'api_key\'] }}"\ninject_into:\n  type: RequestOption\n  inject_into: header\n  field_name: X-Api-Key',
  },
  {
    type: 'BasicHttpAuthenticator',
    area: 'auth',
    label: 'Basic HTTP Authenticator',
    description: 'Sends `Authorization: Basic <base64(username:password)>` with every request.',
    fields: {
      username: str('The user name half of the credentials.', {
        required: true,
        label: 'Username',
        templateContext: 'static',
        example: '"{{ config[\'username\'] }}"',
        examples: ["{{ config['username'] }}", "{{ config['api_key'] }}"],
      }),
      password: str('The password half of the credentials; empty when the API only wants a user name or key.', {
        default: '',
        label: 'Password',
        templateContext: 'static',
        example: '"{{ config[\'password\'] }}"',
        examples: ["{{ config['password'] }}", ''],
      }),
    },
    example: 'type: BasicHttpAuthenticator\nusername: "{{ config[\'username\'] }}"\npassword: "{{ config[\'password\'] }}"',
  },
  {
    type: 'BearerAuthenticator',
    area: 'auth',
    label: 'Bearer Token Authenticator',
    description: 'Sends `Authorization: Bearer <token>` with every request.',
    fields: {
      api_token: str('The token to send after `Bearer `.', {
        required: true,
        label: 'Bearer Token',
        templateContext: 'static',
        example: '"{{ config[\'api_key\'] }}"',
        examples: ["{{ config['api_key'] }}", "{{ config['token'] }}"],
      }),
    },
    example: 'type: BearerAuthenticator\napi_token: "{{ config[\'api_key\'] }}"',
  },
  {
    type: 'SelectiveAuthenticator',
    area: 'auth',
    label: 'Selective Authenticator',
    description:
      'Picks one of several authenticators by reading a value from the user config (for connectors that offer several sign-in methods).',
    openFields: true,
    fields: {
      authenticator_selection_path: strs('Path in the config of the value that names the authenticator to use.', {
        required: true,
        label: 'Authenticator Selection Path',
        example: '["credentials", "auth_type"]',
      }),
      authenticators: {
        description: 'The candidate authenticators, keyed by the config value that selects each.',
        mapOf: true,
        required: true,
        label: 'Authenticators',
        components: [
          'ApiKeyAuthenticator',
          'BasicHttpAuthenticator',
          'BearerAuthenticator',
          'OAuthAuthenticator',
          'JwtAuthenticator',
          'SessionTokenAuthenticator',
          'LegacySessionTokenAuthenticator',
          'CustomAuthenticator',
          'NoAuth',
          'RateLimitedMultipleTokenAuthenticator',
        ],
      },
    },
  },
  {
    type: 'OAuthAuthenticator',
    area: 'auth',
    label: 'OAuth2',
    description:
      'Obtains an access token from a token endpoint (refresh-token or client-credentials grant), refreshes it when it expires and sends it as a bearer token.',
    fields: {
      client_id_name: str('Name of the client id parameter in the refresh request.', {
        default: 'client_id',
        label: 'Client ID Property Name',
      }),
      client_id: str('The OAuth client id.', {
        label: 'Client ID',
        templateContext: 'static',
        example: '"{{ config[\'client_id\'] }}"',
        examples: ["{{ config['client_id'] }}", "{{ config['credentials']['client_id'] }}"],
      }),
      client_secret_name: str('Name of the client secret parameter in the refresh request.', {
        default: 'client_secret',
        label: 'Client Secret Property Name',
      }),
      client_secret: str('The OAuth client secret.', {
        label: 'Client Secret',
        templateContext: 'static',
        example: '"{{ config[\'client_secret\'] }}"',
        examples: ["{{ config['client_secret'] }}", "{{ config['credentials']['client_secret'] }}"],
      }),
      refresh_token_name: str('Name of the refresh token parameter in the refresh request.', {
        default: 'refresh_token',
        label: 'Refresh Token Property Name',
      }),
      refresh_token: str('The refresh token; needed with the `refresh_token` grant.', {
        label: 'Refresh Token',
        templateContext: 'static',
        example: '"{{ config[\'refresh_token\'] }}"',
        examples: ["{{ config['refresh_token'] }}", "{{ config['credentials']['refresh_token'] }}"],
      }),
      token_refresh_endpoint: str('URL of the token endpoint the refresh request is sent to.', {
        label: 'Token Refresh Endpoint',
        templateContext: 'static',
        example: 'https://api.example.com/oauth/token',
      }),
      access_token_name: str('Key of the access token in the token response (found at any depth).', {
        default: 'access_token',
        label: 'Access Token Property Name',
        examples: ['access_token'],
      }),
      access_token_value: str('An access token known in advance; used until it expires instead of refreshing first.', {
        label: 'Access Token Value',
        templateContext: 'static',
      }),
      expires_in_name: str('Key of the expiry in the token response (seconds, or a date when `token_expiry_date_format` is set).', {
        default: 'expires_in',
        label: 'Token Expiry Property Name',
        examples: ['expires_in'],
      }),
      grant_type_name: str('Name of the grant type parameter in the refresh request.', {
        default: 'grant_type',
        label: 'Grant Type Property Name',
      }),
      grant_type: str('The OAuth grant: `refresh_token` or `client_credentials`.', {
        default: 'refresh_token',
        label: 'Grant Type',
        templateContext: 'static',
        example: 'client_credentials',
        examples: ['refresh_token', 'client_credentials'],
      }),
      refresh_request_body: obj('Extra form fields of the refresh request; they never override the standard ones.', {
        label: 'Refresh Request Body',
        templateContext: 'static',
      }),
      refresh_request_headers: obj(
        'Extra headers of the refresh request. An `Authorization` header here replaces the client credentials in the body.',
        { label: 'Refresh Request Headers', templateContext: 'static' },
      ),
      send_refresh_request_as_query_params: bool('Send the refresh parameters in the query string instead of the body.', {
        default: false,
        label: 'Send Refresh Request As Query Params',
        addedIn: '7.0.0',
      }),
      scopes: strs('Scopes requested on refresh (sent as repeated `scopes` fields).', { label: 'Scopes' }),
      token_expiry_date: str('Expiry of `access_token_value`, when one is given.', {
        label: 'Token Expiry Date',
        templateContext: 'static',
        examples: ['2023-04-06T07:12:10.421833+00:00', '1680842386'],
      }),
      token_expiry_date_format: str('Set when the token response gives a date instead of seconds; the date itself is parsed flexibly.', {
        label: 'Token Expiry Date Format',
        example: '"%Y-%m-%dT%H:%M:%SZ"',
        examples: ['%Y-%m-%d %H:%M:%S.%f+00:00', '%Y-%m-%dT%H:%M:%SZ', '%s'],
      }),
      refresh_token_error_status_codes: raw(
        { type: 'array', items: { type: 'integer' } },
        'HTTP statuses of the token endpoint that mean the refresh token is no longer valid.',
        { label: 'Refresh Token Error Status Codes', addedIn: '7.0.0' },
      ),
      refresh_token_error_key: str('Key of the error in a failed token response.', {
        label: 'Refresh Token Error Key',
        addedIn: '7.0.0',
        examples: ['error'],
      }),
      refresh_token_error_values: strs('Error values that mean the refresh token is no longer valid.', {
        label: 'Refresh Token Error Values',
        addedIn: '7.0.0',
      }),
      refresh_token_updater: raw(
        {
          type: 'object',
          properties: {
            refresh_token_name: {
              type: 'string',
              description: 'Key of the new refresh token in the token response.',
              default: 'refresh_token',
            },
            access_token_config_path: {
              type: 'array',
              items: { type: 'string' },
              description: 'Where the new access token is written in the config.',
              default: ['credentials', 'access_token'],
            },
            refresh_token_config_path: {
              type: 'array',
              items: { type: 'string' },
              description: 'Where the new refresh token is written in the config.',
              default: ['credentials', 'refresh_token'],
            },
            token_expiry_date_config_path: {
              type: 'array',
              items: { type: 'string' },
              description: 'Where the new expiry date is written in the config.',
              default: ['credentials', 'token_expiry_date'],
            },
            refresh_token_error_status_codes: {
              type: 'array',
              items: { type: 'integer' },
              description: 'Token endpoint statuses that mean re-authentication is needed.',
              default: [],
            },
            refresh_token_error_key: { type: 'string', description: 'Key of the error in a failed token response.', default: '' },
            refresh_token_error_values: {
              type: 'array',
              items: { type: 'string' },
              description: 'Error values that mean re-authentication is needed.',
              default: [],
            },
          },
        },
        'For single-use refresh tokens: where in the config the new tokens are stored after each refresh.',
        { label: 'Refresh Token Updater' },
      ),
      profile_assertion: one(['JwtAuthenticator'], 'A signed JWT sent as the assertion of a JWT-bearer grant.', {
        label: 'Profile Assertion',
      }),
      use_profile_assertion: bool('Authenticate with `profile_assertion` instead of the client secret.', {
        default: false,
        label: 'Use Profile Assertion',
      }),
    },
    example:
      'type: OAuthAuthenticator\ntoken_refresh_endpoint: https://api.example.com/oauth/token\nclient_id: "{{ config[\'client_id\'] }}"\nclient_secret: "{{ config[\'client_secret\'] }}"\nrefresh_token: "{{ config[\'refresh_token\'] }}"',
  },
  {
    type: 'JwtAuthenticator',
    area: 'auth',
    label: 'JWT Authenticator',
    description:
      'Signs a JSON Web Token for each request and sends it in a header (by default `Authorization`, without `Bearer` unless `header_prefix` says so).',
    fields: {
      secret_key: str('The signing key (a shared secret or a PEM private key).', {
        required: true,
        label: 'Secret Key',
        templateContext: 'jwt',
        example: '"{{ config[\'secret_key\'] }}"',
        examples: ["{{ config['secret_key'] }}"],
      }),
      base64_encode_secret_key: bool('Base64-encode the secret before signing.', { default: false, label: 'Base64-encode Secret Key' }),
      algorithm: str('The signing algorithm.', {
        required: true,
        label: 'Algorithm',
        enum: [
          'HS256',
          'HS384',
          'HS512',
          'ES256',
          'ES256K',
          'ES384',
          'ES512',
          'RS256',
          'RS384',
          'RS512',
          'PS256',
          'PS384',
          'PS512',
          'EdDSA',
        ],
        example: 'RS256',
      }),
      token_duration: int('Seconds between `iat` and `exp`.', { default: 1200, label: 'Token Duration', examples: [1200, 3600] }),
      header_prefix: str('Text put before the token in the header, such as `Bearer`.', {
        label: 'Header Prefix',
        example: 'Bearer',
        examples: ['Bearer', 'Basic'],
      }),
      jwt_headers: raw(
        {
          type: 'object',
          properties: {
            kid: { type: 'string', description: 'Key ID: which key signed the token (the API tells you its value).' },
            typ: { type: 'string', description: 'Media type of the token.', default: 'JWT', examples: ['JWT'] },
            cty: { type: 'string', description: 'Content type of the payload, for nested tokens.', examples: ['JWT'] },
          },
        },
        'Standard JWT header values (`kid`, `typ`, `cty`).',
        { label: 'JWT Headers', templateContext: 'jwt' },
      ),
      additional_jwt_headers: obj('Other JWT header values.', { label: 'Additional JWT Headers', templateContext: 'jwt' }),
      jwt_payload: raw(
        {
          type: 'object',
          properties: {
            iss: {
              type: 'string',
              description: 'Issuer: who signs the token (often the client or service account id).',
              examples: ["{{ config['client_email'] }}"],
            },
            sub: { type: 'string', description: 'Subject: the user or account the token speaks for.' },
            aud: {
              type: 'string',
              description: 'Audience: the API the token is meant for (often the token endpoint URL).',
              examples: ['https://oauth2.googleapis.com/token'],
            },
          },
        },
        'Standard claims (`iss`, `sub`, `aud`); `iat`, `nbf` and `exp` are computed.',
        { label: 'JWT Payload', templateContext: 'jwt' },
      ),
      additional_jwt_payload: obj('Other claims.', { label: 'Additional JWT Payload Properties', templateContext: 'jwt' }),
      passphrase: str('Passphrase of an encrypted private key.', {
        label: 'Passphrase',
        templateContext: 'jwt',
        addedIn: '7.0.0',
        examples: ["{{ config['passphrase'] }}"],
      }),
      request_option: one(requestOption, 'Sends the token somewhere other than the `Authorization` header.', {
        label: 'Request Option',
        addedIn: '7.0.0',
      }),
    },
  },
  {
    type: 'SessionTokenAuthenticator',
    area: 'auth',
    label: 'Session Token Authenticator',
    description: 'Logs in with a separate request, extracts a session token from the response and sends it with each request.',
    fields: {
      login_requester: one(['HttpRequester'], 'The login request.', { required: true, label: 'Login Requester' }),
      session_token_path: strs('Path of the token in the login response.', {
        required: true,
        label: 'Session Token Path',
        example: '["token"]',
      }),
      expiration_duration: str('ISO 8601 duration after which the token is renewed. Without it, every request logs in again.', {
        label: 'Expiration Duration',
        example: 'PT1H',
        examples: ['PT1H', 'P1D'],
      }),
      request_authentication: one(['ApiKey', 'Bearer'], 'How the session token is sent with data requests.', {
        required: true,
        label: 'Data Request Authentication',
      }),
      decoder: one(['JsonDecoder', 'XmlDecoder'], 'Format of the login response.', { label: 'Decoder' }),
    },
  },
  {
    type: 'ApiKey',
    area: 'auth',
    label: 'API Key Authenticator',
    description: 'Sends the session token like an API key, where `inject_into` says.',
    fields: {
      inject_into: one(requestOption, 'Where the session token goes in each request.', {
        required: true,
        label: 'Inject API Key Into Outgoing HTTP Request',
      }),
      api_token: str('Template of the sent value; `session_token` is available.', {
        default: '{{ session_token }}',
        label: 'API Token Template',
        templateContext: 'session_api_token',
        addedIn: '7.0.0',
        examples: ['{{ session_token }}', 'Token {{ session_token }}', 'Bearer {{ session_token }}'],
      }),
    },
  },
  {
    type: 'Bearer',
    area: 'auth',
    label: 'Bearer Authenticator',
    description: 'Sends the session token as `Authorization: Bearer <token>`.',
    fields: {},
  },
  {
    type: 'LegacySessionTokenAuthenticator',
    area: 'auth',
    label: 'Session Token Authenticator',
    deprecated: 'use `SessionTokenAuthenticator`',
    description:
      'Older session-token flow: logs in at `login_url` with user name and password, or uses a given token, and sends it in a header.',
    fields: {
      header: str('Header that carries the session token.', {
        required: true,
        label: 'Session Request Header',
        example: 'X-Session',
        examples: ['X-Session'],
      }),
      login_url: str('Path of the login endpoint, relative to the requester base URL.', {
        required: true,
        label: 'Login Path',
        example: 'session',
        examples: ['session'],
      }),
      session_token: str('A session token known in advance; skips the login.', { label: 'Session Token', templateContext: 'static' }),
      session_token_response_key: str('Key of the token in the login response.', {
        required: true,
        label: 'Response Token Response Key',
        example: 'id',
        examples: ['id'],
      }),
      username: str('User name for the login.', { label: 'Username', templateContext: 'static' }),
      password: str('Password for the login.', { default: '', label: 'Password', templateContext: 'static' }),
      validate_session_url: str('Path of the endpoint that checks whether a token is still valid.', {
        required: true,
        label: 'Validate Session Path',
        example: 'user/current',
        examples: ['user/current'],
      }),
    },
  },
  {
    type: 'RateLimitedMultipleTokenAuthenticator',
    area: 'auth',
    label: 'Rate Limited Multiple Token Authenticator',
    description: "Rotates several tokens, tracking each one's remaining quota and waiting when all are exhausted.",
    addedIn: '7.0.0',
    fields: {
      tokens: raw(
        { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        'The tokens: a list, or one string split by `token_delimiter`.',
        { required: true, label: 'Tokens', templateContext: 'static' },
      ),
      token_delimiter: str('Separator of tokens given as one string.', { default: ',', label: 'Token Delimiter' }),
      auth_method: str('Scheme put before the token in the header.', {
        default: 'Bearer',
        label: 'Auth Method',
        examples: ['Bearer', 'token'],
      }),
      header: str('Header that carries the token.', { default: 'Authorization', label: 'Header Name' }),
      quota_status_source: one(['QuotaStatusSource'], 'Endpoint that reports the remaining quota of a token.', {
        required: true,
        label: 'Quota Status Source',
      }),
      quotas: many(['TokenQuota'], 'The quota pools tracked per token.', { required: true, label: 'Quota Pools' }),
      max_wait_time: str('Longest wait for a quota reset (ISO 8601 duration).', {
        default: 'PT2H',
        label: 'Maximum Wait Time',
        templateContext: 'static',
        examples: ['PT2H', 'PT30M'],
      }),
      budget_reserve_fraction: num('Share of each quota kept in reserve.', { default: 0.1, label: 'Budget Reserve Fraction' }),
      budget_min_reserve: int('Smallest number of calls kept in reserve.', { default: 50, label: 'Budget Minimum Reserve' }),
    },
  },
  {
    type: 'QuotaStatusSource',
    area: 'auth',
    label: 'Quota Status Source',
    addedIn: '7.0.0',
    description: "An endpoint queried to learn a token's remaining quota.",
    fields: {
      url: str('URL of the quota endpoint.', { required: true, label: 'URL', templateContext: 'static' }),
      http_method: str('HTTP method of the quota request.', { default: 'GET', enum: ['GET', 'POST'], label: 'HTTP Method' }),
      request_headers: obj('Headers of the quota request.', { label: 'Request Headers' }),
      unavailable_status_codes: raw({ type: 'array', items: { type: 'integer' } }, 'Statuses meaning the quota cannot be read right now.', {
        label: 'Unavailable Status Codes',
      }),
    },
  },
  {
    type: 'TokenQuota',
    area: 'auth',
    label: 'Token Quota',
    addedIn: '7.0.0',
    description: 'One quota pool: where its remaining calls, limit and reset time are read.',
    fields: {
      name: str('Name of the pool.', { required: true, label: 'Name', examples: ['rest', 'graphql'] }),
      remaining_path: strs('Path of the remaining count in the quota response.', { required: true, label: 'Remaining Path' }),
      reset_path: strs('Path of the reset time in the quota response.', { required: true, label: 'Reset Path' }),
      limit_path: strs('Path of the limit in the quota response.', { label: 'Limit Path' }),
      matchers: many(['HttpRequestRegexMatcher'], 'Requests that count against this pool.', { label: 'Matchers' }),
      remaining_header: str('Response header with the remaining count.', {
        label: 'Remaining Header',
        examples: ['X-RateLimit-Remaining'],
      }),
      reset_header: str('Response header with the reset time.', { label: 'Reset Header', examples: ['X-RateLimit-Reset'] }),
      limit_header: str('Response header with the limit.', { label: 'Limit Header', examples: ['X-RateLimit-Limit'] }),
      exhaustion_status_codes: raw({ type: 'array', items: { type: 'integer' } }, 'Statuses meaning the pool is exhausted.', {
        label: 'Exhaustion Status Codes',
      }),
    },
  },
];

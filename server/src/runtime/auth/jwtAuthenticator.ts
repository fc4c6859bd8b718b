// JwtAuthenticator (airbyte_cdk/sources/declarative/auth/jwt.py): signs a fresh JWT for every request with the
// HS/RS/PS/ES/EdDSA families through `jose`, and injects it (default header Authorization, no prefix).
import { createPrivateKey, createSecretKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import { configError } from '../errors';
import { jsonLoads } from '../interpolation';
import { createRequestOption, type RequestOption } from '../http/requestOption';
import { injectToken } from './apiKeyAuthenticator';
import {
  emptyAuthParts,
  renderMapping,
  renderText,
  requireField,
  type AuthBuildContext,
  type Authenticator,
  type Component,
} from './authContext';

const ALGORITHMS = [
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
] as const;
const RESERVED_HEADERS = ['kid', 'alg', 'typ', 'cty'];
const RESERVED_PAYLOAD = ['iss', 'sub', 'aud', 'iat', 'exp', 'nbf'];
const DEFAULT_TOKEN_DURATION = 1200;

/** Extra template variable of JWT fields (§3.6): parses a JSON string. */
const jwtTemplateExtras = { json_loads: jsonLoads };

/**
 * Builds a JwtAuthenticator. Throws a config error at build time for a missing secret, an unknown
 * algorithm or a malformed request option; reserved keys in the additional headers/payload are
 * reported when the token is generated (they are templates and may depend on config).
 */
export function createJwtAuthenticator(component: Component, ctx: AuthBuildContext): Authenticator {
  requireField(component, 'secret_key');
  const algorithm = requireField(component, 'algorithm');
  if (typeof algorithm !== 'string' || !(ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw configError(`JwtAuthenticator.algorithm must be one of ${ALGORITHMS.join(', ')}; got ${JSON.stringify(algorithm)}.`);
  }
  if (component.jwt_headers !== undefined && (typeof component.jwt_headers !== 'object' || component.jwt_headers === null)) {
    throw configError('JwtAuthenticator.jwt_headers must be an object with kid, typ and/or cty.');
  }
  const option: RequestOption = component.request_option
    ? createRequestOption(component.request_option as object, ctx.config, ctx.parameters, ctx.requestOptionCompat)
    : createRequestOption({ type: 'RequestOption', inject_into: 'header', field_name: 'Authorization' }, ctx.config, ctx.parameters);
  return {
    async authenticate() {
      const token = await generateJwtToken(component, ctx);
      const parts = emptyAuthParts();
      injectToken(option, parts, token);
      return parts;
    },
    secrets: () => [],
    invalidate: () => undefined,
  };
}

/** The token value as sent: `"<prefix> <jwt>"` with a non-empty `header_prefix`, else the bare JWT. Also used by OAuth profile assertion. */
export async function generateJwtToken(component: Component, ctx: AuthBuildContext): Promise<string> {
  const algorithm = String(component.algorithm);
  const render = (template: unknown) => renderText(ctx, template, '', jwtTemplateExtras);
  const header = buildHeader(component, ctx, algorithm, render);
  const payload = buildPayload(component, ctx, render);
  const key = cachedKey(component, algorithm, render);
  let jwt: string;
  try {
    jwt = await signCompact(header, payload, key, algorithm);
  } catch (err) {
    // The key text is never included: only the library's reason.
    throw configError(`Failed to sign token: ${(err as Error).message}`, { cause: err });
  }
  const prefix = render(component.header_prefix);
  return prefix ? `${prefix} ${jwt}` : jwt;
}

function buildHeader(
  component: Component,
  ctx: AuthBuildContext,
  algorithm: string,
  render: (t: unknown) => string,
): Record<string, unknown> {
  const additional = renderMapping(ctx, component.additional_jwt_headers, 'JwtAuthenticator.additional_jwt_headers', jwtTemplateExtras);
  const reserved = Object.keys(additional).filter((k) => RESERVED_HEADERS.includes(k));
  if (reserved.length) {
    throw configError(
      `JwtAuthenticator.additional_jwt_headers must not contain ${reserved.join(', ')}; set kid/typ/cty in jwt_headers instead.`,
    );
  }
  const header: Record<string, unknown> = { ...additional };
  const jwtHeaders = (component.jwt_headers ?? {}) as Record<string, unknown>;
  for (const name of ['kid', 'typ', 'cty']) {
    const value = render(jwtHeaders[name]);
    if (value) header[name] = value;
  }
  header.alg = algorithm;
  // Spec §6.6: the signing library adds typ JWT when absent and serialises the header with sorted keys.
  if (header.typ === undefined) header.typ = 'JWT';
  return Object.fromEntries(
    Object.keys(header)
      .sort()
      .map((k) => [k, header[k]]),
  );
}

function buildPayload(component: Component, ctx: AuthBuildContext, render: (t: unknown) => string): Record<string, unknown> {
  const additional = renderMapping(ctx, component.additional_jwt_payload, 'JwtAuthenticator.additional_jwt_payload', jwtTemplateExtras);
  const reserved = Object.keys(additional).filter((k) => RESERVED_PAYLOAD.includes(k));
  if (reserved.length) {
    throw configError(
      `JwtAuthenticator.additional_jwt_payload must not contain ${reserved.join(', ')}; iss/sub/aud belong in jwt_payload and iat/exp/nbf are set automatically.`,
    );
  }
  const payload: Record<string, unknown> = { ...additional };
  const claims = (component.jwt_payload ?? {}) as Record<string, unknown>;
  for (const name of ['iss', 'sub', 'aud']) {
    const value = render(claims[name]);
    if (value) payload[name] = value;
  }
  const now = Math.floor((ctx.env.now?.() ?? new Date()).getTime() / 1000);
  const duration = component.token_duration ?? DEFAULT_TOKEN_DURATION;
  // Spec §6.6: iat and nbf are now; exp is now + token_duration (now when it is not an integer).
  payload.iat = now;
  payload.exp = Number.isInteger(duration) ? now + (duration as number) : now;
  payload.nbf = now;
  return payload;
}

/** Parsed keys by component: parsing a PEM key costs as much as signing, and the rendered text rarely changes. */
const keyCache = new WeakMap<Component, { secret: string; passphrase: string; key: KeyObject }>();

function cachedKey(component: Component, algorithm: string, render: (t: unknown) => string): KeyObject {
  const secret = renderSecret(render, component.secret_key, 'secret_key');
  const passphrase = renderSecret(render, component.passphrase, 'passphrase');
  const hit = keyCache.get(component);
  if (hit && hit.secret === secret && hit.passphrase === passphrase) return hit.key;
  const key = loadKey(component, algorithm, secret, passphrase);
  keyCache.set(component, { secret, passphrase, key });
  return key;
}

/**
 * Renders a secret field. Value errors (e.g. json_loads on a malformed service-account JSON) may
 * quote the value, so only their kind is reported; template mistakes keep their message.
 */
function renderSecret(render: (t: unknown) => string, template: unknown, field: string): string {
  try {
    return render(template);
  } catch (err) {
    const kind = (err as { kind?: string }).kind;
    if (kind === 'template_syntax_error' || kind === 'undeclared_variable') throw err;
    throw configError(
      `Failed to sign token: JwtAuthenticator.${field} could not be rendered (${kind ?? 'error'}); check the config value it reads.`,
    );
  }
}

function loadKey(component: Component, algorithm: string, secret: string, passphrase: string): KeyObject {
  try {
    if (passphrase) return createPrivateKey({ key: secret, format: 'pem', passphrase });
    if (algorithm.startsWith('HS')) {
      // Spec §6.6: with base64_encode_secret_key the HMAC key bytes are the base64 *text* of the secret.
      const text = component.base64_encode_secret_key === true ? Buffer.from(secret, 'utf8').toString('base64') : secret;
      return createSecretKey(Buffer.from(text, 'utf8'));
    }
    return createPrivateKey({ key: secret, format: 'pem' });
  } catch (err) {
    const what = passphrase ? 'decrypt the private key with the passphrase' : `read secret_key as a PEM private key for ${algorithm}`;
    throw configError(`Failed to sign token: could not ${what} (${(err as { code?: string }).code ?? 'invalid key'}).`, { cause: err });
  }
}

async function signCompact(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key: KeyObject,
  algorithm: string,
): Promise<string> {
  const payloadBytes = new TextEncoder().encode(JSON.stringify(payload));
  const curve = key.asymmetricKeyType;
  // jose has no ES256K and no Ed448: those two are signed with node:crypto directly (same JWS rules).
  if (algorithm === 'ES256K' || (algorithm === 'EdDSA' && curve === 'ed448')) {
    const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
    const input = `${b64(JSON.stringify(header))}.${b64(payloadBytes)}`;
    const signature =
      algorithm === 'ES256K'
        ? nodeSign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
        : nodeSign(null, Buffer.from(input), key);
    return `${input}.${b64(signature)}`;
  }
  return new CompactSign(payloadBytes).setProtectedHeader(header as { alg: string }).sign(key);
}

// The declarative OAuth consent flow (airbyte_cdk/sources/declarative/declarative_component_schema.yaml), which the Airbyte platform runs
// and the CDK does not: building the consent URL (state, scopes, PKCE via templates) and exchanging
// the authorization code for tokens, returning the values to store in the connector config.
import { randomInt } from 'node:crypto';
import type { HttpRequest, RuntimeEnv } from '../types';
import { configError, RuntimeError, systemError, transientError } from '../errors';
import { sendRequest, safeUrl } from '../auth/authHttp';
import { setValueAtPath, valueAtPath } from '../auth/authContext';
import { javaUrlEncode, renderConsentTemplate } from './consentTemplate';

/** The user-provided side of the flow: the OAuth app's credentials, the redirect URI and extra inputs (e.g. subdomain). */
export type OAuthInputs = { client_id?: string; client_secret?: string; redirect_uri?: string } & Record<string, unknown>;

/** The consent URL to open in a browser and the state to check on the callback. */
export type OAuthConsent = { url: string; state: string };

/** Values obtained by the code exchange, keyed by output name, plus the config with them written in. */
export type OAuthExchangeResult = { outputs: Record<string, unknown>; config: Record<string, unknown> };

const STATE_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_';
const JOINERS: Record<string, string> = { space: ' ', comma: ',', plus: '+' };

/**
 * Finds `oauth_connector_input_specification` in a manifest, its `spec`, `advanced_auth` or
 * `oauth_config_specification`; throws a config error naming what is missing.
 */
export function findConnectorInputSpecification(source: object): Record<string, unknown> {
  const s = source as Record<string, unknown>;
  const candidates = [s, s.spec, s.advanced_auth, (s.spec as Record<string, unknown> | undefined)?.advanced_auth].filter(Boolean) as Record<
    string,
    unknown
  >[];
  for (const c of candidates) {
    const oauth = (c.oauth_config_specification ?? c) as Record<string, unknown>;
    const input = oauth.oauth_connector_input_specification ?? (c.consent_url !== undefined ? c : undefined);
    if (input && typeof input === 'object') return input as Record<string, unknown>;
  }
  throw configError(
    'The manifest has no spec.advanced_auth.oauth_config_specification.oauth_connector_input_specification; declarative OAuth is not configured.',
  );
}

/**
 * The OAuth inputs a config already holds (§6.8.1): the client id and secret at the
 * `path_in_connector_config` of `complete_oauth_server_output_specification`, and each field of
 * `oauth_user_input_from_connector_config_specification` (e.g. `subdomain`) at its path. Absent values are left out.
 */
export function oauthInputsFromConfig(source: object, config: Record<string, unknown>): OAuthInputs {
  const oauth = oauthConfigSpecification(source);
  const inputs: OAuthInputs = {};
  for (const schema of [oauth.complete_oauth_server_output_specification, oauth.oauth_user_input_from_connector_config_specification]) {
    const props = (valueAtPath(schema, ['properties']) ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, prop] of Object.entries(props)) {
      const path = prop?.path_in_connector_config;
      const value = Array.isArray(path) ? valueAtPath(config, path.map(String)) : undefined;
      if (value !== undefined && value !== null) inputs[name] = value;
    }
  }
  return inputs;
}

function oauthConfigSpecification(source: object): Record<string, unknown> {
  const s = source as Record<string, unknown>;
  const advanced = (valueAtPath(s, ['spec', 'advanced_auth']) ?? s.advanced_auth ?? s) as Record<string, unknown>;
  return (advanced.oauth_config_specification ?? {}) as Record<string, unknown>;
}

/**
 * Builds the consent URL (§6.8.2–§6.8.4). A random state is generated within `state.min`..`state.max`
 * (default 7..24) unless `options.state` is given. Never uses the client secret. Throws config errors.
 */
export function buildOAuthConsentUrl(source: object, inputs: OAuthInputs, options: { state?: string } = {}): OAuthConsent {
  const spec = findConnectorInputSpecification(source);
  if (typeof spec.consent_url !== 'string' || !spec.consent_url)
    throw configError('oauth_connector_input_specification.consent_url is required.');
  const state = options.state ?? generateState(spec.state);
  const vars = templateVariables(spec, { ...inputs, client_secret: undefined }, { state });
  const url = renderConsentTemplate(spec.consent_url, vars, 'consent_url');
  if (!/^https?:\/\//i.test(url)) throw configError(`consent_url renders to '${safeUrl(url)}', which is not an http(s) URL.`);
  return { url, state };
}

/**
 * Exchanges the authorization code (§6.8.5): POSTs to access_token_url with the rendered headers and
 * params, then extracts `extract_output` (default `refresh_token`) and writes each value into a copy
 * of `config` at its `path_in_connector_config`. Throws RuntimeError with `status` on HTTP errors.
 */
export async function exchangeOAuthCode(
  source: object,
  inputs: OAuthInputs & { code: string; state?: string },
  config: Record<string, unknown> = {},
  env: RuntimeEnv = {},
): Promise<OAuthExchangeResult> {
  const spec = findConnectorInputSpecification(source);
  if (typeof spec.access_token_url !== 'string' || !spec.access_token_url)
    throw configError('oauth_connector_input_specification.access_token_url is required.');
  const vars = templateVariables(spec, inputs, { state: inputs.state ?? '', code: inputs.code });
  const request = buildExchangeRequest(spec, vars);
  let response;
  try {
    response = await sendRequest(env, request);
  } catch (err) {
    throw transientError(
      `The code exchange request to ${safeUrl(request.url)} failed (${(err as { code?: string }).code ?? 'network error'}).`,
      { cause: err },
    );
  }
  if (response.status >= 400) {
    const failure =
      response.status === 400 || response.status === 401 || response.status === 403
        ? 'config_error'
        : response.status >= 500
          ? 'transient_error'
          : 'system_error';
    throw new RuntimeError(
      `The code exchange at ${safeUrl(request.url)} failed with HTTP ${response.status}; check the client id, secret and redirect URI, then authorize again.`,
      failure,
      { status: response.status },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw systemError(`The code exchange at ${safeUrl(request.url)} did not answer JSON.`);
  }
  const outputs = extractOutputs(spec, body, env);
  return { outputs, config: writeOutputs(source, config, outputs, inputs) };
}

function buildExchangeRequest(spec: Record<string, unknown>, vars: Record<string, string>): HttpRequest {
  const url = renderConsentTemplate(spec.access_token_url as string, vars, 'access_token_url');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((spec.access_token_headers ?? {}) as Record<string, unknown>)) {
    headers[renderConsentTemplate(k, vars, 'access_token_headers')] = renderConsentTemplate(String(v), vars, 'access_token_headers');
  }
  const key = (name: string) => vars[`${name}_key`];
  let params: Record<string, string>;
  let asJson: boolean;
  if (spec.access_token_params && typeof spec.access_token_params === 'object') {
    params = {};
    for (const [k, v] of Object.entries(spec.access_token_params as Record<string, unknown>)) {
      params[renderConsentTemplate(k, vars, 'access_token_params')] = renderConsentTemplate(String(v), vars, 'access_token_params');
    }
    const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    // Spec §6.8.5: params go as JSON unless the headers ask for a form body.
    asJson = !contentType.toLowerCase().includes('application/x-www-form-urlencoded');
  } else {
    params = {
      grant_type: 'authorization_code',
      [key('client_id')]: vars.client_id_value,
      [key('client_secret')]: vars.client_secret_value,
      [key('auth_code')]: vars.auth_code_value,
      [key('redirect_uri')]: vars.redirect_uri_value,
    };
    asJson = false;
  }
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
    headers['Content-Type'] = asJson ? 'application/json' : 'application/x-www-form-urlencoded';
  const body = asJson
    ? JSON.stringify(params)
    : Object.entries(params)
        .map(([k, v]) => `${javaUrlEncode(k)}=${javaUrlEncode(v)}`)
        .join('&');
  return { method: 'POST', url, headers, body };
}

function templateVariables(
  spec: Record<string, unknown>,
  inputs: OAuthInputs,
  step: { state: string; code?: string },
): Record<string, string> {
  const vars: Record<string, string> = {};
  const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  // Spec §6.8.2: any other key of the specification or of the user's inputs is a variable too.
  for (const [k, v] of Object.entries(spec)) if (typeof v !== 'object') vars[k] = text(v);
  for (const [k, v] of Object.entries(inputs)) if (v !== undefined) vars[k] = text(v);
  const scope = joinScopes(spec, 'scopes') ?? text(spec.scope);
  const concepts: [string, string, string, boolean][] = [
    ['client_id', 'client_id', text(inputs.client_id), false],
    ['client_secret', 'client_secret', text(inputs.client_secret), false],
    ['auth_code', 'code', step.code ?? '', false],
    ['state', 'state', step.state, false],
    ['redirect_uri', 'redirect_uri', text(inputs.redirect_uri), true],
    ['scope', 'scope', scope, true],
  ];
  for (const [name, defaultKey, value, encodeParam] of concepts) {
    const k = typeof spec[`${name}_key`] === 'string' ? (spec[`${name}_key`] as string) : defaultKey;
    vars[`${name}_key`] = k;
    vars[`${name}_value`] = value;
    vars[`${name}_param`] = `${k}=${encodeParam ? javaUrlEncode(value) : value}`;
  }
  vars.scopes_value = vars.scope_value;
  vars.scopes_param = vars.scope_param;
  const optional = joinScopes(spec, 'optional_scopes') ?? '';
  vars.optional_scopes_value = optional;
  vars.optional_scopes_param = `optional_scopes=${javaUrlEncode(optional)}`;
  return vars;
}

function joinScopes(spec: Record<string, unknown>, field: string): string | undefined {
  const list = spec[field];
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const strategy = typeof spec.scopes_join_strategy === 'string' ? spec.scopes_join_strategy : 'space';
  const joiner = JOINERS[strategy];
  if (joiner === undefined) throw configError(`scopes_join_strategy must be space, comma or plus; got '${strategy}'.`);
  return list.map((s) => (s && typeof s === 'object' ? String((s as Record<string, unknown>).scope ?? '') : String(s))).join(joiner);
}

function generateState(range: unknown): string {
  const r = (range && typeof range === 'object' ? range : {}) as Record<string, unknown>;
  const min = typeof r.min === 'number' ? r.min : 7;
  const max = typeof r.max === 'number' ? r.max : 24;
  if (min < 1 || max < min)
    throw configError(`oauth_connector_input_specification.state needs 1 <= min <= max; got min ${min}, max ${max}.`);
  const length = randomInt(min, max + 1);
  let out = '';
  for (let i = 0; i < length; i++) out += STATE_ALPHABET[randomInt(STATE_ALPHABET.length)];
  return out;
}

function extractOutputs(spec: Record<string, unknown>, body: unknown, env: RuntimeEnv): Record<string, unknown> {
  const paths = Array.isArray(spec.extract_output) ? spec.extract_output.map(String) : ['refresh_token'];
  const outputs: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const path of paths) {
    const value = valueAtPath(body, path.split('.'));
    if (value === undefined || value === null) missing.push(path);
    else outputs[path.split('.').pop() as string] = value;
  }
  if (missing.length) {
    throw systemError(
      `The code exchange response lacks the expected fields ${missing.join(', ')} (extract_output expects ${paths.join(', ')}).`,
    );
  }
  const expiryKey = typeof spec.token_expiry_key === 'string' ? spec.token_expiry_key : 'expires_in';
  const seconds = Number(outputs[expiryKey]);
  if (outputs[expiryKey] !== undefined && Number.isFinite(seconds)) {
    const now = (env.now?.() ?? new Date()).getTime();
    outputs.token_expiry_date = new Date(now + seconds * 1000).toISOString().replace('.000Z', 'Z');
  }
  return outputs;
}

/** Writes outputs (and the client credentials) into a copy of the config by `path_in_connector_config`. */
function writeOutputs(
  source: object,
  config: Record<string, unknown>,
  outputs: Record<string, unknown>,
  inputs: OAuthInputs,
): Record<string, unknown> {
  const copy = structuredClone(config);
  const oauth = oauthConfigSpecification(source);
  const write = (schema: unknown, values: Record<string, unknown>) => {
    const props = (valueAtPath(schema, ['properties']) ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, prop] of Object.entries(props)) {
      const path = prop?.path_in_connector_config;
      if (Array.isArray(path) && values[name] !== undefined)
        setValueAtPath(copy, path.map(String), values[name], `${name}.path_in_connector_config`);
    }
  };
  write(oauth.complete_oauth_server_output_specification, { client_id: inputs.client_id, client_secret: inputs.client_secret });
  write(oauth.complete_oauth_output_specification, outputs);
  return copy;
}

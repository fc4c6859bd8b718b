// Serves `airbyte/oauthConsent` and `airbyte/oauthExchange`: the declarative OAuth flow of the
// manifest's spec.advanced_auth, run through the runtime's OAuth functions. Client credentials and
// extra inputs are read from the testing values at their `path_in_connector_config` (Spec §6.8.1).
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';
import { sealKey } from './sealKey';
import {
  isSealed,
  sealConfig,
  type OAuthConsentParams,
  type OAuthConsentResult,
  type OAuthExchangeParams,
  type OAuthExchangeResult,
} from './protocol';

type Json = Record<string, unknown>;

function at(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Json)[key];
  }
  return cur;
}

/** The OAuth inputs (client id/secret, user inputs such as a subdomain) found in the testing values. */
export function oauthInputsFromConfig(manifest: Json, config: Json, redirectUri: string): runtime.OAuthInputs {
  const inputs: runtime.OAuthInputs = { redirect_uri: redirectUri, ...runtime.oauthInputsFromConfig(manifest, config) };
  // Manifests without server output paths usually keep the app credentials at the top level or under `credentials`.
  for (const key of ['client_id', 'client_secret'] as const) {
    inputs[key] ??= (config[key] ?? at(config, ['credentials', key])) as string | undefined;
  }
  return inputs;
}

async function manifestFor(uri: string, lookup: OpenManifestLookup): Promise<Json> {
  const value = await loadManifestValue(uri, lookup);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping.');
  return value as Json;
}

function asResponseError(e: unknown): ResponseError<unknown> {
  if (e instanceof ResponseError) return e;
  const err = e as Error & { failureType?: string; status?: number };
  return new ResponseError(ErrorCodes.InvalidRequest, err.message || String(e), {
    failureType: err.failureType ?? 'system_error',
    status: err.status,
  });
}

/** `airbyte/oauthConsent`: the consent URL and state for the manifest's declarative OAuth flow. */
export async function handleOAuthConsent(p: OAuthConsentParams, lookup: OpenManifestLookup): Promise<OAuthConsentResult> {
  try {
    const manifest = await manifestFor(p.uri, lookup);
    const inputs = oauthInputsFromConfig(manifest, openConfigParam(p.config), p.redirectUri);
    if (!inputs.client_id)
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        'Set the OAuth client id in the testing values first (see the OAuth section of the form).',
      );
    const consent = runtime.buildOAuthConsentUrl(manifest, inputs);
    return { consentUrl: consent.url, state: consent.state };
  } catch (e) {
    throw asResponseError(e);
  }
}

/** `airbyte/oauthExchange`: the authorization code exchanged for tokens, as a config update. */
export async function handleOAuthExchange(p: OAuthExchangeParams, lookup: OpenManifestLookup): Promise<OAuthExchangeResult> {
  try {
    const manifest = await manifestFor(p.uri, lookup);
    const config = openConfigParam(p.config);
    const inputs = oauthInputsFromConfig(manifest, config, p.redirectUri);
    const result = await runtime.exchangeOAuthCode(manifest, { ...inputs, code: p.code, state: p.state }, config);
    // The tokens go back sealed when the config came sealed.
    return { configUpdate: isSealed(p.config) && sealKey ? sealConfig(result.config as Record<string, unknown>, sealKey) : result.config };
  } catch (e) {
    throw asResponseError(e);
  }
}

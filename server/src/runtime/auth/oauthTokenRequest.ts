// The OAuth token request (airbyte_cdk/sources/declarative/auth/oauth.py, §6.7.6): sends the refresh request with its
// own retry policy (independent of the stream's error handler), reports it as an auxiliary request
// and classifies failures. Response fields are found by a recursive key search.
import type { HttpRequest, HttpResponse } from '../types';
import { configError, RuntimeError, systemError, transientError } from '../errors';
import { encodeForm } from '../http/requestOptions';
import { authSleep, reportAuxiliaryRequest, safeUrl, sendRequest, signalOf } from './authHttp';
import type { AuthBuildContext } from './authContext';
import { STATUS_CODES } from 'node:http';

/** Spec §6.7.2: retries of the token request stop once this much waiting has been spent. */
const RETRY_BUDGET_MS = 300_000;
/** How many characters of an error description may go into a message. */
const MAX_DETAIL = 200;

/** What to do when the token endpoint says the refresh token is no longer valid (§6.7.6). */
export type RefreshErrorRule = { statusCodes: number[]; key: string; values: string[] };

export type TokenRequestInput = {
  endpoint: string;
  args: Record<string, unknown>;
  headers: Record<string, string>;
  asQueryParams: boolean;
  errorRule: RefreshErrorRule;
  /** Secrets already known (e.g. the current access token) to mask in the auxiliary request. */
  knownSecrets: () => string[];
};

/**
 * Sends the token request and returns the parsed JSON body. `onBody` runs on the parsed body
 * *before* the auxiliary request is reported, so that tokens it finds are masked there.
 * Throws RuntimeError: config_error (invalid refresh token, 401/403), transient_error (network,
 * 429/5xx after retries), system_error (anything else).
 */
export async function sendTokenRequest(ctx: AuthBuildContext, input: TokenRequestInput, onBody: (body: unknown) => void): Promise<unknown> {
  if (!input.endpoint)
    throw configError(
      'OAuthAuthenticator was unable to evaluate token_refresh_endpoint parameter. (token_refresh_endpoint rendered empty; set the URL of the token endpoint.)',
    );
  const request = buildRequest(input);
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    if (signalOf(ctx.env)?.aborted) throw systemError('The read was cancelled.');
    let response: HttpResponse | null = null;
    let failure: unknown = null;
    try {
      response = await sendRequest(ctx.env, request);
    } catch (err) {
      failure = err;
    }
    // A refused redirect or an invalid URL fails the same way every time: no retry.
    const permanent = failure instanceof RuntimeError && failure.failureType !== 'transient_error';
    const retryable = (failure !== null && !permanent) || (response !== null && (response.status === 429 || response.status >= 500));
    // Spec §6.7.2: exponential back-off 1 s, 2 s, 4 s … with full jitter, at most 300 s in total.
    const wait = Math.round(Math.random() * 1000 * 2 ** attempt);
    if (retryable && waited + wait <= RETRY_BUDGET_MS) {
      reportAuxiliaryRequest(ctx, REFRESH_META, request, response, input.knownSecrets());
      waited += wait;
      await authSleep(ctx.env, wait);
      continue;
    }
    if (failure !== null) {
      reportAuxiliaryRequest(ctx, REFRESH_META, request, null, input.knownSecrets());
      const code = (failure as { code?: string }).code;
      if (permanent)
        throw new RuntimeError(
          `The token refresh request to ${safeUrl(request.url)} failed: ${(failure as Error).message}`,
          (failure as RuntimeError).failureType,
          { cause: failure },
        );
      throw transientError(
        `OAuth access token refresh request failed due to a network error. The token refresh request to ${safeUrl(request.url)} failed${code ? ` (${code})` : ''}; check the network and try again.`,
        { cause: failure },
      );
    }
    return finish(ctx, input, request, response as HttpResponse, onBody);
  }
}

const REFRESH_META = { title: 'Refresh token', description: 'Obtains access token' };

/** The reference's message for a refresh token the endpoint rejects (§6.7.6), searchable as the Builder shows it. */
const INVALID_REFRESH_TOKEN = 'Refresh token is invalid or expired. Please re-authenticate from Sources/<your source>/Settings.';

function buildRequest(input: TokenRequestInput): HttpRequest {
  const form = encodeForm(input.args);
  const headers = { ...input.headers };
  if (input.asQueryParams) {
    const url = form ? `${input.endpoint}${input.endpoint.includes('?') ? '&' : '?'}${form}` : input.endpoint;
    return { method: 'POST', url, headers, body: null };
  }
  // Spec §6.7.2: the body is always form-encoded, even when the headers claim JSON.
  if (form && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return { method: 'POST', url: input.endpoint, headers, body: form || null };
}

function finish(
  ctx: AuthBuildContext,
  input: TokenRequestInput,
  request: HttpRequest,
  response: HttpResponse,
  onBody: (b: unknown) => void,
): unknown {
  let body: unknown;
  let parseError: unknown = null;
  try {
    body = JSON.parse(response.body);
  } catch (err) {
    parseError = err;
  }
  let hookError: unknown = null;
  if (parseError === null && response.status < 400) {
    try {
      onBody(body);
    } catch (err) {
      hookError = err;
    }
  }
  reportAuxiliaryRequest(ctx, REFRESH_META, request, response, input.knownSecrets());
  if (response.status >= 400) throw classifyFailure(input, request, response, parseError === null ? body : undefined);
  if (parseError !== null)
    throw systemError(`The token endpoint ${safeUrl(request.url)} answered HTTP ${response.status} with a body that is not JSON.`);
  if (hookError !== null) throw hookError;
  return body;
}

function classifyFailure(input: TokenRequestInput, request: HttpRequest, response: HttpResponse, body: unknown): RuntimeError {
  const record = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const rule = input.errorRule;
  const where = safeUrl(request.url);
  if (rule.statusCodes.includes(response.status) && rule.key && rule.values.includes(String(record[rule.key]))) {
    return configError(
      `${INVALID_REFRESH_TOKEN} (The token endpoint ${where} answered HTTP ${response.status} '${String(record[rule.key])}'; ` +
        're-authenticate the source to obtain a new refresh token.)',
      { status: response.status },
    );
  }
  const detailParts = [record.error, record.error_description, record.message].filter((v) => typeof v === 'string') as string[];
  const secrets = input.knownSecrets();
  let detail = detailParts.join(': ').slice(0, MAX_DETAIL);
  for (const s of secrets) if (s) detail = detail.split(s).join('****');
  // The reference re-raises requests' HTTPError ("401 Client Error: Unauthorized for url: …"), which a
  // read reports as a system error; only the invalid-refresh-token rule above is a config error.
  const httpError = `${response.status} ${response.status >= 500 ? 'Server' : 'Client'} Error: ${STATUS_CODES[response.status] ?? 'Unknown'} for url: ${where}`;
  const message = `${httpError}. The token refresh request failed with HTTP ${response.status}${detail ? ` (${detail})` : ''}.`;
  if (response.status === 401 || response.status === 403)
    return systemError(`${message} Check the client id, client secret and refresh token.`, { status: response.status });
  if (response.status === 429 || response.status >= 500)
    return transientError(`${message} Retries were exhausted; try again later.`, { status: response.status });
  return systemError(message, { status: response.status });
}

/**
 * Recursive key search of the reference (§6.7.2): the object itself first, then depth-first through
 * nested objects and arrays in document order; descending deeper than 5 levels is an error.
 */
export function findInResponse(data: unknown, key: string, depth = 0): unknown {
  // The reference's own message and failure type (a config error) for a response nested too deeply.
  if (depth > 5)
    throw configError(
      `The maximum level of recursion is reached. Couldn't find the specified \`${key}\` in the response. (The token response is nested more than 5 levels deep; check access_token_name / expires_in_name.)`,
    );
  if (Array.isArray(data)) {
    for (const item of data) {
      const found = findInResponse(item, key, depth + 1);
      if (found !== undefined && found !== null) return found;
    }
    return undefined;
  }
  if (data && typeof data === 'object') {
    const obj = data as Record<string, unknown>;
    if (Object.hasOwn(obj, key)) return obj[key];
    for (const value of Object.values(obj)) {
      if (value && typeof value === 'object') {
        const found = findInResponse(value, key, depth + 1);
        if (found !== undefined && found !== null) return found;
      }
    }
  }
  return undefined;
}

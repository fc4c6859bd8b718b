// Shared types of the runtime's public surface (docs/runtime.md ("The programmatic API")). Pure data shapes:
// nothing here performs I/O, and nothing here may import from outside server/src/runtime/.
import type { CdkVersion } from './schema/versions';
import type { SecretMasker } from './testRead/masking';

/** A request as it goes on the wire: final URL (query encoded as sent), every header, body text or null. */
export type HttpRequest = { method: string; url: string; headers: Record<string, string>; body: string | null };

/**
 * A response as received: status, headers (names as the server sent them; look them up with
 * http/headers.ts `headerValue`, which ignores case), body text. The default transport also
 * attaches, non-enumerably (so the shape above is all that JSON, spreads and deep comparisons see),
 * `bodyBytes` (the body's raw bytes, needed by gzip/zip/CSV decoders) and `maxBodyBytes` (the size cap
 * the body was read under, applied again to inflated data). A scripted fetch may set them as plain fields.
 */
export type HttpResponse = { status: number; headers: Record<string, string>; body: string; bodyBytes?: Uint8Array; maxBodyBytes?: number };

/** Everything the runtime needs from the outside world; every member is optional. */
export interface RuntimeEnv {
  /** Clock; defaults to real time. */
  now?: () => Date;
  /** Transport; defaults to real HTTP (see http/transport.ts). */
  fetch?: (req: HttpRequest) => Promise<HttpResponse>;
  /** Called with the whole updated config when a single-use refresh token is written back. */
  onConfigUpdate?: (config: object) => void;
  /** Every wait (retry back-off, Retry-After) goes through this; defaults to real timers. */
  sleep?: (ms: number) => Promise<void>;
}

/** What a component adds to a request. `path` non-null replaces the request path (RequestPath). */
export type RequestParts = {
  path: string | null;
  request_parameters: Record<string, unknown>;
  request_headers: Record<string, unknown>;
  request_body_data: Record<string, unknown>;
  request_body_json: Record<string, unknown>;
};

export type AuthParts = Omit<RequestParts, 'path'>;

export type PaginatorOptions = {
  urlBase?: string;
  decoder?: object;
  recordExtractor?: object;
  testReadMaxPages?: number;
  parameters?: object;
  /** How RequestOptions treat fields the manifest's declared CDK version did not have. */
  requestOptionCompat?: RequestOptionCompat;
};

/**
 * What building a RequestOption needs to know about the manifest: the CDK version it declares, so
 * fields added later are ignored the way that CDK ignored them, and where to say so.
 */
export type RequestOptionCompat = {
  /** The manifest's `version`, parsed; undefined when it declares none. */
  manifestVersion?: CdkVersion;
  /** Receives a warning when a field is ignored for that version (a test read logs it as WARN). */
  warn?: (message: string) => void;
};

export type TestReadLimits = { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };

/**
 * `state`: the input state, as the Builder takes it: a list of AirbyteStateMessages
 * (`{type: "STREAM", stream: {stream_descriptor: {name}, stream_state}}`); the read starts from it.
 */
export type TestReadEnv = RuntimeEnv & {
  signal?: AbortSignal;
  /** Each progress event of the read, as it happens (docs/runtime.md types it `object`; these are its shapes). */
  onProgress?: (event: TestReadProgress) => void;
  state?: object[];
  /** The masker the read collects its secrets in (a cassette recorder needs the tokens obtained); a fresh one by default. */
  masker?: SecretMasker;
  /** Adds each page's `pagination_trace` (token in and out, why the next page was or was not requested) to the result. */
  paginationTrace?: boolean;
};

/** A source span in UTF-16 offsets of the manifest text. */
export type Span = { start: number; end: number };

/** A request/response exchange made outside the data pages (token refresh, login), §10.3 shape. */
export type AuxiliaryRequest = {
  title: string;
  type: string;
  description: string;
  request: { url: string; headers: Record<string, string> | null; http_method: string; body: string | null };
  /** null when no response arrived (network failure). */
  response: { status: number; body: string; headers: Record<string, string> | null } | null;
};

/** Reporting hooks of authenticators; the test read uses them for auxiliary requests and masking (§10.4, §11). */
export type AuthenticatorHooks = {
  /** Called once per token request / login, after it completed or failed; obtained tokens already masked as `****`. */
  onAuxiliaryRequest?: (entry: AuxiliaryRequest) => void;
  /** Called with every secret value an authenticator obtains (access token, session token) as soon as it has it. */
  onSecret?: (value: string) => void;
};

/** Options of createAuthenticator (docs/runtime.md), plus the optional reporting hooks. */
export type AuthenticatorOptions = AuthenticatorHooks & {
  /** The requester's url (or url_base) template: LegacySessionTokenAuthenticator appends its paths to it. */
  urlBase?: string;
  /** `$parameters` in scope of the authenticator. */
  parameters?: object;
  /** Test reads (§10.1): a SessionTokenAuthenticator's login requester gets no retries, like every requester. The OAuth token request keeps its own policy. */
  disableRetries?: boolean;
  /** How RequestOptions treat fields the manifest's declared CDK version did not have. */
  requestOptionCompat?: RequestOptionCompat;
};

/** Progress events sent to env.onProgress while a test read runs. */
export type TestReadProgress =
  | { type: 'start'; stream: string }
  | { type: 'slice'; slice: number; descriptor: Record<string, unknown> | string }
  | { type: 'request'; slice: number; page: number; method: string; url: string }
  | { type: 'page'; slice: number; page: number; method: string; url: string; status: number | null; records: number; totalRecords: number }
  | { type: 'auxiliary_request'; title: string; requestType: string; status: number | null }
  | { type: 'log'; level: string; message: string }
  | { type: 'done'; slices: number; pages: number; records: number; limitReached: boolean };

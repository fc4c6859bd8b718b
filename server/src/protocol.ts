// Custom LSP messages between the client and the server, each declared once with its method name,
// params and result. The client may import this module and nothing else from server/.

/** Client → server request: run a test read of one stream. Config travels with the request only. */
export const TestReadRequest = 'airbyte/testRead';
export type TestReadParams = {
  uri: string;
  streamName: string;
  config: Record<string, unknown>;
  limits?: { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
  /** Transport bounds from the user's settings: per-request timeout and response size cap. */
  http?: { timeoutMs?: number; maxResponseBytes?: number };
  /** Correlates progress notifications with this run. */
  runId: string;
  /** The input state, as the Builder takes it: a list of AirbyteStateMessages (docs/runtime.md "Incremental sync"). */
  state?: object[];
};
/** The StreamRead of reference-behaviour.md §10.3 (secrets masked), as the runtime returns it. */
export type TestReadResult = Record<string, unknown>;

/** Server → client notification: a progress event of a running test read. */
export const TestReadProgressNotification = 'airbyte/testReadProgress';
export type TestReadProgressParams = { runId: string; event: Record<string, unknown> };

/** Server → client notification: the runtime wrote back config (single-use refresh tokens). */
export const ConfigUpdateNotification = 'airbyte/configUpdate';
export type ConfigUpdateParams = { runId: string; uri: string; config: Record<string, unknown> };

/** Client → server request: the streams of a manifest with their ranges (for lenses and pickers). */
export const ListStreamsRequest = 'airbyte/listStreams';
export type ListStreamsParams = { uri: string };
export type StreamInfo = {
  name: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
};
export type ListStreamsResult = { streams: StreamInfo[] };

/** Client → server request: the manifest's spec (connection_specification and advanced_auth). */
export const GetSpecRequest = 'airbyte/getSpec';
export type GetSpecParams = { uri: string };
export type GetSpecResult = { connectionSpecification: Record<string, unknown> | null; advancedAuth: Record<string, unknown> | null };

/** Client → server request: the consent URL of the manifest's declarative OAuth flow (spec.advanced_auth). */
export const OAuthConsentRequest = 'airbyte/oauthConsent';
export type OAuthConsentParams = { uri: string; config: Record<string, unknown>; redirectUri: string };
/** `state` is the value the redirect must carry back; the client checks it before exchanging the code. */
export type OAuthConsentResult = { consentUrl: string; state: string };

/** Client → server request: exchange the authorization code; the result is merged into the testing values. */
export const OAuthExchangeRequest = 'airbyte/oauthExchange';
export type OAuthExchangeParams = { uri: string; config: Record<string, unknown>; code: string; state: string; redirectUri: string };
export type OAuthExchangeResult = { configUpdate: Record<string, unknown> };

/** Client → server request: the edit that writes an inferred schema into a stream's schema in the manifest. */
export const InferredSchemaEditRequest = 'airbyte/inferredSchemaEdit';
export type InferredSchemaEditParams = { uri: string; streamName: string; schema: Record<string, unknown> };
export type InferredSchemaEditResult = {
  edit: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string };
};

/** Client → server request: the manifest as the CDK sees it (references resolved, `$parameters` propagated, default types inserted), as YAML. */
export const ResolvedManifestRequest = 'airbyte/resolvedManifest';
export type ResolvedManifestParams = { uri: string };
/** `problems` counts the resolution problems (broken references, cycles) left in the text as written. */
export type ResolvedManifestResult = { text: string; problems: number };

// Custom LSP messages between the client and the server, each declared once as a typed RequestType or
// NotificationType (its method name, params and result), which both sides pass to sendRequest/onRequest,
// so a method and its types cannot be paired wrongly. The client may import this module and nothing else from server/ (but the pure
// modules of server/src/runtime/shared/). The test-read shapes are the runtime's own types (type-only
// imports: nothing of the runtime's code reaches the client).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { LogMessage, StreamRead, TestReadProgress } from './runtime';
import type { RegressionDiff } from './runtime';

export type {
  AuxiliaryRequestEntry,
  LogMessage,
  ReadRequest,
  ReadResponse,
  StreamRead,
  StreamReadPage,
  StreamReadSlice,
  TestReadProgress,
} from './runtime';
export type { RecordChange, RegressionDiff } from './runtime';

/**
 * Testing values never travel in clear text: the language client's protocol trace
 * (`airbyteManifest.trace.server`) writes every message's params and results to the output channel and
 * the log files. The client creates a random key at start and hands it to the server process in the
 * environment variable SEAL_KEY_ENV (never in a message); every config in a message is sealed with
 * AES-256-GCM under that key as `{ "$sealed": "<base64url>" }`. A plain object is still accepted
 * from clients that hold no key (the LSP tests).
 */
export const SEAL_KEY_ENV = 'AIRBYTE_MANIFEST_STUDIO_SEAL_KEY';
/**
 * The key goes to the server through a pipe, not the environment (which /proc/<pid>/environ shows for
 * the life of the process): this variable names the file descriptor the server reads it from, once.
 */
export const SEAL_KEY_FD_ENV = 'AIRBYTE_MANIFEST_STUDIO_SEAL_KEY_FD';
import type { ConfigPayload, SealedConfig } from './configPayload';
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
export type { ConfigPayload, SealedConfig } from './configPayload';

/** A fresh sealing key, as the text passed in SEAL_KEY_ENV. */
export function newSealKey(): string {
  return randomBytes(32).toString('base64');
}

function keyBytes(key: string): Buffer {
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 32) throw new Error('The sealing key must be 32 bytes (base64).');
  return bytes;
}

/** Seals a config for a message. */
export function sealConfig(config: Record<string, unknown>, key: string): SealedConfig {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(key), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(config), 'utf8'), cipher.final()]);
  return { $sealed: Buffer.concat([iv, data, cipher.getAuthTag()]).toString('base64url') };
}

export function isSealed(value: unknown): value is SealedConfig {
  return !!value && typeof value === 'object' && typeof (value as SealedConfig).$sealed === 'string' && Object.keys(value).length === 1;
}

/** The config of a message: opens a sealed one (throws when the key is missing or the text was altered), passes a plain object through. */
export function openConfig(value: ConfigPayload | undefined | null, key: string | undefined): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isSealed(value)) return value;
  if (!key) throw new Error('A sealed config arrived but this process has no sealing key.');
  const raw = Buffer.from(value.$sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(key), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
  const config = JSON.parse(text);
  return config && typeof config === 'object' && !Array.isArray(config) ? config : {};
}

/** Client → server request: run a test read of one stream. Config travels with the request only (sealed). */
export const TestReadRequest = new RequestType<TestReadParams, TestReadResult, void>('airbyte/testRead');
export type TestReadParams = {
  uri: string;
  streamName: string;
  config: ConfigPayload;
  limits?: { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
  /** Transport bounds from the user's settings: per-request timeout and response size cap. */
  http?: { timeoutMs?: number; maxResponseBytes?: number };
  /** Correlates progress notifications with this run. */
  runId: string;
  /** The input state, as the Builder takes it: a list of AirbyteStateMessages (docs/runtime.md "Incremental sync"). */
  state?: object[];
  /** Keep the masked cassette of this read's HTTP exchanges for `airbyte/readCassette` (docs/cassettes.md). */
  record?: boolean;
  /** Read offline from a cassette instead of the network; the cassette's masked config and limits are used. */
  replay?: CassetteReplayOption;
  /** The engine (docs/engines.md): absent = the CDK for a stream with custom components, else the built-in runtime. */
  engine?: ReadEngineName;
  /** The CDK engine's interpreter for this read (else the one of `airbyte/cdkPython`). */
  python?: string;
};
/** The StreamRead of airbyte_cdk/connector_builder/test_reader/reader.py (secrets masked), as the runtime returns it. */
export type TestReadResult = StreamRead;

/** Server → client notification: a progress event of a running test read. */
export const TestReadProgressNotification = new NotificationType<TestReadProgressParams>('airbyte/testReadProgress');
export type TestReadProgressParams = { runId: string; event: TestReadProgress };

/** Server → client notification: the runtime wrote back config (single-use refresh tokens). */
export const ConfigUpdateNotification = new NotificationType<ConfigUpdateParams>('airbyte/configUpdate');
export type ConfigUpdateParams = { runId: string; uri: string; config: ConfigPayload };

/** A log entry as the results view shows it: error entries may point at a manifest line (0-based). */
export type ShownLogMessage = LogMessage & {
  line?: number;
  /** For an ERROR: the stream component it is attributed to and where that is written (the results view links to it). */
  component?: { kind: StreamComponentKind; label: string; type: string | null; range: LspRange };
  /** Why no stack is shown (none of its frames maps to the sources). */
  stack_note?: string | null;
};
type LspRange = { start: { line: number; character: number }; end: { line: number; character: number } };
/** The StreamRead as the results view gets it (the written-back config reduced to its keys by the extension). */
export type ShownStreamRead = Omit<StreamRead, 'logs'> & { logs: ShownLogMessage[] };
/** Extension → results webview messages, in the order of a run: start, progress…, then result or failed. */
export type ResultsViewMessage =
  | { type: 'start'; stream: string; limits: { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number }; replayedFrom?: string }
  | { type: 'progress'; event: TestReadProgress }
  | { type: 'result'; result: ShownStreamRead }
  | { type: 'failed'; error: ShownReadFailure }
  | { type: 'schemaDifferences'; result: SchemaDifferencesResult }
  | { type: 'checkStart' }
  | { type: 'check'; result: CheckConnectionResult };

/** Client → server request: the streams of a manifest with their ranges (for lenses and pickers). */
export const ListStreamsRequest = new RequestType<ListStreamsParams, ListStreamsResult, void>('airbyte/listStreams');
export type ListStreamsParams = { uri: string };
export type StreamInfo = {
  name: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
};
export type ListStreamsResult = { streams: StreamInfo[] };

/**
 * Client → server request: the streams a test read can target with these testing values — the static
 * ones, then those `dynamic_streams` resolve to (an HttpComponentsResolver reads the API, so the config
 * travels with the request, as for a test read, and is never kept).
 */
export const ResolveStreamsRequest = new RequestType<ResolveStreamsParams, ResolveStreamsResult, void>('airbyte/resolveStreams');
export type ResolveStreamsParams = {
  uri: string;
  /** Sealed by the extension, like a test read's. */
  config: ConfigPayload;
  http?: { timeoutMs?: number; maxResponseBytes?: number };
};
export type ResolvedStreamInfo = { name: string; dynamic: boolean; definition?: string; resolver?: string };
export type ResolveStreamsResult = { streams: ResolvedStreamInfo[] };

/** Client → server request: the manifest's spec (connection_specification and advanced_auth). */
export const GetSpecRequest = new RequestType<GetSpecParams, GetSpecResult, void>('airbyte/getSpec');
export type GetSpecParams = { uri: string };
export type GetSpecResult = {
  connectionSpecification: Record<string, unknown> | null;
  advancedAuth: Record<string, unknown> | null;
  /** Config paths the manifest's authenticators and requesters use as credentials (masked like airbyte_secret values). */
  credentialPaths?: string[][];
};

/** Client → server request: the consent URL of the manifest's declarative OAuth flow (spec.advanced_auth). */
export const OAuthConsentRequest = new RequestType<OAuthConsentParams, OAuthConsentResult, void>('airbyte/oauthConsent');
export type OAuthConsentParams = { uri: string; config: ConfigPayload; redirectUri: string };
/** `state` is the value the redirect must carry back; the client checks it before exchanging the code. */
export type OAuthConsentResult = { consentUrl: string; state: string };

/** Client → server request: exchange the authorization code; the result is merged into the testing values. */
export const OAuthExchangeRequest = new RequestType<OAuthExchangeParams, OAuthExchangeResult, void>('airbyte/oauthExchange');
export type OAuthExchangeParams = { uri: string; config: ConfigPayload; code: string; state: string; redirectUri: string };
/** Sealed when the request's config was sealed. */
export type OAuthExchangeResult = { configUpdate: ConfigPayload };

/** Client → server request: the edit that writes an inferred schema into a stream's schema in the manifest. */
export const InferredSchemaEditRequest = new RequestType<InferredSchemaEditParams, InferredSchemaEditResult, void>(
  'airbyte/inferredSchemaEdit',
);
export type InferredSchemaEditParams = { uri: string; streamName: string; schema: Record<string, unknown> };
export type InferredSchemaEditResult = {
  edit: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string };
};

/** Client → server request: the manifest as the CDK sees it (references resolved, `$parameters` propagated, default types inserted), as YAML. */
export const ResolvedManifestRequest = new RequestType<ResolvedManifestParams, ResolvedManifestResult, void>('airbyte/resolvedManifest');
export type ResolvedManifestParams = { uri: string };
/** `problems` counts the resolution problems (broken references, cycles) left in the text as written. */
export type ResolvedManifestResult = { text: string; problems: number };

/** The components of a stream an error of a test read can be attributed to (the Builder links errors to them). */
export type StreamComponentKind =
  | 'authenticator'
  | 'paginator'
  | 'requester'
  | 'record_selector'
  | 'partition_router'
  | 'incremental_sync'
  | 'schema_loader';

/** Client → server request: where a stream's component is written (references followed), to reveal it after a failed read. */
export const ComponentLocationRequest = new RequestType<ComponentLocationParams, ComponentLocationResult, void>(
  'airbyte/componentLocation',
);
export type ComponentLocationParams = { uri: string; streamName: string; component: StreamComponentKind };
/** `range` covers the component's key and value as written; `type` is its component type; null when the stream has no such component. */
export type ComponentLocationResult = {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  type: string | null;
} | null;

/** Client → server request: how the stream's declared schema differs from the schema inferred from the records read. */
export const SchemaDifferencesRequest = new RequestType<SchemaDifferencesParams, SchemaDifferencesResult, void>(
  'airbyte/schemaDifferences',
);
export type SchemaDifferencesParams = { uri: string; streamName: string; inferred: Record<string, unknown> };
/** One difference; `path` is dotted (`a.b`, `items[].c`). */
export type SchemaDifference = { path: string; kind: 'missing' | 'type'; declared: string | null; inferred: string; message: string };
/** `declared`: where the stream's schema comes from; differences are only computed for an inline schema or none at all. */
export type SchemaDifferencesResult = { declared: 'inline' | 'none' | 'other' | 'unknown-stream'; differences: SchemaDifference[] };

// Cassettes in the editor (docs/cassettes.md, "In the editor"): the server keeps the masked cassette of
// the last recorded read of each stream and the records of its last two reads, for "Save Read as
// Cassette" and "Compare with Previous Read"; a test read can replay a cassette offline.

/** `replay` of a test read: the cassette file, and how errors name it (a path relative to the manifest). */
export type CassetteReplayOption = {
  cassetteUri: string;
  name?: string;
  /** The user confirmed replaying a cassette that is a link leading outside the manifest's folder (docs/security.md, "Files"). */
  allowLinkOutside?: boolean;
};

/** Client → server request: the cassette of the last recorded read of a stream, as the CLI writes it. */
export const ReadCassetteRequest = new RequestType<ReadCassetteParams, ReadCassetteResult, void>('airbyte/readCassette');
export type ReadCassetteParams = { uri: string; streamName: string };
/**
 * `text`: the cassette file (YAML, secrets masked); `expectation`: the `<stream>.expected.json` of the
 * same read, as `connector-manifest test --update` writes it. Null when the stream has no recorded read.
 */
export type ReadCassetteResult = { text: string; expectation: string; exchanges: number; recordedAt: string; fileName: string } | null;

/** Client → server request: what a cassette file holds (checked), before replaying it. */
export const CassetteSummaryRequest = new RequestType<CassetteSummaryParams, CassetteSummaryResult, void>('airbyte/cassetteSummary');
export type CassetteSummaryParams = { cassetteUri: string };
export type CassetteSummaryResult =
  | {
      stream: string;
      recordedAt: string;
      exchanges: number;
      limits: { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
    }
  | { error: string };

/** Client → server request: the regression diff of the last read of a stream against the read before it or a saved expectation. */
export const CompareReadsRequest = new RequestType<CompareReadsParams, CompareReadsResult, void>('airbyte/compareReads');
export type CompareReadsParams = { uri: string; streamName: string; against: 'previous' | { expectationUri: string } };
/** One side of a comparison: what it is ("read at 10:02:03", "replay of cassettes/x.cassette.yaml", a file) and how many records. */
export type ComparedRead = { label: string; at: string | null; records: number };
export type CompareReadsResult =
  | { stream: string; before: ComparedRead; after: ComparedRead; primaryKey: string[][]; diff: RegressionDiff; text: string }
  | { unavailable: string };

/**
 * Client → server request: keep a StreamRead (the runtime's masked output, e.g. loaded from a saved
 * read) as the captured read of a stream, as if it had just been read; completion, hover and the
 * paginator lens then answer from it. Every `airbyte/testRead` (a cassette replay included) is
 * captured without this. `config` (sealed like a test read's) is optional: only a copy with its
 * secrets masked is kept, and without it templates are evaluated with an empty config.
 */
export const CaptureReadRequest = new RequestType<CaptureReadParams, CaptureReadResult, void>('airbyte/captureRead');
export type CaptureReadParams = { uri: string; streamName: string; read: StreamRead; config?: ConfigPayload };
/** How many pages were kept (the store's bounds: docs/editor.md "From the last read"). */
export type CaptureReadResult = { pages: number; droppedPages: number };

/** Client → server request: forget the captured reads of a manifest (one stream, or all). */
export const ClearCapturedReadsRequest = new RequestType<ClearCapturedReadsParams, null, void>('airbyte/clearCapturedReads');
export type ClearCapturedReadsParams = { uri: string; streamName?: string };

/** Client → server request: the skeleton of a new manifest, as a VS Code snippet ("New Connector Manifest"). */
export const ManifestSkeletonRequest = new RequestType<ManifestSkeletonParams, ManifestSkeletonResult, void>('airbyte/manifestSkeleton');
export type ManifestSkeletonParams = Record<string, never>;
export type ManifestSkeletonResult = { snippet: string };

/**
 * Client → server request: may the stream be read (run, replayed, compared)? Refused when the YAML does
 * not parse or the stream cannot be built; `range` is where to fix it (features/readReadiness.ts).
 */
export const ReadReadinessRequest = new RequestType<ReadReadinessParams, ReadReadinessResult, void>('airbyte/readReadiness');
export type ReadReadinessParams = { uri: string; streamName?: string };
export type ReadReadinessResult = { ready: true } | { ready: false; message: string; range: LspRange };

/**
 * Client → server request: runs the manifest's `check` (CheckStream / CheckDynamicStream) with these
 * testing values, as the reference's `check` command does; the config is used for this request only.
 */
export const CheckConnectionRequest = new RequestType<CheckConnectionParams, CheckConnectionResult, void>('airbyte/checkConnection');
export type CheckConnectionParams = ResolveStreamsParams;
/** `status` null: the check ended in an error instead of a status (no `check`, unknown stream…); `message` says why. */
export type CheckConnectionResult = { status: 'SUCCEEDED' | 'FAILED' | null; message: string | null; logs: LogMessage[] };

/** The two read engines (docs/engines.md): the built-in runtime, or the author's Python with airbyte-cdk. */
export type ReadEngineName = 'builtin' | 'cdk';

/** Client → server notification: the interpreter the CDK engine uses, and where the client found it. */
export const CdkPythonNotification = new NotificationType<CdkPythonParams>('airbyte/cdkPython');
export type CdkPythonParams = { python: string | null; source: 'setting' | 'python-extension' | 'path' };

/** Client → server request: what the CDK engine's interpreter has (probed again with `fresh`, e.g. after an install). */
export const CdkEngineStatusRequest = new RequestType<CdkEngineStatusParams, CdkEngineStatusResult, void>('airbyte/cdkEngineStatus');
export type CdkEngineStatusParams = { uri?: string; fresh?: boolean };
export type CdkEngineStatusResult = {
  ok: boolean;
  python: string;
  source: CdkPythonParams['source'];
  /** What is wrong and what to run (empty when ok). */
  message: string;
  /** The exact pip command for that interpreter, when pip can fix it. */
  installCommand: string | null;
  pythonVersion?: string;
  cdkVersion?: string;
};

/** Error data of an `airbyte/testRead` that failed on the CDK engine: what to install, and the traceback's places. */
export type CdkFailureData = {
  failureType: string;
  cdk: { kind: string; installCommand: string | null; stacktrace: string | null; links: { path: string; line: number }[] };
};

/** Client → server request: read a stream on both engines (live, or both from a cassette) and compare the reads. */
export const CompareEnginesRequest = new RequestType<CompareEnginesParams, CompareEnginesResult, void>('airbyte/compareEngines');
export type CompareEnginesParams = {
  uri: string;
  streamName: string;
  config: ConfigPayload;
  runId: string;
  limits?: TestReadParams['limits'];
  http?: TestReadParams['http'];
  state?: object[];
  replay?: CassetteReplayOption;
  python?: string;
};
export type EngineReadCounts = { slices: number; pages: number; records: number; requests: number };
export type CompareEnginesResult =
  | {
      stream: string;
      identical: boolean;
      differences: { area: string; where: string; builtin: unknown; cdk: unknown }[];
      notes: string[];
      counts: { builtin: EngineReadCounts; cdk: EngineReadCounts };
      text: string;
      /** The cassette both engines read from, or null for a live read. */
      replayedFrom: string | null;
      cdk: { python: string; cdkVersion: string };
    }
  | { unavailable: string; installCommand?: string | null };

/**
 * A failed read as the results view shows it: `files` are the places a Python traceback names in the
 * connector's own files (components.py), shown as links; `installCommand` the pip command that fixes
 * a missing or old airbyte-cdk (CDK engine, docs/engines.md).
 */
export type ShownReadFailure = {
  message: string;
  line?: number;
  stacktrace?: string | null;
  files?: { path: string; line: number }[];
  installCommand?: string | null;
};

// The incremental lab and "Run all streams" (docs/incremental.md).
export * from './incrementalProtocol';

/** An operation of an OpenAPI document as the "New Connector from OpenAPI…" picker lists it. */
export type OpenApiOperationChoice = { key: string; method: string; path: string; summary?: string; tags: string[]; returnsList: boolean };
/** Why a document could not be scaffolded: `where` is `file:line:column` (or the file). */
export type ScaffoldFailure = { ok: false; where: string; message: string };

/**
 * Client → server request: the operations of an OpenAPI / Swagger document (its text and file name,
 * for relative `$ref`s and messages), for the picker of "New Connector from OpenAPI…" (docs/scaffold.md).
 */
export const OpenApiOperationsRequest = new RequestType<OpenApiOperationsParams, OpenApiOperationsResult, void>(
  'airbyte/openApiOperations',
);
export type OpenApiOperationsParams = { text: string; fileName: string };
export type OpenApiOperationsResult = { ok: true; title: string; operations: OpenApiOperationChoice[] } | ScaffoldFailure;

/** Client → server request: the manifest scaffolded from the document and the picked operations (`GET /path`). */
export const ScaffoldOpenApiRequest = new RequestType<ScaffoldOpenApiParams, ScaffoldOpenApiResult, void>('airbyte/scaffoldOpenApi');
export type ScaffoldOpenApiParams = { text: string; fileName: string; operations: string[] };
export type ScaffoldOpenApiResult = { ok: true; manifest: string; streams: string[]; inputs: string[] } | ScaffoldFailure;
// "New stream from cURL / HAR" and "Copy request as cURL" (docs/scaffold.md).
export * from './scaffoldProtocol';

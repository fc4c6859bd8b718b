// Custom messages of the incremental lab and of "Run all streams" (docs/incremental.md), declared once and
// re-exported by protocol.ts, which is what the client imports. Type-only imports of the runtime: no
// runtime code reaches the client.
import type { IncrementalStream } from './runtime';
import type { IncrementalCheckReport } from './runtime';
import type { AllStreamsEvent, AllStreamsResult } from './runtime';
import type { StreamRead } from './runtime';
import type { ConfigPayload } from './configPayload';
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

export type { IncrementalStream, IncrementalCheckReport, AllStreamsEvent, AllStreamsResult };

/**
 * Client → server request: what a stream's incremental sync is (cursor kind, field, format, lookback, state
 * layout, parents), for the input-state form. The config renders templated cursor fields and resolves
 * dynamic streams; it is used for this request only.
 */
export const StreamCursorRequest = new RequestType<StreamCursorParams, StreamCursorResult, void>('airbyte/streamCursor');
export type StreamCursorParams = { uri: string; streamName: string; config: ConfigPayload };
/** `cursor` null with `error` when the stream cannot be described (unknown stream, broken cursor). */
export type StreamCursorResult = { cursor: IncrementalStream | null; primaryKey: string[][]; error: string | null };

/** Client → server request: the incremental check of one stream (three reads, each from the last's final state). */
export const IncrementalCheckRequest = new RequestType<IncrementalCheckParams, IncrementalCheckResult, void>('airbyte/incrementalCheck');
export type IncrementalCheckParams = {
  uri: string;
  streamName: string;
  config: ConfigPayload;
  limits?: { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
  /** The first read's input state (the stream's state object); none by default. */
  initialState?: Record<string, unknown> | null;
  http?: { timeoutMs?: number; maxResponseBytes?: number };
  runId: string;
};
/** The report and its text (the same text the CLI prints). */
export type IncrementalCheckResult = { report: IncrementalCheckReport; text: string };

/** Client → server request: every stream of a manifest read within the limits, a few at a time. */
export const RunAllStreamsRequest = new RequestType<RunAllStreamsParams, RunAllStreamsResult, void>('airbyte/runAllStreams');
export type RunAllStreamsParams = {
  uri: string;
  config: ConfigPayload;
  limits?: { maxRecords?: number; maxPagesPerSlice?: number; maxSlices?: number };
  concurrency?: number;
  http?: { timeoutMs?: number; maxResponseBytes?: number };
  runId: string;
};
/** The summary, and each stream's StreamRead (secrets masked) so a row can open that stream's results. */
export type RunAllStreamsResult = { result: AllStreamsResult; reads: Record<string, StreamRead> };

/** Server → client notification: a stream of a running "Run all streams" started or finished. */
export const RunAllStreamsProgressNotification = new NotificationType<RunAllStreamsProgressParams>('airbyte/runAllStreamsProgress');
export type RunAllStreamsProgressParams = { runId: string; event: AllStreamsEvent };

/** Client → server notification: the `airbyte.inlayHints.templateValues` setting (on by default). */
export const TemplateHintsSettingNotification = new NotificationType<TemplateHintsSettingParams>('airbyte/templateHintsSetting');
export type TemplateHintsSettingParams = { enabled: boolean };

/** Client → server notification: the page selected in a stream's results view (inlay hints evaluate on it). */
export const SelectPageNotification = new NotificationType<SelectPageParams>('airbyte/selectPage');
export type SelectPageParams = { uri: string; streamName: string; slice: number; page: number };

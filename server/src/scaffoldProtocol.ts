// Custom messages of "New stream from cURL / HAR" and "Copy request as cURL (with secrets)". Every
// payload that can hold a credential travels sealed, like testing values (protocol.ts).
import { RequestType } from 'vscode-languageserver-protocol';
import type { ConfigPayload } from './configPayload';

/** An edit of the target manifest (LSP range). */
export type ScaffoldTextEdit = {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
};

/**
 * Client → server request: streams from captured requests. `source` is sealed: `{ curl: string }` or
 * `{ har: string, picks: number[] }` (entry indexes of harEntries). With `targetUri` (an open manifest)
 * the answer is edits to it; without, the text of a new manifest.
 */
export const StreamsFromRequestsRequest = new RequestType<StreamsFromRequestsParams, StreamsFromRequestsResult, void>(
  'airbyte/streamsFromRequests',
);
export type StreamsFromRequestsParams = { source: ConfigPayload; targetUri?: string };
export type StreamsFromRequestsResult =
  | { text?: string; edits?: ScaffoldTextEdit[]; streams: string[]; warnings: string[]; errors: number }
  | { error: string };

/** Client → server request: the entries of a HAR file (sealed `{ har: string }`) for the picker. */
export const HarEntriesRequest = new RequestType<HarEntriesParams, HarEntriesResult, void>('airbyte/harEntries');
export type HarEntriesParams = { source: ConfigPayload };
export type HarEntriesResult =
  | { entries: { index: number; method: string; url: string; status: number; mimeType: string }[] }
  | { error: string };

/**
 * Client → server request: a test read's request (masked) with its masked headers and query parameters
 * re-rendered from the stream's requester with the testing values (`config`, sealed). The answer's
 * `request` is sealed too; `stillMasked` names what could not be re-rendered.
 */
export const UnmaskRequestRequest = new RequestType<UnmaskRequestParams, UnmaskRequestResult, void>('airbyte/unmaskRequest');
export type UnmaskRequestParams = {
  uri: string;
  streamName: string;
  request: { url: string; headers: Record<string, string> | null; http_method: string; body: string | null };
  config: ConfigPayload;
};
export type UnmaskRequestResult = { request: ConfigPayload; stillMasked: string[] };

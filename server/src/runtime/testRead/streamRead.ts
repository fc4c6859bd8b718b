// The StreamRead output shape of a test read (§10.3), exactly as the Connector Builder returns it.
import type { Redirect } from '../http/transport';
import type { PaginationTrace } from './paginationTrace';

export type { PaginationTrace } from './paginationTrace';

/** A request as shown in test-read output. */
export type ReadRequest = { url: string; headers: Record<string, string> | null; http_method: string; body: string | null };
/** A response as shown in test-read output. */
/** `redirects` (ours, not the reference's) lists the redirects followed to get this response, when there were any. */
export type ReadResponse = { status: number; body: string; headers: Record<string, string> | null; redirects?: Redirect[] };

/** `pagination_trace` (ours) is present only when the read was asked for it (`env.paginationTrace`). */
export type StreamReadPage = {
  records: Record<string, unknown>[];
  request: ReadRequest | null;
  response: ReadResponse | null;
  pagination_trace?: PaginationTrace;
};

export type AuxiliaryRequestEntry = {
  title: string;
  type: string;
  description: string;
  request: ReadRequest;
  response: ReadResponse | null;
};

export type StreamReadSlice = {
  pages: StreamReadPage[];
  /** The string "{}" for an unpartitioned stream (reference quirk, §10.4), else partition + cursor keys. */
  slice_descriptor: Record<string, unknown> | string | null;
  state: unknown[];
  auxiliary_requests: AuxiliaryRequestEntry[];
};

export type LogMessage = { message: string; level: string; internal_message: string | null; stacktrace: string | null };

export type StreamRead = {
  logs: LogMessage[];
  slices: StreamReadSlice[];
  test_read_limit_reached: boolean;
  auxiliary_requests: AuxiliaryRequestEntry[];
  inferred_schema: Record<string, unknown> | null;
  inferred_datetime_formats: Record<string, string>;
  latest_config_update: Record<string, unknown> | null;
};

// The progress events of a test read are declared with the environment that receives them (types.ts).
export type { TestReadProgress } from '../types';

// The pagination trace of a test read (docs/runtime.md, "Pagination trace"): for each page, the token it
// was requested with, the token the paginator gave for the next page, and why the next page was or was
// not requested. The page loops fill a PageTrace while they run; testRead turns it into the page's
// `pagination_trace` (masked) when `env.paginationTrace` asks for it.
import type { SecretMasker } from './masking';

/** The `pagination_trace` of a StreamReadPage. `stop_reason` is null exactly when the next page was requested. */
export type PaginationTrace = {
  token_in: unknown | null;
  token_out: unknown | null;
  record_count: number;
  next_requested: boolean;
  stop_reason: string | null;
};

/**
 * What a page loop knows about one page while it runs. `settled` stays false while the loop is
 * suspended after yielding the page: the test read may then end the slice itself (record limit,
 * cancellation, an error), and says why in `closeTrace`.
 */
export type PageTrace = {
  tokenIn: unknown | null;
  tokenOut: unknown | null;
  nextRequested: boolean;
  stopReason: string | null;
  settled: boolean;
};

/** A trace for a page requested with `token` (the loop's `{ next_page_token }` or null). */
export function openTrace(token: { next_page_token: unknown } | null): PageTrace {
  return { tokenIn: token ? token.next_page_token : null, tokenOut: null, nextRequested: false, stopReason: null, settled: false };
}

/** The paginator gave `token`: the next page is requested with it. */
export function traceNext(trace: PageTrace, token: { next_page_token: unknown }): void {
  Object.assign(trace, { tokenOut: token.next_page_token, nextRequested: true, stopReason: null, settled: true });
}

/** No next page, for `reason`. */
export function traceStop(trace: PageTrace, reason: string): void {
  Object.assign(trace, { tokenOut: null, nextRequested: false, stopReason: reason, settled: true });
}

/**
 * Ends the trace of the last page of a slice when the test read stopped the slice (`reason`): a page
 * whose trace is still open, or one that promised a next page that was never sent (the loop failed or
 * was cancelled before the request).
 */
export function closeTrace(trace: PageTrace, reason: string): void {
  if (!trace.settled || trace.nextRequested) traceStop(trace, reason);
}

/** The masked `pagination_trace` of a page that shows `recordCount` records. */
export function showTrace(trace: PageTrace, recordCount: number, masker: SecretMasker): PaginationTrace {
  return masker.maskValue({
    token_in: trace.tokenIn ?? null,
    token_out: trace.tokenOut ?? null,
    record_count: recordCount,
    next_requested: trace.nextRequested,
    stop_reason: trace.nextRequested ? null : (trace.stopReason ?? 'the read ended here'),
  });
}

// What every pagination strategy is and gets (the registry paginationStrategy.ts builds one per
// component type; each strategy has a file of its own and imports only this module of its siblings).
import type { HttpResponse } from '../types';

/** The strategy interface of docs/runtime.md. Tokens are raw values; null means stop. */
export type PaginationStrategy = {
  initialToken(): unknown | null;
  /** `lastRecords` (the page's records after filtering) is an extension for `last_records` in cursor templates. */
  nextPageToken(
    response: HttpResponse,
    lastPageSize: number,
    lastRecord: object | null,
    lastPageTokenValue: unknown | null,
    lastRecords?: object[],
  ): unknown | null;
  pageSize(): number | null;
  /**
   * Why the last nextPageToken call stopped pagination (it returned null or threw), worded from the
   * strategy's own fields for the pagination trace; null after a call that returned a token.
   */
  stopReason(): string | null;
  /** How a falsy token the strategy returned is introduced in the trace ("the next page number is"). */
  readonly tokenName: string;
};

/** `n records`, with the right plural. */
export function recordsText(n: number): string {
  return `${n} record${n === 1 ? '' : 's'}`;
}

/**
 * The stop reason of OffsetIncrement and PageIncrement (§7.3, §7.4): an empty page, or fewer raw records
 * than page_size (quoting page_size when it is a template). `filtered` is the page's count after
 * record_filter, mentioned when the raw count differs from it.
 */
export function shortPageReason(count: number, size: number | null, rawSize: unknown, filtered: number): string | null {
  const raw = count === filtered ? '' : ' (counted before record_filter)';
  if (count === 0) return `empty page: 0 records${raw}`;
  if (size !== null && count < size) {
    const template = typeof rawSize === 'string' && rawSize.includes('{') ? ` (page_size "${rawSize}")` : '';
    return `${recordsText(count)}${raw} < page_size ${size}${template}`;
  }
  return null;
}

/** What every strategy gets at build time. */
export type StrategyContext = {
  config: object;
  parameters: object;
  /** Raw extracted record count of a page, or null when no extractor is configured. */
  countRawRecords(response: HttpResponse): number | null;
  /** Spec §7.5: the `response` templates see, the first element the retriever's decoder yields (`{}` if none). */
  decodedResponse(response: HttpResponse): unknown;
};

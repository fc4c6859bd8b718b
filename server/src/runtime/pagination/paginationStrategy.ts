// createPaginationStrategy (runtime-api.md): builds one pagination strategy component (§7.3-§7.6).
import type { HttpResponse, PaginatorOptions, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { createDecoder, firstDecoded, type Decoder } from '../records/decoders';
import { createDpathExtractor } from '../records/dpathExtractor';
import { createOffsetIncrement } from './offsetIncrement';
import { createPageIncrement } from './pageIncrement';
import { createCursorPagination } from './cursorPagination';

/** The strategy interface of runtime-api.md. Tokens are raw values; null means stop. */
export type PaginationStrategy = {
  initialToken(): unknown | null;
  /** `lastRecords` (the page's records after filtering) is an extension for `last_records` in cursor templates. */
  nextPageToken(response: HttpResponse, lastPageSize: number, lastRecord: object | null, lastPageTokenValue: unknown | null, lastRecords?: object[]): unknown | null;
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

/** Builds a strategy; CustomPaginationStrategy and unknown types are config errors at build time. */
export function createPaginationStrategy(component: object, config: object, options: PaginatorOptions = {}, env?: RuntimeEnv): PaginationStrategy {
  const c = component as Record<string, unknown>;
  if (!c || typeof c !== 'object') throw configError('pagination_strategy must be an object with a type.');
  const parameters = (c.$parameters as object) ?? options.parameters ?? {};
  const decoder = createDecoder(options.decoder as Record<string, unknown> | undefined);
  const sc: StrategyContext = { config, parameters, countRawRecords: rawCounter(decoder, options, config, parameters, env), decodedResponse: (r) => firstDecoded(decoder, r) };
  switch (c.type) {
    case 'OffsetIncrement': return createOffsetIncrement(c, sc, env);
    case 'PageIncrement': return createPageIncrement(c, sc, env);
    case 'CursorPagination': return createCursorPagination(c, sc, env);
    case 'CustomPaginationStrategy':
      throw configError(`CustomPaginationStrategy (${String(c.class_name ?? 'custom class')}) runs Python code and is not runnable outside the Python CDK; replace it with PageIncrement, OffsetIncrement or CursorPagination to test this stream here.`);
    default:
      throw configError(`Unknown pagination strategy type ${JSON.stringify(c.type)}; expected PageIncrement, OffsetIncrement or CursorPagination.`);
  }
}

function rawCounter(decoder: Decoder, options: PaginatorOptions, config: object, parameters: object, env?: RuntimeEnv): (r: HttpResponse) => number | null {
  if (!options.recordExtractor) return () => null;
  const extractor = createDpathExtractor(options.recordExtractor as Record<string, unknown>, config, parameters, env);
  return (response) => {
    let n = 0;
    for (const element of decoder.decode(response)) n += extractor.extract(element).length;
    return n;
  };
}

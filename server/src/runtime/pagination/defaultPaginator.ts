// DefaultPaginator (§7.1) and NoPagination (§7.2): wrap a strategy's raw tokens as
// `{ next_page_token: t }`, inject token and page size into requests, and apply the test-read page cap (§7.10).
import type { HttpResponse, PaginatorOptions, RequestParts, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { createRequestOption, type RequestOption } from '../http/requestOption';
import { emptyParts } from '../http/requestOptions';
import { pythonStr, truthy } from '../http/interpolatedValues';
import { checkPaginationDecoder } from '../records/decoders';
import { createPaginationStrategy } from './paginationStrategy';

/** The paginator interface of docs/runtime.md. */
export type Paginator = {
  initialToken(): unknown | null;
  /** `{ next_page_token: t }` for a truthy token, null to stop. */
  nextPageToken(
    response: HttpResponse,
    lastPageSize: number,
    lastRecord: object | null,
    lastPageTokenValue: unknown | null,
    lastRecords?: object[],
  ): unknown | null;
  /** What the paginator adds to a request; accepts the wrapped token or a raw one. */
  requestOptions(token: unknown | null): RequestParts;
  /** Why the last nextPageToken call stopped (returned null or threw), for the pagination trace; null after a token. */
  stopReason(): string | null;
};

/** Builds DefaultPaginator or NoPagination (absent component → NoPagination). */
export function createPaginator(
  component: object | null | undefined,
  config: object,
  options: PaginatorOptions = {},
  env?: RuntimeEnv,
): Paginator {
  const c = (component ?? { type: 'NoPagination' }) as Record<string, unknown>;
  if (c.type === 'NoPagination') return noPagination();
  if (c.type !== 'DefaultPaginator') {
    if (c.type === 'CustomPaginator') throw configError('Custom paginators run Python code and are not runnable outside the Python CDK.');
    throw configError(`Unknown paginator type ${JSON.stringify(c.type)}; expected DefaultPaginator or NoPagination.`);
  }
  if (!c.pagination_strategy) throw configError('DefaultPaginator requires pagination_strategy.');
  checkPaginationDecoder((c.decoder ?? options.decoder) as Record<string, unknown> | undefined);
  const parameters = (c.$parameters as object) ?? options.parameters ?? {};
  const strategyComponent = c.pagination_strategy as Record<string, unknown>;
  const strategy = createPaginationStrategy(
    strategyComponent,
    config,
    {
      ...options,
      decoder: (c.decoder ?? options.decoder) as object | undefined,
      parameters: (strategyComponent.$parameters as object) ?? parameters,
    },
    env,
  );

  // Spec §3.6: paginator request options see an empty `parameters`.
  const sizeOption = c.page_size_option ? createRequestOption(c.page_size_option as object, config, {}, options.requestOptionCompat) : null;
  const tokenComponent = c.page_token_option as Record<string, unknown> | undefined;
  const tokenIsPath = tokenComponent?.type === 'RequestPath';
  const tokenOption: RequestOption | null =
    tokenComponent && !tokenIsPath ? createRequestOption(tokenComponent, config, {}, options.requestOptionCompat) : null;

  if (sizeOption && (strategyComponent.page_size === undefined || strategyComponent.page_size === null)) {
    throw configError(
      'page_size_option cannot be set if the pagination strategy does not have a page_size. (DefaultPaginator.page_size_option needs a pagination strategy with a page_size; add page_size or remove page_size_option.)',
    );
  }
  if (
    sizeOption &&
    tokenOption &&
    sizeOption.inject_into === tokenOption.inject_into &&
    sizeOption.keyPath().join('.') === tokenOption.keyPath().join('.')
  ) {
    throw configError(
      `Request body collision, duplicate keys detected at key path: ${sizeOption.keyPath().join('.')}. Please ensure that all keys in the request are unique. (DefaultPaginator: page_size_option and page_token_option both write "${sizeOption.keyPath().join('.')}" in ${sizeOption.inject_into}.)`,
    );
  }

  const maxPages = options.testReadMaxPages;
  if (maxPages !== undefined && maxPages < 1) throw configError(`The test-read page limit must be at least 1, got ${maxPages}.`);
  let pagesRead = 1;
  let stop: string | null = null;

  return {
    initialToken() {
      pagesRead = 1;
      return strategy.initialToken();
    },
    nextPageToken(response, lastPageSize, lastRecord, lastPageTokenValue, lastRecords) {
      // Spec §7.10: at most max_pages_per_slice requests per slice in a test read.
      if (maxPages !== undefined) {
        if (pagesRead >= maxPages) {
          stop = `page limit of the test read (${maxPages}) reached`;
          return null;
        }
        pagesRead++;
      }
      let token: unknown;
      try {
        token = strategy.nextPageToken(response, lastPageSize, lastRecord, lastPageTokenValue, lastRecords);
      } catch (e) {
        stop = strategy.stopReason();
        throw e;
      }
      // Spec §7.1: a falsy token (0, "", false, [], {}) stops pagination (reference quirk).
      if (truthy(token)) {
        stop = null;
        return { next_page_token: token };
      }
      stop = strategy.stopReason() ?? `${strategy.tokenName} ${shortJson(token)}, a falsy token (the CDK stops on 0, "", false, [] and {})`;
      return null;
    },
    stopReason: () => stop,
    requestOptions(token) {
      const parts = emptyParts() as RequestParts;
      const raw = unwrap(token);
      if (raw !== null && raw !== undefined) {
        if (tokenOption) tokenOption.inject(parts, raw);
        else if (tokenIsPath && truthy(raw)) parts.path = pythonStr(raw);
      }
      const size = sizeOption ? strategy.pageSize() : null;
      if (sizeOption && truthy(size)) sizeOption.inject(parts, size);
      return parts;
    },
  };
}

function unwrap(token: unknown): unknown {
  if (token !== null && typeof token === 'object' && !Array.isArray(token)) {
    const keys = Object.keys(token);
    if (keys.length === 1 && keys[0] === 'next_page_token') return (token as { next_page_token: unknown }).next_page_token;
  }
  return token;
}

function noPagination(): Paginator {
  return {
    initialToken: () => null,
    nextPageToken: () => null,
    requestOptions: () => emptyParts() as RequestParts,
    stopReason: () => 'no pagination (NoPagination): one request per slice',
  };
}

/** A token as the trace quotes it: JSON, cut short. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

// One page of a page loop: send the request, select the records, and turn a failed request or an
// undecodable body into a page that carries its error, so the test read still shows it. Shared by
// the SimpleRetriever page loop (retriever.ts) and the AsyncRetriever downloads (asyncRetriever.ts).
import type { HttpRequest, HttpResponse } from '../types';
import { RuntimeError } from '../errors';
import { RequestFailedError, type Exchange, type HttpRequester, type RequestInput } from '../http/requester';
import { describeRedirect, redirectsOf, safeUrl } from '../http/transport';
import type { RecordSelector } from '../records/recordSelector';
import { RecordSelectionError } from '../records/recordAsDict';
import type { ReadContext } from './readContext';
import { headerValue } from '../http/headers';
import type { PageTrace } from './paginationTrace';

/**
 * One page as read: the exchange (response null on a network failure), its records, and an error if it
 * failed. `trace` is filled by the page loop as it decides about the next page (paginationTrace.ts).
 */
export type PageResult = {
  request: HttpRequest;
  response: HttpResponse | null;
  records: Record<string, unknown>[];
  error: RuntimeError | null;
  trace?: PageTrace;
};

/**
 * `page` is what the test read shows; `exchange` is null when the page failed (`page.error` set:
 * the loop ends there). `ignored` marks an error status the error handler chose to IGNORE: no
 * records, and the slice ends after it.
 */
export type PageOutcome = { page: PageResult; exchange: Exchange | null; ignored: boolean };

/** A token as the page loop carries it: `{ next_page_token }`, or null for none. */
export function wrapToken(t: unknown): { next_page_token: unknown } | null {
  return t === null || t === undefined ? null : { next_page_token: t };
}

/** Sends one page request of stream `stream` and selects its records. Throws only what is not a request or decoding failure. */
export async function requestPage(
  requester: HttpRequester,
  selector: RecordSelector,
  input: RequestInput,
  stream: string,
  rc: ReadContext,
): Promise<PageOutcome> {
  let exchange: Exchange;
  try {
    exchange = await requester.send(input);
  } catch (e) {
    if (!(e instanceof RequestFailedError)) throw e;
    logRedirects(e.exchange.response, rc);
    return { page: { request: e.exchange.request, response: e.exchange.response, records: [], error: e }, exchange: null, ignored: false };
  }
  const { request, response, resolution } = exchange;
  logRedirects(response, rc);
  if (resolution.action === 'IGNORE' && response.status >= 400) {
    return { page: { request, response, records: [], error: null }, exchange, ignored: true };
  }
  let records: Record<string, unknown>[];
  try {
    records = selector.select(response, input.slice, input.nextPageToken);
  } catch (e) {
    // A body that cannot be decoded at all (broken zip, gzip bomb) or a failing filter ends the
    // read with the page still shown.
    if (!(e instanceof RuntimeError)) throw e;
    // Records selected before a record the reference refuses were already emitted there.
    const before = e instanceof RecordSelectionError ? e.records : [];
    return { page: { request, response, records: before, error: e }, exchange: null, ignored: false };
  }
  reportUndecodable(request, response, stream, selector, rc);
  return { page: { request, response, records, error: null }, exchange, ignored: false };
}

/** Redirects are shown in the read's log: where the request went, and which headers stayed behind. */
function logRedirects(response: HttpResponse | null, rc: ReadContext): void {
  for (const r of redirectsOf(response) ?? []) rc.log('INFO', describeRedirect(r));
}

/** Spec §8.1 turns an invalid JSON body into `{}` silently (XML likewise); a test read says so plainly. */
function reportUndecodable(request: HttpRequest, response: HttpResponse, stream: string, selector: RecordSelector, rc: ReadContext): void {
  const decoder = selector.decoder;
  const problem = decoder.problem(response);
  if (problem === null) return;
  const type = headerValue(response.headers, 'content-type') ?? 'no content type';
  const start = response.body.trim().slice(0, 60).replace(/\s+/g, ' ');
  rc.log(
    'ERROR',
    `Stream '${stream}': the response of ${request.method} ${safeUrl(request.url)} ${problem} (${type}; starts with "${start}"). The ${decoder.name} yields no records from it; check the URL or the decoder.`,
    undefined,
    undefined,
    true,
  );
}

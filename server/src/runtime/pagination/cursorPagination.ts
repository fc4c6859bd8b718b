// CursorPagination (§7.5): the next token is a template over the response, its headers (with the
// parsed Link header) and the page's last record; an optional stop condition is checked first.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalBoolean, evalString } from '../http/interpolatedValues';
import { headerValue } from '../http/headers';
import { parseLinkHeader } from './linkHeader';
import { evalPageSize } from './pageSize';
import type { PaginationStrategy, StrategyContext } from './paginationStrategy';

/** Builds CursorPagination; page_size is evaluated now. Throws a config error without cursor_value. */
export function createCursorPagination(component: Record<string, unknown>, sc: StrategyContext, env?: RuntimeEnv): PaginationStrategy {
  if (typeof component.cursor_value !== 'string' || component.cursor_value === '') {
    throw configError('CursorPagination requires cursor_value (a template producing the next page token).');
  }
  const size = evalPageSize(component.page_size, { config: sc.config, parameters: sc.parameters }, 'CursorPagination', env);
  return {
    initialToken: () => null,
    pageSize: () => size,
    nextPageToken(response: HttpResponse, lastPageSize: number, lastRecord, _previous, lastRecords) {
      // Spec §7.5: a case-sensitive copy of the headers as sent, plus `link` = the parsed Link header
      // ({} when absent; found whatever its case, so `headers['Link']` stays the raw text).
      const headers: Record<string, unknown> = { ...response.headers };
      headers.link = parseLinkHeader(headerValue(response.headers, 'link'));
      const ctx: Record<string, unknown> = { config: sc.config, parameters: sc.parameters, response: sc.decodedResponse(response), headers, last_record: lastRecord, last_page_size: lastPageSize };
      // The Connector Builder documents `last_records` (the page's records); the current CDK has no
      // such variable. It is offered only when the caller passes the records (the test read does).
      if (lastRecords) ctx.last_records = lastRecords;
      if (component.stop_condition !== undefined && component.stop_condition !== null && component.stop_condition !== '') {
        if (evalBoolean(component.stop_condition, ctx, env)) return null;
      }
      const token = evalString(component.cursor_value, ctx, env);
      return token === '' ? null : token;
    },
  };
}

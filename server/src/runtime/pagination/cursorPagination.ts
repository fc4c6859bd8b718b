// CursorPagination (§7.5): the next token is a template over the response, its headers (with the
// parsed Link header) and the page's last record; an optional stop condition is checked first.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalBoolean, evalString } from '../http/interpolatedValues';
import { headerValue } from '../http/headers';
import { parseLinkHeader } from './linkHeader';
import { evalPageSize } from './pageSize';
import type { PaginationStrategy, StrategyContext } from './strategy';

/** Builds CursorPagination; page_size is evaluated now. Throws a config error without cursor_value. */
export function createCursorPagination(component: Record<string, unknown>, sc: StrategyContext, env?: RuntimeEnv): PaginationStrategy {
  if (typeof component.cursor_value !== 'string' || component.cursor_value === '') {
    throw configError('CursorPagination requires cursor_value (a template producing the next page token).');
  }
  const size = evalPageSize(component.page_size, { config: sc.config, parameters: sc.parameters }, 'CursorPagination', env);
  const stopCondition =
    component.stop_condition !== undefined && component.stop_condition !== null && component.stop_condition !== ''
      ? component.stop_condition
      : null;
  const cursorValue = component.cursor_value;
  let stop: string | null = null;
  return {
    initialToken: () => null,
    pageSize: () => size,
    stopReason: () => stop,
    tokenName: `cursor_value "${cursorValue}" evaluated to`,
    nextPageToken(response: HttpResponse, lastPageSize: number, lastRecord, _previous, lastRecords) {
      stop = null;
      // Spec §7.5: a case-sensitive copy of the headers as sent, plus `link` = the parsed Link header
      // ({} when absent; found whatever its case, so `headers['Link']` stays the raw text).
      const headers: Record<string, unknown> = { ...response.headers };
      const link = parseLinkHeader(headerValue(response.headers, 'link'));
      headers.link = link;
      const ctx: Record<string, unknown> = {
        config: sc.config,
        parameters: sc.parameters,
        response: sc.decodedResponse(response),
        headers,
        last_record: lastRecord,
        last_page_size: lastPageSize,
      };
      // The Connector Builder documents `last_records` (the page's records); the current CDK has no
      // such variable. It is offered only when the caller passes the records (the test read does).
      if (lastRecords) ctx.last_records = lastRecords;
      // The trace names a missing rel="next" link when the templates read the Link header.
      const noNextLink = (template: unknown) =>
        typeof template === 'string' && /\blink\b/i.test(template) && !link.next ? 'no next link: ' : '';
      if (stopCondition !== null) {
        let done: boolean;
        try {
          done = evalBoolean(stopCondition, ctx, env);
        } catch (e) {
          stop = `${noNextLink(stopCondition)}stop_condition "${String(stopCondition)}" failed: ${(e as Error).message}`;
          throw e;
        }
        if (done) {
          stop = `${noNextLink(stopCondition)}stop_condition "${String(stopCondition)}" evaluated true`;
          return null;
        }
      }
      let token: unknown;
      try {
        token = evalString(cursorValue, ctx, env);
      } catch (e) {
        stop = `${noNextLink(cursorValue)}cursor_value "${cursorValue}" failed: ${(e as Error).message}`;
        throw e;
      }
      if (token === '' || token === null || token === undefined) {
        stop = `${noNextLink(cursorValue)}cursor_value "${cursorValue}" evaluated to empty`;
        return null;
      }
      return token;
    },
  };
}

// PageIncrement (§7.4): page numbers from start_from_page, stopping on a short or empty page.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalPageSize } from './pageSize';
import { shortPageReason, type PaginationStrategy, type StrategyContext } from './strategy';
import { pythonStr } from '../pythonText';

/** Builds PageIncrement; page_size is evaluated now and must yield an int. */
export function createPageIncrement(component: Record<string, unknown>, sc: StrategyContext, env?: RuntimeEnv): PaginationStrategy {
  // Spec §7.4: the page size template is evaluated once, at build time.
  const size = evalPageSize(component.page_size, { config: sc.config, parameters: sc.parameters }, 'PageIncrement', env);
  const start = component.start_from_page === undefined || component.start_from_page === null ? 0 : Number(component.start_from_page);
  if (!Number.isInteger(start))
    throw configError(`PageIncrement.start_from_page must be an integer, got ${JSON.stringify(component.start_from_page)}.`);
  const injectFirst = component.inject_on_first_request === true;
  let stop: string | null = null;
  return {
    initialToken: () => (injectFirst ? start : null),
    pageSize: () => size,
    stopReason: () => stop,
    tokenName: 'the next page number is',
    nextPageToken(response: HttpResponse, lastPageSize: number, _lastRecord, previous) {
      stop = null;
      const count = sc.countRawRecords(response) ?? lastPageSize;
      stop = shortPageReason(count, size, component.page_size, lastPageSize);
      if (stop !== null) return null;
      if (previous === null || previous === undefined) return start + 1;
      if (typeof previous !== 'number' || !Number.isInteger(previous)) {
        stop = `the previous page number ${JSON.stringify(previous)} is not an integer`;
        throw configError(
          `Last page token value ${pythonStr(previous)} for PageIncrement pagination strategy was not an integer. (PageIncrement: the previous page token ${JSON.stringify(previous)} is not an integer page number.)`,
        );
      }
      return previous + 1;
    },
  };
}

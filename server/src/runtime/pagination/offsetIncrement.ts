// OffsetIncrement (§7.3): the next offset is the previous one plus the raw records of the page.
import type { HttpResponse, RuntimeEnv } from '../types';
import { configError } from '../errors';
import { evalPageSize } from './pageSize';
import { shortPageReason, type PaginationStrategy, type StrategyContext } from './strategy';
import { pythonStr } from '../pythonText';

/** Builds OffsetIncrement; a page_size template is evaluated on each use and must yield an int. */
export function createOffsetIncrement(component: Record<string, unknown>, sc: StrategyContext, env?: RuntimeEnv): PaginationStrategy {
  const ctx = { config: sc.config, parameters: sc.parameters };
  const raw = component.page_size;
  const injectFirst = component.inject_on_first_request === true;
  let stop: string | null = null;
  return {
    initialToken: () => (injectFirst ? 0 : null),
    pageSize: () => evalPageSize(raw, ctx, 'OffsetIncrement', env),
    stopReason: () => stop,
    tokenName: 'the next offset is',
    nextPageToken(response: HttpResponse, lastPageSize: number, _lastRecord, previous) {
      stop = null;
      // Spec §7.3: records are re-counted with the extractor, before record_filter and transformations.
      const count = sc.countRawRecords(response) ?? lastPageSize;
      let size: number | null;
      try {
        size =
          raw === undefined || raw === null
            ? null
            : evalPageSize(raw, { ...ctx, response: sc.decodedResponse(response) }, 'OffsetIncrement', env);
      } catch (e) {
        stop = `OffsetIncrement.page_size ${JSON.stringify(raw)} failed: ${(e as Error).message}`;
        throw e;
      }
      stop = shortPageReason(count, size, raw, lastPageSize);
      if (stop !== null) return null;
      if (previous === null || previous === undefined) return count;
      if (typeof previous !== 'number' || !Number.isInteger(previous)) {
        stop = `the previous offset ${JSON.stringify(previous)} is not an integer`;
        throw configError(
          `Last page token value ${pythonStr(previous)} for OffsetIncrement pagination strategy was not an integer. (OffsetIncrement: the previous page token ${JSON.stringify(previous)} is not an integer offset.)`,
        );
      }
      return previous + count;
    },
  };
}

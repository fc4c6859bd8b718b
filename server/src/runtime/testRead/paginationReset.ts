// Pagination reset (airbyte_cdk/sources/declarative/retrievers/simple_retriever.py): what the page loop does when the error handler answers
// RESET_PAGINATION or a slice attempt reaches `pagination_reset.limits.number_of_records`. RESET re-reads
// the slice once; SPLIT_USING_CURSOR narrows the slice to start at the last cursor value read.
import { configError, systemError } from '../errors';
import type { StreamSlice } from '../records/streamSlice';
import type { DatetimeCursor } from './datetimeCursor';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

export type ResetAction = 'RESET' | 'SPLIT_USING_CURSOR';

/** The reset state of one slice: records seen in the current attempt and the slice to read next. */
export type SliceResets = {
  /** The slice the current attempt reads (narrowed after a SPLIT_USING_CURSOR reset). */
  readonly slice: StreamSlice;
  /** Counts a page's records toward the limit and remembers the last one (its cursor value). */
  observe(records: Obj[]): void;
  /** True when the records of this attempt reached `limits.number_of_records`. */
  limitReached(): boolean;
  /** Starts a new attempt (`why` says what triggered it) and returns its slice; throws a system error when the reset cannot proceed. */
  reset(why: string): StreamSlice;
  /** What the last reset did, in the words of its INFO log (for the pagination trace); null before any. */
  readonly lastReset: string | null;
};

/** A built `pagination_reset` (or the default RESET behaviour when the retriever has none). */
export type PaginationReset = {
  action: ResetAction;
  /** `limits.number_of_records`, or null when only the error handler triggers resets. */
  recordLimit: number | null;
  forSlice(slice: StreamSlice): SliceResets;
};

/**
 * Builds the reset policy of a retriever. Throws a config error for an unknown action, a bad limit,
 * SPLIT_USING_CURSOR without a DatetimeBasedCursor, or limits together with a record_filter.
 */
export function createPaginationReset(retriever: Obj, stream: string, cursor: DatetimeCursor | null, rc: ReadContext): PaginationReset {
  const component = retriever.pagination_reset as Obj | undefined | null;
  // Spec §7.8: without a component, an error-handler RESET_PAGINATION behaves like RESET.
  const action = (component ? component.action : 'RESET') as ResetAction;
  if (action !== 'RESET' && action !== 'SPLIT_USING_CURSOR') {
    throw configError(
      `Stream '${stream}': pagination_reset.action must be SPLIT_USING_CURSOR or RESET, got ${JSON.stringify(action ?? null)}.`,
    );
  }
  const limits = component?.limits as Obj | undefined | null;
  let recordLimit: number | null = null;
  if (limits) {
    const n = limits.number_of_records;
    if (n !== undefined && n !== null) {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
        throw configError(
          `Stream '${stream}': pagination_reset.limits.number_of_records must be a positive integer, got ${JSON.stringify(n)}.`,
        );
      }
      recordLimit = n;
    }
    const selector = retriever.record_selector as Obj | undefined;
    if (selector?.record_filter) {
      throw configError(
        `Stream '${stream}': pagination_reset.limits cannot be combined with record_selector.record_filter (the CDK refuses this combination: filtered-out records would not count toward the limit). Remove one of them.`,
      );
    }
  }
  if (action === 'SPLIT_USING_CURSOR' && !cursor) {
    throw configError(
      `Stream '${stream}': pagination_reset.action SPLIT_USING_CURSOR narrows slices with the stream's DatetimeBasedCursor, but the stream has no incremental_sync. Add a DatetimeBasedCursor or use action: RESET.`,
    );
  }

  return {
    action,
    recordLimit,
    forSlice(initial) {
      let slice = initial;
      let count = 0;
      let last: Obj | null = null;
      let sameSliceResets = 0;
      let lastReset: string | null = null;
      return {
        get slice() {
          return slice;
        },
        get lastReset() {
          return lastReset;
        },
        observe(records) {
          count += records.length;
          if (records.length) last = records[records.length - 1];
        },
        limitReached() {
          return recordLimit !== null && count >= recordLimit;
        },
        reset(why) {
          let from: string;
          if (action === 'RESET' || !cursor) {
            // Spec §7.8: RESET re-reads the same slice, once.
            if (++sameSliceResets > 1) {
              throw systemError(
                `Stream '${stream}': pagination was reset twice for the same slice (${why}); RESET restarts a slice only once, so the read stops here.`,
              );
            }
            from = 'reading the same slice again from its first page';
          } else {
            const narrowed = cursor.narrow(slice.cursor_slice, last);
            if ('reason' in narrowed) {
              throw systemError(
                `Stream '${stream}': pagination reset (SPLIT_USING_CURSOR, ${why}) cannot narrow the slice: ${narrowed.reason}. SPLIT_USING_CURSOR needs records sorted by ascending '${cursor.cursorField}' and a cursor value that moves within each attempt.`,
              );
            }
            const before = slice.cursor_slice[cursor.startKey];
            slice = { ...slice, cursor_slice: narrowed.slice };
            from = `reading again from the first page with ${cursor.startKey} ${JSON.stringify(narrowed.slice[cursor.startKey])} (was ${JSON.stringify(before)}), the last '${cursor.cursorField}' read`;
          }
          lastReset = `pagination reset (${action}) because ${why}; ${from}`;
          rc.log('INFO', `Stream '${stream}': ${lastReset}.`);
          count = 0;
          last = null;
          return slice;
        },
      };
    },
  };
}

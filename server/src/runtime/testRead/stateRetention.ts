// StateDelegatingStream.api_retention_period (CDK ModelToComponentFactory.create_state_delegating_stream):
// with an input state, the reference reads the cursor value from it — through the full-refresh stream's
// cursor first (a completed full refresh, `__ab_no_cursor_state_message`, counts as now), then the
// incremental stream's — and falls back to the full-refresh stream, from an empty state, when that value
// is older than now minus the period or cannot be read at all.
import { configError } from '../errors';
import { evalString, pythonStr } from '../http/interpolatedValues';
import type { PyDateTime } from '../interpolation/datetime';
import { addGap, nowUtc, parseCursorValue, parseGap } from './datetimeFormat';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

/** The period as the reference resolves it (a template of the config); null when none is set. */
export function retentionPeriod(stream: Obj, rc: ReadContext): string | null {
  const raw = stream.api_retention_period;
  if (raw === undefined || raw === null || raw === '') return null;
  const value = evalString(raw, { config: rc.config, parameters: (stream.$parameters as Obj) ?? {} }, rc.env);
  if (value === null || value === undefined || value === '' || value === false) return null;
  const period = pythonStr(value);
  for (const key of ['full_refresh_stream', 'incremental_stream']) {
    if (((stream[key] as Obj | undefined)?.incremental_sync as Obj | undefined)?.type === 'IncrementingCountCursor') {
      throw configError(
        `Stream '${String(stream.name ?? '')}' uses IncrementingCountCursor which is not supported with api_retention_period. IncrementingCountCursor does not use datetime-based cursors, so cursor age validation cannot be performed.`,
      );
    }
  }
  return period;
}

/**
 * Whether the input state is older than the retention period (then the full-refresh stream is read). A
 * fallback is logged as a WARN with the reference's words (it writes them to its Python logger).
 */
export function retentionExpired(stream: Obj, period: string, state: Obj, rc: ReadContext): boolean {
  const now = nowUtc(rc.env.now ? rc.env.now() : new Date());
  const cutoff = addGap(now, parseGap(period, `StateDelegatingStream.api_retention_period`), -1);
  const value =
    cursorDatetime(stream.full_refresh_stream as Obj | undefined, state, now) ??
    cursorDatetime(stream.incremental_stream as Obj | undefined, state, now);
  const name = String(stream.name ?? '');
  if (value === null) {
    rc.log(
      'WARN',
      `Stream '${name}': the cursor value of the input state could not be read, so the read falls back to a full refresh (api_retention_period ${period}), as the Python CDK does.`,
    );
    return true;
  }
  if (value.compare(cutoff) < 0) {
    rc.log(
      'WARN',
      `Stream '${name}' has a cursor value older than the API's retention period of ${period} (cutoff: ${cutoff.isoformat()}). Falling back to full refresh to avoid data loss.`,
    );
    return true;
  }
  return false;
}

/** Cursor.get_cursor_datetime_from_state of the cursor a stream gets; null when it cannot read the state. */
function cursorDatetime(stream: Obj | undefined, state: Obj, now: PyDateTime): PyDateTime | null {
  const cursor = stream?.incremental_sync as Obj | undefined;
  // FinalStateCursor: a completed full refresh is current.
  if (!cursor || cursor.type !== 'DatetimeBasedCursor') return state.__ab_no_cursor_state_message ? now : null;
  const retriever = stream?.retriever as Obj | undefined;
  const routed =
    retriever?.partition_router !== undefined &&
    retriever?.partition_router !== null &&
    !(Array.isArray(retriever.partition_router) && retriever.partition_router.length === 0);
  // ConcurrentPerPartitionCursor reads the global cursor under "state".
  const own = routed ? state.state : state;
  if (!own || typeof own !== 'object' || Array.isArray(own)) return null;
  const field = typeof cursor.cursor_field === 'string' ? cursor.cursor_field : '';
  const formats = [...((cursor.cursor_datetime_formats as string[] | undefined) ?? []), String(cursor.datetime_format ?? '')];
  const sliced = own as Obj;
  let value: unknown;
  if (sliced.state_type === 'date-range') {
    // The concurrent format: the first slice's most recent value, else its end.
    const first = Array.isArray(sliced.slices) ? (sliced.slices[0] as Obj | undefined) : undefined;
    value = first ? first.most_recent_cursor_value || first.end : null;
  } else {
    value = sliced[field];
  }
  if (!value) return null;
  try {
    return parseCursorValue(value, formats);
  } catch {
    return null;
  }
}

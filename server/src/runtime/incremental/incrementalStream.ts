// What a stream's incremental sync is, in the terms its state is written in (airbyte_cdk/sources/declarative/concurrent_declarative_source.py,
// §6.3): the cursor kind and field, how cursor values are parsed and compared, the lookback, and the
// state layout its partition router gives (per partition, global, parent state). The incremental check and
// the editor's state form both start from this description. No I/O except resolving dynamic streams.
import { configError } from '../errors';
import { evalString, pythonStr } from '../http/interpolatedValues';
import type { PyDateTime } from '../interpolation/datetime';
import { resolveManifest } from '../manifest/resolve';
import { parseVersion } from '../schema/versions';
import { addGap, formatCursorValue, parseBound, parseCursorValue, parseGap, type Gap } from '../testRead/datetimeFormat';
import { resolveDynamicStreams } from '../testRead/dynamicStreams';
import { SecretMasker } from '../testRead/masking';
import type { ReadContext } from '../testRead/readContext';
import { DEFAULT_TEST_READ_LIMITS } from '../testRead/testRead';
import type { TestReadEnv } from '../types';

type Obj = Record<string, unknown>;

/**
 * How the stream's state is laid out (§6.3): `single` = `{cursor_field: value}`; `per_partition` =
 * `{use_global_cursor: false, states: [...], state?, lookback_window, parent_state?}`; `global` = the same
 * with `use_global_cursor: true` and no `states`; `none` = `{__ab_no_cursor_state_message: true}`.
 */
export type StateLayout = 'none' | 'single' | 'per_partition' | 'global';

/** A parent stream of a SubstreamPartitionRouter whose state the child carries (`incremental_dependency`). */
export type ParentDependency = { stream: string; cursorField: string | null; datetimeFormat: string | null };

export type IncrementalStream = {
  stream: string;
  kind: 'none' | 'datetime' | 'count';
  /** The rendered cursor_field (record top level); '' without incremental_sync. */
  cursorField: string;
  /** The cursor's datetime_format (output of slices and state); null for a count cursor. */
  datetimeFormat: string | null;
  /** cursor_datetime_formats then datetime_format: the formats record and state values are parsed with. */
  parseFormats: string[];
  /** The rendered lookback_window (ISO 8601), null without one. */
  lookbackWindow: string | null;
  /** The cursor slice keys holding a window's start and end (partition_field_start / _end). */
  startKey: string;
  endKey: string;
  /** start_datetime formatted in datetime_format (start_value for a count cursor), null when it cannot be rendered. */
  start: string | number | null;
  layout: StateLayout;
  /** The partition routers' types, in order (a list of routers is a Cartesian product). */
  routers: string[];
  /** incremental_dependency parents: their state is kept in `parent_state[name]`. */
  parents: ParentDependency[];
  /** Whether the substream router keeps `parent_state` at all (a single SubstreamPartitionRouter). */
  hasParentState: boolean;
  isClientSideIncremental: boolean;
  isDataFeed: boolean;
};

/** A parsed cursor value that orders: a datetime, or a number (count cursors). */
export type CursorPoint = { kind: 'datetime'; dt: PyDateTime } | { kind: 'count'; n: number };

/** The description plus the parser of its cursor values. */
export type IncrementalModel = IncrementalStream & {
  /** Parses a record or state value; null when it is missing or unparsable. */
  parse(value: unknown): CursorPoint | null;
  /** `point` minus the manifest's lookback and `extraSeconds` (a per-partition state's runtime lookback). */
  lowerBound(point: CursorPoint, extraSeconds: number): CursorPoint;
  /** The value as the state writes it. */
  show(point: CursorPoint): string;
};

/** Orders two cursor points of the same kind (negative: a before b). */
export function comparePoints(a: CursorPoint, b: CursorPoint): number {
  if (a.kind === 'datetime' && b.kind === 'datetime') return a.dt.compare(b.dt);
  if (a.kind === 'count' && b.kind === 'count') return a.n - b.n;
  return 0;
}

/** A ReadContext for rendering manifest fields outside a read (no requests, logs dropped). */
export function quietContext(root: Obj, config: Obj, env: TestReadEnv = {}): ReadContext {
  const masker = new SecretMasker();
  masker.addFromSpec(root.spec, config);
  return {
    manifest: root,
    config,
    env,
    limits: { ...DEFAULT_TEST_READ_LIMITS },
    masker,
    requestOptionCompat: { manifestVersion: parseVersion(root.version) },
    aux: () => {},
    log: () => {},
  };
}

/**
 * The resolved definition of stream `name`: a static stream, else one resolved from `dynamic_streams`
 * (which reads the API for an HttpComponentsResolver). Null when there is none. Throws RuntimeError
 * (config_error) when the manifest cannot be resolved.
 */
export async function findStreamDefinition(
  manifest: object,
  config: Obj,
  name: string,
  env: TestReadEnv = {},
): Promise<{ root: Obj; stream: Obj } | null> {
  const resolved = resolveManifest(manifest);
  const broken = resolved.problems.filter((p) => p.severity === 'error');
  if (broken.length)
    throw configError(
      `The manifest cannot be resolved: ${broken
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}`,
    );
  const root = resolved.value as Obj;
  const streams = (Array.isArray(root.streams) ? root.streams : []) as Obj[];
  const found = streams.find((s) => s && s.name === name);
  if (found) return { root, stream: found };
  if (!Array.isArray(root.dynamic_streams) || !root.dynamic_streams.length) return null;
  const dynamic = await resolveDynamicStreams(root, quietContext(root, config, env));
  const d = dynamic.find((x) => x.name === name);
  return d ? { root, stream: d.stream as Obj } : null;
}

/** Describes the incremental sync of a resolved stream. Throws a config error for unreadable cursor fields. */
export function describeIncrementalStream(root: Obj, stream: Obj, config: Obj, env: TestReadEnv = {}): IncrementalModel {
  const rc = quietContext(root, config, env);
  const name = String(stream.name ?? '');
  const retriever = (stream.retriever ?? {}) as Obj;
  const routerValue = retriever.partition_router;
  const routerList = (
    routerValue === undefined || routerValue === null ? [] : Array.isArray(routerValue) ? routerValue : [routerValue]
  ) as Obj[];
  const routers = routerList.map((r) => String(r?.type ?? 'unknown'));
  const single = !Array.isArray(routerValue) && routerList.length === 1 ? routerList[0] : null;
  const inc = stream.incremental_sync as Obj | undefined;
  const render = (t: unknown, params: unknown = inc?.$parameters) =>
    pythonStr(evalString(t, { config, parameters: (params as Obj) ?? {} }, rc.env));

  const parents: ParentDependency[] = [];
  if (single?.type === 'SubstreamPartitionRouter') {
    for (const p of (Array.isArray(single.parent_stream_configs) ? single.parent_stream_configs : []) as Obj[]) {
      if (p?.incremental_dependency !== true) continue;
      const parent = (p.stream ?? {}) as Obj;
      const pinc = parent.incremental_sync as Obj | undefined;
      let cursorField: string | null = null;
      try {
        cursorField = pinc?.cursor_field ? render(pinc.cursor_field, pinc.$parameters) : null;
      } catch {
        cursorField = null;
      }
      parents.push({
        stream: String(parent.name ?? ''),
        cursorField,
        datetimeFormat: typeof pinc?.datetime_format === 'string' ? pinc.datetime_format : null,
      });
    }
  }
  const base = {
    stream: name,
    routers,
    parents,
    hasParentState: single?.type === 'SubstreamPartitionRouter',
    startKey: 'start_time',
    endKey: 'end_time',
    isClientSideIncremental: inc?.is_client_side_incremental === true,
    isDataFeed: inc?.is_data_feed === true,
  };
  if (!inc) {
    return {
      ...base,
      kind: 'none',
      cursorField: '',
      datetimeFormat: null,
      parseFormats: [],
      lookbackWindow: null,
      start: null,
      layout: 'none',
      parse: () => null,
      lowerBound: (p) => p,
      show: () => '',
    };
  }
  const cursorField = inc.cursor_field !== undefined ? render(inc.cursor_field) : '';
  if (inc.type === 'IncrementingCountCursor') {
    let start: number | null = 0;
    try {
      start = inc.start_value === undefined || inc.start_value === null ? 0 : Number(render(String(inc.start_value)));
    } catch {
      start = null;
    }
    return {
      ...base,
      kind: 'count',
      cursorField,
      datetimeFormat: null,
      parseFormats: [],
      lookbackWindow: null,
      start,
      layout: 'single',
      startKey: 'start',
      endKey: 'end',
      parse(value) {
        const n =
          typeof value === 'number' ? value : typeof value === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
        return Number.isFinite(n) ? { kind: 'count', n } : null;
      },
      lowerBound: (p) => p,
      show: (p) => (p.kind === 'count' ? String(p.n) : ''),
    };
  }
  const format = typeof inc.datetime_format === 'string' ? inc.datetime_format : '';
  if (!format) throw configError(`Stream '${name}': DatetimeBasedCursor requires datetime_format.`);
  const parseFormats = [...((Array.isArray(inc.cursor_datetime_formats) ? inc.cursor_datetime_formats : []) as string[]), format];
  const lookbackText = inc.lookback_window ? render(inc.lookback_window) : '';
  const lookback: Gap | null = lookbackText ? parseGap(lookbackText, 'DatetimeBasedCursor.lookback_window') : null;
  let start: string | null = null;
  try {
    const bound =
      typeof inc.start_datetime === 'object' && inc.start_datetime !== null
        ? (inc.start_datetime as Obj)
        : { datetime: inc.start_datetime };
    const own = typeof bound.datetime_format === 'string' && bound.datetime_format ? bound.datetime_format : format;
    start = formatCursorValue(
      parseBound(render(bound.datetime, bound.$parameters ?? inc.$parameters), [own], 'start_datetime', parseFormats),
      format,
    );
  } catch {
    start = null;
  }
  const globalCursor = inc.global_substream_cursor === true || single?.type === 'GroupingPartitionRouter';
  return {
    ...base,
    kind: 'datetime',
    cursorField,
    datetimeFormat: format,
    parseFormats,
    lookbackWindow: lookbackText || null,
    start,
    layout: routerList.length === 0 ? 'single' : globalCursor ? 'global' : 'per_partition',
    startKey: render(inc.partition_field_start ?? 'start_time'),
    endKey: render(inc.partition_field_end ?? 'end_time'),
    parse(value) {
      if (value === undefined || value === null) return null;
      try {
        return { kind: 'datetime', dt: parseCursorValue(value, parseFormats) };
      } catch {
        return null;
      }
    },
    lowerBound(point, extraSeconds) {
      if (point.kind !== 'datetime') return point;
      let dt = point.dt;
      if (extraSeconds) dt = dt.plusMicros(-BigInt(Math.round(extraSeconds * 1e6)));
      if (lookback) dt = addGap(dt, lookback, -1);
      return { kind: 'datetime', dt };
    },
    show: (p) => (p.kind === 'datetime' ? formatCursorValue(p.dt, format) : String(p.n)),
  };
}

// Stream slices for a test read (§2 step 1): ListPartitionRouter, SubstreamPartitionRouter (reading the
// parent through its own retriever, logged as PARENT_STREAM auxiliary requests), GroupingPartitionRouter
// and DatetimeBasedCursor, combined as a cartesian product, plus the request options each of them injects.
import type { RequestParts } from '../types';
import { configError } from '../errors';
import { createRequestOption, type RequestOption } from '../http/requestOption';
import { emptyParts } from '../http/requestOptions';
import { evalNullable, evalString, pythonStr } from '../http/interpolatedValues';
import type { StreamSlice } from '../records/streamSlice';
import { createDatetimeCursor } from './datetimeCursor';
import { createGroupingRouter } from './groupingPartitionRouter';
import { createUnionRouter } from './unionPartitionRouter';
import { concurrentCursor, finalStateCursor, perPartitionCursor, type StreamCursor } from './streamCursor';
import { incrementingCountCursor, type CountCursor } from './incrementingCountCursor';
import type { BuildParent, BuiltStream, Slicer } from './builtStream';
import type { Part, Partition } from './partition';
import type { ReadContext } from './readContext';
import { setOwn } from '../shared/safeObject';

type Obj = Record<string, unknown>;

/**
 * Builds the slicer of a retriever: partition routers (a list is a cartesian product) and the incremental
 * cursor, which starts from `inputState` (the stream's state in the read's input; null for parent streams).
 */
export function createSlicer(
  retriever: Obj,
  stream: Obj,
  rc: ReadContext,
  buildParent: BuildParent,
  inputState: Obj | null = null,
): Slicer {
  const routers =
    retriever.partition_router === undefined || retriever.partition_router === null
      ? []
      : Array.isArray(retriever.partition_router)
        ? retriever.partition_router
        : [retriever.partition_router];
  const parts = (routers as Obj[]).map((r) => createRouter(r, rc, buildParent, inputState, String(stream.name ?? '')));
  const name = String(stream.name ?? '');
  const incremental = stream.incremental_sync as Obj | undefined;
  let counter: CountCursor | null = null;
  if (incremental?.type === 'IncrementingCountCursor') {
    if (parts.length)
      throw configError(
        `The low-code framework does not currently support usage of a PartitionRouter and an IncrementingCountCursor at the same time. Please specify only one of these options for stream ${name}.`,
      );
    counter = incrementingCountCursor(name, incremental, inputState, rc);
  }
  const cursor = incremental && !counter ? createDatetimeCursor(incremental, rc, name) : null;
  // A list, even of one router, is the reference's CartesianProductStreamSlicer (eager, no router state).
  const isProduct = Array.isArray(retriever.partition_router);
  const single = !isProduct && routers.length === 1 ? (routers[0] as Obj) : null;
  const state: StreamCursor = counter
    ? counter
    : !cursor
      ? finalStateCursor(name)
      : parts.length === 0
        ? concurrentCursor(name, cursor, inputState)
        : perPartitionCursor(
            name,
            cursor,
            inputState,
            {
              // Per-partition state makes no sense for grouped partitions: the reference forces the global cursor.
              useGlobalCursor:
                (stream.incremental_sync as Obj).global_substream_cursor === true || single?.type === 'GroupingPartitionRouter',
              routerState:
                single?.type === 'SubstreamPartitionRouter' || single?.type === 'UnionPartitionRouter'
                  ? () => parts[0].state?.() ?? {}
                  : () => null,
            },
            rc,
          );
  return {
    cursor,
    state,
    slices() {
      return state.slices(parts.length === 0 ? null : isProduct ? product(parts) : parts[0].partitions());
    },
    requestParts(slice) {
      const out = emptyParts() as RequestParts;
      // A list of routers merges their options like their partitions (ChainMap): the first router wins
      // a clash, so routers inject from last to first and earlier ones overwrite.
      for (let i = parts.length - 1; i >= 0; i--) parts[i].inject(out, slice.partition);
      cursor?.inject(out, slice.cursor_slice);
      counter?.inject(out, slice.cursor_slice);
      return out;
    },
  };
}

/**
 * The partitions of a list of routers (airbyte_cdk/sources/declarative/partition_routers/cartesian_product_stream_slicer.py; a router given alone is read lazily).
 * A list, even of one router, is the reference's CartesianProductStreamSlicer: `itertools.product` reads
 * every router in full once (each parent stream once, before the first slice), the first router is the
 * outer loop, and each combination is merged like `dict(ChainMap(p1, p2, …))`.
 */
async function* product(parts: Part[]): AsyncGenerator<Partition> {
  const lists: Partition[][] = [];
  for (const part of parts) {
    const list: Partition[] = [];
    for await (const p of part.partitions()) list.push(p);
    lists.push(list);
  }
  // itertools.product reads every router before it looks at any: an empty one still lets the others be read.
  if (lists.some((list) => list.length === 0)) return;
  const index = lists.map(() => 0);
  for (;;) {
    const combo = lists.map((list, i) => list[index[i]]);
    const extras = combo.map((p) => p.extra_fields ?? {});
    const extra_fields = chainMerge(extras);
    yield Object.keys(extra_fields).length
      ? { partition: chainMerge(combo.map((p) => p.partition)), extra_fields }
      : { partition: chainMerge(combo.map((p) => p.partition)) };
    // Odometer: the last router varies fastest.
    let k = lists.length - 1;
    while (k >= 0 && ++index[k] >= lists[k].length) index[k--] = 0;
    if (k < 0) return;
  }
}

/** Python's `dict(ChainMap(*maps))`: a key takes the value of the first map that has it; keys are ordered last map first. */
function chainMerge(maps: Obj[]): Obj {
  const out: Obj = {};
  for (let i = maps.length - 1; i >= 0; i--)
    for (const key of Object.keys(maps[i])) if (!Object.hasOwn(out, key)) setOwn(out, key, undefined);
  for (const key of Object.keys(out)) setOwn(out, key, maps.find((m) => Object.hasOwn(m, key))?.[key]);
  return out;
}

function option(component: unknown, rc: ReadContext): RequestOption | null {
  return component ? createRequestOption(component as object, rc.config, {}, rc.requestOptionCompat) : null;
}

function createRouter(router: Obj, rc: ReadContext, buildParent: BuildParent, childState: Obj | null = null, streamName = ''): Part {
  if (router.type === 'GroupingPartitionRouter')
    return createGroupingRouter(router, (underlying) => createRouter(underlying, rc, buildParent, childState));
  if (router.type === 'UnionPartitionRouter')
    return createUnionRouter(router, rc, streamName, (child) => createRouter(child, rc, buildParent, childState, streamName));
  const parameters = (router.$parameters as Obj) ?? {};
  const ctx = { config: rc.config, parameters };
  switch (router.type) {
    case 'ListPartitionRouter': {
      const key = pythonStr(evalString(router.cursor_field, ctx, rc.env));
      let values = router.values;
      if (typeof values === 'string') values = evalNullable(values, ctx, rc.env);
      if (!Array.isArray(values))
        throw configError(`ListPartitionRouter.values must be a list (or a template rendering a list); got ${JSON.stringify(values)}.`);
      const opt = option(router.request_option, rc);
      const list = values;
      return {
        async *partitions() {
          for (const v of list) yield { partition: { [key]: v } };
        },
        inject(parts, partition) {
          if (opt && partition[key] !== undefined) opt.inject(parts, partition[key]);
        },
      };
    }
    case 'SubstreamPartitionRouter': {
      const configs = ((router.parent_stream_configs as Obj[]) ?? []).map((pc) => {
        const pctx = { config: rc.config, parameters: (pc.$parameters as Obj) ?? parameters };
        if (!pc.stream) throw configError('ParentStreamConfig requires stream.');
        return {
          parent: pc.stream as Obj,
          parentKey: pythonStr(evalString(pc.parent_key, pctx, rc.env)),
          field: pythonStr(evalString(pc.partition_field, pctx, rc.env)),
          opt: option(pc.request_option, rc),
          extraFields: (pc.extra_fields as unknown[][] | undefined)?.map((p) => p.map(String)) ?? [],
          incrementalDependency: pc.incremental_dependency === true,
          built: null as BuiltStream | null,
        };
      });
      const buildFor = (pc: (typeof configs)[number]) =>
        buildParent(pc.parent, pc.incrementalDependency ? parentInputState(childState, pc.parent, rc) : null);
      return {
        async *partitions() {
          for (const pc of configs) {
            // The last parent built keeps what was read in its cursor, for the router's state.
            const parent = (pc.built = buildFor(pc));
            // As the reference's iterate_with_last_flag: the next parent slice and the next parent record are
            // fetched before the current one yields its partition (so a page boundary costs one more parent page).
            for await (const [parentSlice] of withLastFlag(firstOf(parent.slicer.slices(), rc.limits.maxSlices))) {
              if (parentSlice === null) break;
              for await (const [record, lastInSlice] of withLastFlag(parentRecords(parent, parentSlice, rc))) {
                let out: Partition | null = null;
                if (record !== null) {
                  parent.slicer.state.observe(parentSlice, record);
                  const value = getPath(record, pc.parentKey.split('/'));
                  if (value !== undefined && value !== null) {
                    // Extra fields ride along as the slice's extra_fields, keyed by their dotted path,
                    // not as partition keys (so they stay out of the slice descriptor, as in the CDK).
                    const extra: Obj = {};
                    for (const path of pc.extraFields) extra[path.join('.')] = getPath(record, path);
                    const partition: Obj = { [pc.field]: value, parent_slice: parentSlice.partition };
                    out = Object.keys(extra).length ? { partition, extra_fields: extra } : { partition };
                  }
                }
                // The parent cursor closes its slice at the slice's last record, before that record's partition is used.
                if (lastInSlice) parent.slicer.state.close(parentSlice);
                if (out) yield out;
              }
            }
          }
        },
        inject(parts, partition) {
          for (const pc of configs) if (pc.opt && partition[pc.field] !== undefined) pc.opt.inject(parts, partition[pc.field]);
        },
        state() {
          const out: Obj = {};
          for (const pc of configs)
            if (pc.incrementalDependency) out[String(pc.parent.name ?? '')] = (pc.built ??= buildFor(pc)).slicer.state.current();
          return out;
        },
      };
    }
    case 'CustomPartitionRouter':
      throw configError('CustomPartitionRouter runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(
        `Partition router ${JSON.stringify(router.type)} is not supported by this runtime (supported: ListPartitionRouter, SubstreamPartitionRouter, GroupingPartitionRouter, UnionPartitionRouter).`,
      );
  }
}

/**
 * The input state of an incremental_dependency parent, from the child's (§5.2): `parent_state[parent]`, else
 * the child's global `state`, else a child state with a single value, keyed by the parent's cursor field.
 */
function parentInputState(childState: Obj | null, parent: Obj, rc: ReadContext): Obj | null {
  if (!childState) return null;
  const child = Object.fromEntries(Object.entries(childState).filter(([k]) => k !== '__ab_no_cursor_state_message'));
  if (!Object.keys(child).length) return null;
  const name = String(parent.name ?? '');
  const parents = child.parent_state as Obj | undefined;
  if (parents && typeof parents === 'object' && parents[name] && typeof parents[name] === 'object') return parents[name] as Obj;
  if (child.state && typeof child.state === 'object') return child.state as Obj;
  const values = Object.values(child);
  const inc = parent.incremental_sync as Obj | undefined;
  if (values.length === 1 && inc?.cursor_field) {
    const field = pythonStr(evalString(inc.cursor_field, { config: rc.config, parameters: (inc.$parameters as Obj) ?? {} }, rc.env));
    return { [field]: values[0] };
  }
  return null;
}

/** The records of one parent slice, page after page (each page logged as a PARENT_STREAM request). */
async function* parentRecords(parent: BuiltStream, slice: StreamSlice, rc: ReadContext): AsyncGenerator<Obj> {
  for await (const page of parent.readSlice(slice, (entry) => rc.aux(entry, parent.name))) {
    rc.aux(parentPageEntry(parent.name, page), parent.name);
    // A page that failed part-way (a record the reference refuses) still gave the records before it.
    yield* page.records;
    if (page.error) throw page.error;
  }
}

/** The first `n` items, never pulling the next one (Python's islice: parent streams are bounded by the slice limit). */
async function* firstOf<T>(items: AsyncIterable<T>, n: number): AsyncGenerator<T> {
  if (n <= 0) return;
  let count = 0;
  for await (const item of items) {
    yield item;
    if (++count >= n) return;
  }
}

/**
 * Each item with whether it is the last, looking one item ahead; an empty sequence gives `[null, true]`
 * (the reference's iterate_with_last_flag, which closes an empty parent slice too).
 */
async function* withLastFlag<T>(items: AsyncIterable<T>): AsyncGenerator<[T | null, boolean]> {
  const it = items[Symbol.asyncIterator]();
  try {
    let current = await it.next();
    if (current.done) {
      yield [null, true];
      return;
    }
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      yield [current.value, false];
      current = next;
    }
    yield [current.value, true];
  } finally {
    // A consumer that stops early (slice limit, error) closes the source too.
    await it.return?.();
  }
}

function parentPageEntry(
  parent: string,
  page: {
    request: { url: string; headers: Record<string, string>; method: string; body: string | null };
    response: { status: number; body: string; headers: Record<string, string> } | null;
  },
) {
  return {
    title: `Stream '${parent}' request`,
    type: 'HTTP',
    description: `Request performed in order to extract records for stream '${parent}'`,
    request: { url: page.request.url, headers: page.request.headers, http_method: page.request.method, body: page.request.body },
    response: page.response ? { status: page.response.status, body: page.response.body, headers: page.response.headers } : null,
  };
}

function getPath(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[seg];
  }
  return cur;
}

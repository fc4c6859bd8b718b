// The stream-level cursor of a test read and the state messages it emits (airbyte_cdk/sources/declarative/concurrent_declarative_source.py, §5.4,
// §6): no incremental_sync → the final-state cursor (one state at the end); a DatetimeBasedCursor alone → one
// concurrent cursor (state after every slice); with a partition router → one concurrent cursor per partition
// (state after the first closed slice and at the end), or a single global cursor.
import { configError } from '../errors';
import type { StreamSlice } from '../records/streamSlice';
import type { DatetimeCursor, WindowCursor } from './datetimeCursor';
import type { Partition } from './partition';
import type { ReadContext } from './readContext';

type Obj = Record<string, unknown>;

/**
 * An AirbyteStateMessage of a stream, as the test read shows it in `slices[].state` (§6.2): the Builder
 * turns the protocol dataclass into a dict field by field (dataclasses.asdict), so the unset fields are there as null.
 */
export type StateMessage = {
  type: 'STREAM';
  stream: { stream_descriptor: { name: string; namespace: null }; stream_state: Obj };
  global_: null;
  data: null;
  /** The records of the stream since its previous state message (the CDK's entrypoint counts them, as floats). */
  sourceStats: { recordCount: number } | null;
  destinationStats: null;
};

export type StreamCursor = {
  /** The slices of the stream: partitions × windows (partitions null when there is no router). */
  slices(partitions: AsyncIterable<Partition> | null): AsyncGenerator<StreamSlice>;
  /** A record of `slice` was emitted. */
  observe(slice: StreamSlice, record: Obj): void;
  /** `slice` was read completely; the state message emitted then, if any. */
  close(slice: StreamSlice): StateMessage | null;
  /** The stream ended: the last state message (always one). */
  finish(): StateMessage;
  /** The cursor check of client-side incremental and data feeds (§3, §4). */
  shouldBeSynced(slice: StreamSlice, record: Obj): boolean;
  /** The state as it stands (a parent's state inside its child's `parent_state`). */
  current(): Obj;
};

/** The state message of stream `name` carrying `state`. */
export const stateMessage = (name: string, state: Obj): StateMessage => ({
  type: 'STREAM',
  stream: { stream_descriptor: { name, namespace: null }, stream_state: structuredClone(state) },
  global_: null,
  data: null,
  sourceStats: null,
  destinationStats: null,
});

/** Finds the input state of `stream` in a list of state messages (the Builder's `state` input). */
export function findStreamState(states: unknown, stream: string): Obj | null {
  if (!Array.isArray(states)) return null;
  for (const s of states) {
    const m = s as Obj | null;
    const inner = (m?.stream ?? null) as Obj | null;
    const descriptor = (inner?.stream_descriptor ?? null) as Obj | null;
    if (descriptor && descriptor.name === stream && inner?.stream_state && typeof inner.stream_state === 'object')
      return inner.stream_state as Obj;
  }
  return null;
}

/** A stream without incremental_sync: `{"__ab_no_cursor_state_message": true}` once, at the end. */
export function finalStateCursor(name: string): StreamCursor {
  return {
    async *slices(partitions) {
      if (!partitions) {
        yield { partition: {}, cursor_slice: {} };
        return;
      }
      for await (const { partition, extra_fields } of partitions)
        yield { partition, cursor_slice: {}, ...(extra_fields && Object.keys(extra_fields).length ? { extra_fields } : {}) };
    },
    observe() {},
    close: () => null,
    finish: () => stateMessage(name, { __ab_no_cursor_state_message: true }),
    shouldBeSynced: () => true,
    current: () => ({ __ab_no_cursor_state_message: true }),
  };
}

/** A DatetimeBasedCursor without a partition router: one concurrent cursor, a state after every slice. */
export function concurrentCursor(name: string, definition: DatetimeCursor, inputState: Obj | null): StreamCursor {
  const cursor = definition.create(inputState);
  return {
    async *slices() {
      for (const cursor_slice of cursor.slices()) yield { partition: {}, cursor_slice };
    },
    observe: (slice, record) => cursor.observe(record, slice.cursor_slice),
    close(slice) {
      cursor.close(slice.cursor_slice);
      return stateMessage(name, cursor.state());
    },
    finish: () => stateMessage(name, cursor.state()),
    shouldBeSynced: (_slice, record) => cursor.shouldBeSynced(record),
    current: () => cursor.state(),
  };
}

/** JSON with keys sorted at every level: the per-partition key of the reference (json.dumps sort_keys). */
function partitionKey(partition: Obj): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v as Obj)
          .sort()
          .map((k) => [k, sort((v as Obj)[k])]),
      );
    return v;
  };
  return JSON.stringify(sort(partition));
}

/** How often intermediate per-partition states are emitted (the reference throttles to one per 600 s). */
const THROTTLE_SECONDS = 600;

export type PerPartitionOptions = {
  /** global_substream_cursor (or a GroupingPartitionRouter): one global value instead of one per partition. */
  useGlobalCursor: boolean;
  /** The router's own state: null for list routers and several routers, `{…}` for a substream router (§6.3). */
  routerState: () => Obj | null;
};

/** A DatetimeBasedCursor with a partition router: ConcurrentPerPartitionCursor (§5.4, §6.3). */
export function perPartitionCursor(
  name: string,
  definition: DatetimeCursor,
  inputState: Obj | null,
  options: PerPartitionOptions,
  rc: ReadContext,
): StreamCursor {
  const field = definition.cursorField;
  const cursors = new Map<string, WindowCursor>();
  let useGlobal = options.useGlobalCursor;
  let lookbackWindow = 0;
  let globalCursor: Obj | null = null;
  let newGlobalCursor: Obj | null = null;
  let parentState: Obj | null = null;
  const open = new Map<string, number>();
  const doneGenerating = new Set<string>();
  // The router's state after each generated partition (kept when it changed), released once every
  // partition generated up to it was fully read: the reference's parent-state tracking.
  const parentStates: { seq: number; state: Obj | null }[] = [];
  const seqOf = new Map<string, number>();
  const openSeqs = new Set<number>();
  let generated = 0;
  let syncedSomeData = false;
  let lastEmission: number | null = null;
  let startedAt = 0;
  // The read's clock (env.now): a frozen clock makes the measured duration, hence lookback_window, reproducible.
  const clockMs = () => (rc.env.now?.() ?? new Date()).getTime();
  let warnedDuplicate = false;
  let warnedParse = false;

  const setGlobalState = (state: Obj) => {
    if (!(field in state)) return;
    let value: string;
    try {
      value = definition.format(definition.parse(state[field]));
    } catch (e) {
      throw configError(`The input state of stream '${name}' has ${field} = ${JSON.stringify(state[field])}: ${(e as Error).message}.`);
    }
    globalCursor = { [field]: value };
    newGlobalCursor = { [field]: value };
  };
  if (inputState && Object.keys(inputState).length) {
    if (!('states' in inputState) && !('state' in inputState)) {
      setGlobalState(inputState);
    } else {
      useGlobal = inputState.use_global_cursor === true;
      lookbackWindow = Math.trunc(Number(inputState.lookback_window ?? 0)) || 0;
      for (const s of (Array.isArray(inputState.states) ? inputState.states : []) as Obj[]) {
        if (s && typeof s.partition === 'object' && s.partition)
          cursors.set(partitionKey(s.partition as Obj), definition.create((s.cursor as Obj) ?? {}));
      }
      if (inputState.state && typeof inputState.state === 'object') setGlobalState(inputState.state as Obj);
    }
    if (inputState.parent_state && typeof inputState.parent_state === 'object' && Object.keys(inputState.parent_state).length)
      parentState = inputState.parent_state as Obj;
  }
  const fromGlobal = () => definition.create(globalCursor, globalCursor ? lookbackWindow : 0);

  const updateGlobal = (value: unknown) => {
    // The reference compares the formatted strings here, not datetimes.
    if (newGlobalCursor === null || String(newGlobalCursor[field]) < String(value)) newGlobalCursor = { [field]: value };
  };
  const state = (): Obj => {
    const out: Obj = { use_global_cursor: useGlobal };
    if (!useGlobal) out.states = [...cursors].map(([key, c]) => ({ partition: JSON.parse(key), cursor: c.state() }));
    if (globalCursor && Object.keys(globalCursor).length) out.state = globalCursor;
    out.lookback_window = lookbackWindow;
    if (parentState !== null) out.parent_state = parentState;
    return out;
  };

  return {
    async *slices(partitions) {
      startedAt = clockMs();
      // iterate_with_last_flag_and_state: each partition is used only once the next one has been pulled (a
      // parent slice boundary costs the next parent slice's first page), with the router's state taken when
      // it was pulled.
      for await (const [p, routerState] of withStateAhead(partitions ?? noPartitions(), options.routerState)) {
        const key = partitionKey(p.partition);
        let cursor = cursors.get(key);
        if (!cursor) {
          cursor = fromGlobal();
          cursors.set(key, cursor);
        }
        if (open.has(key)) {
          if (!warnedDuplicate) rc.log('WARN', `Partition duplication detected for stream ${name}`);
          warnedDuplicate = true;
          continue;
        }
        open.set(key, 0);
        const seq = generated++;
        seqOf.set(key, seq);
        openSeqs.add(seq);
        if (!parentStates.length || JSON.stringify(parentStates[parentStates.length - 1].state) !== JSON.stringify(routerState))
          parentStates.push({ seq, state: routerState === null ? null : structuredClone(routerState) });
        const extra = p.extra_fields && Object.keys(p.extra_fields).length ? { extra_fields: p.extra_fields } : {};
        const windows = [...cursor.slices()];
        const overlap = windows.length ? Object.keys(p.partition).find((k) => k in windows[0]) : undefined;
        if (overlap !== undefined)
          throw configError(
            `Keys for partition and incremental sync cursor should not overlap (stream '${name}': '${overlap}' is both a partition key and a cursor slice key).`,
          );
        for (let i = 0; i < windows.length; i++) {
          open.set(key, (open.get(key) ?? 0) + 1);
          if (i === windows.length - 1) doneGenerating.add(key);
          yield { partition: p.partition, cursor_slice: windows[i], ...extra };
        }
      }
    },
    observe(slice, record) {
      const raw = record[field];
      if (raw === undefined || raw === null) return;
      let formatted: string;
      try {
        formatted = definition.format(definition.parse(raw));
      } catch (e) {
        if (!warnedParse)
          rc.log(
            'WARN',
            `Skipping cursor update for stream '${name}': failed to parse cursor field '${field}' value ${JSON.stringify(raw)}: ${(e as Error).message}`,
          );
        warnedParse = true;
        return;
      }
      syncedSomeData = true;
      updateGlobal(formatted);
      if (!useGlobal) cursors.get(partitionKey(slice.partition))?.observe(record, slice.cursor_slice);
    },
    close(slice) {
      const key = partitionKey(slice.partition);
      const remaining = (open.get(key) ?? 1) - 1;
      open.set(key, remaining);
      const fullyRead = doneGenerating.has(key) && remaining === 0;
      if (!useGlobal) {
        const cursor = cursors.get(key);
        if (cursor) {
          cursor.close(slice.cursor_slice);
          if (fullyRead) updateGlobal(cursor.state()[field]);
        }
      }
      if (fullyRead) openSeqs.delete(seqOf.get(key) ?? -1);
      let released: { state: Obj | null } | null = null;
      while (parentStates.length && !(openSeqs.size && Math.min(...openSeqs) <= parentStates[0].seq))
        released = parentStates.shift() ?? null;
      if (released && released.state !== null) parentState = released.state;
      const now = performance.now() / 1000;
      if (lastEmission !== null && now - lastEmission <= THROTTLE_SECONDS) return null;
      lastEmission = now;
      // Python's `not self._parent_state`: an empty parent state ({}) skips the message too.
      if (useGlobal && (!parentState || Object.keys(parentState).length === 0)) return null;
      return stateMessage(name, state());
    },
    finish() {
      if ([...open.values()].every((n) => n === 0)) {
        if (syncedSomeData) {
          globalCursor = newGlobalCursor;
          // The read's duration in whole seconds, rounded up: the reference's runtime lookback.
          lookbackWindow = Math.max(1, Math.ceil((clockMs() - startedAt) / 1000));
        }
        parentState = options.routerState();
      }
      return stateMessage(name, state());
    },
    current: () => state(),
    shouldBeSynced(slice, record) {
      if (useGlobal) return fromGlobal().shouldBeSynced(record);
      return (cursors.get(partitionKey(slice.partition)) ?? fromGlobal()).shouldBeSynced(record);
    },
  };
}

/**
 * The reference's iterate_with_last_flag_and_state (ConcurrentPerPartitionCursor.stream_slices): each item with
 * `state()` as it was right after the item was pulled, given only once the next item has been pulled.
 */
async function* withStateAhead<T, S>(items: AsyncIterable<T>, state: () => S): AsyncGenerator<[T, S]> {
  const it = items[Symbol.asyncIterator]();
  try {
    let current = await it.next();
    if (current.done) return;
    let currentState = state();
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      yield [current.value, currentState];
      current = next;
      currentState = state();
    }
    yield [current.value, currentState];
  } finally {
    // A consumer that stops early (the slice limit, an error) closes the source too.
    await it.return?.();
  }
}

async function* noPartitions(): AsyncGenerator<never> {}

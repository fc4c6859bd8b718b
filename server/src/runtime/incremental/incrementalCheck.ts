// The incremental check: reads a stream, reads it again from the state the first read ended with, and a
// third time from the second's, then verifies what an incremental sync promises (docs/incremental.md):
// the later reads' records lie at or after their input state (less the lookback), the state never moves
// backwards, the third read asks for no data older than the second's state, and every state has the shape
// the CDK writes (airbyte_cdk/sources/streams/concurrent/cursor.py). Each violation names the records and requests behind it.
import { RuntimeError } from '../errors';
import { testRead } from '../testRead/testRead';
import type { StreamRead } from '../testRead/streamRead';
import type { TestReadEnv, TestReadLimits } from '../types';
import {
  describeIncrementalStream,
  findStreamDefinition,
  type CursorPoint,
  type IncrementalModel,
  type IncrementalStream,
} from './incrementalStream';
import { finalStateOf, stateMessageFor } from './readState';
import { stateShapeProblems } from './stateShape';
import { stateRegressions } from './stateOrder';
import { boundForPartition, partitionOfSlice, requestText } from './slicePartition';

type Obj = Record<string, unknown>;

export type CheckRule = 'records-before-state' | 'state-moved-backwards' | 'older-data-requested' | 'state-shape' | 'read-failed';

/** A record that breaks a rule: where it came from and the bound it broke. */
export type OffendingRecord = {
  read: number;
  slice: number;
  page: number;
  key: string;
  cursor_value: unknown;
  bound: string;
  request: string;
};
/** A request that breaks a rule (asks for data older than the state). */
export type OffendingRequest = { read: number; slice: number; request: string; window_start: string; bound: string };

export type Violation = {
  rule: CheckRule;
  /** The read (1–3) the violation was seen in. */
  read: number;
  message: string;
  /** At most MAX_LISTED of each; `count` is the full number. */
  records: OffendingRecord[];
  requests: OffendingRequest[];
  count: number;
};

export type CheckedRead = {
  read: number;
  input_state: Obj | null;
  final_state: Obj | null;
  records: number;
  pages: number;
  slices: number;
  errors: string[];
  /** Records of this read with no (parseable) cursor value: not checkable. */
  records_without_cursor: number;
};

export type IncrementalCheckReport = {
  stream: string;
  /** false: the stream has no incremental_sync (exit 2). */
  incremental: boolean;
  cursor: IncrementalStream | null;
  reads: CheckedRead[];
  /** One line per rule: whether it held. */
  checks: Array<{ rule: CheckRule; holds: boolean; detail: string }>;
  violations: Violation[];
  warnings: string[];
  holds: boolean;
};

export type IncrementalCheckOptions = {
  limits?: TestReadLimits;
  /** The first read's input state (the stream's state object); none by default. */
  initialState?: Obj | null;
  /** Called when each read starts and ends (progress). */
  onRead?: (read: number, phase: 'start' | 'done') => void;
};

/** How many offending records or requests a violation lists (the count says how many there were). */
export const MAX_LISTED = 10;

const describeModel = (m: IncrementalModel): IncrementalStream => {
  const { parse: _p, lowerBound: _l, show: _s, ...data } = m;
  return data;
};

/**
 * Runs the check on `streamName`. Throws RuntimeError when the manifest or the stream cannot be built
 * (config_error), never for a failing read: that is reported as a `read-failed` violation.
 */
export async function incrementalCheck(
  manifest: object,
  config: Obj,
  streamName: string,
  options: IncrementalCheckOptions = {},
  env: TestReadEnv = {},
): Promise<IncrementalCheckReport> {
  const found = await findStreamDefinition(manifest, config, streamName, env);
  if (!found)
    throw new RuntimeError(
      `Stream '${streamName}' is not defined in the manifest (nor resolved from its dynamic_streams).`,
      'config_error',
    );
  const model = describeIncrementalStream(found.root, found.stream, config, env);
  const report: IncrementalCheckReport = {
    stream: streamName,
    incremental: model.kind !== 'none',
    cursor: describeModel(model),
    reads: [],
    checks: [],
    violations: [],
    warnings: [],
    holds: false,
  };
  if (model.kind === 'none') return report;
  const primaryKey = keyPaths(found.stream.primary_key);

  const reads: StreamRead[] = [];
  let input: Obj | null = options.initialState ?? null;
  for (let n = 1; n <= 3; n++) {
    options.onRead?.(n, 'start');
    // Each read gets its own copy of the config: a rotated token written back stays in the caller's copy.
    let read: StreamRead;
    try {
      read = await testRead(manifest, config, streamName, options.limits ?? {}, {
        ...env,
        ...(input ? { state: [stateMessageFor(streamName, input)] } : {}),
      });
    } catch (e) {
      // The stream cannot start from this state (an unparsable cursor value): the CDK fails the same way.
      if (n === 1 && !input) throw e;
      report.reads.push({
        read: n,
        input_state: input,
        final_state: null,
        errors: [(e as Error).message],
        records: 0,
        pages: 0,
        slices: 0,
        records_without_cursor: 0,
      });
      report.violations.push({
        rule: 'read-failed',
        read: n,
        message: `read ${n} failed: ${(e as Error).message}`,
        records: [],
        requests: [],
        count: 1,
      });
      break;
    } finally {
      options.onRead?.(n, 'done');
    }
    reads.push(read);
    // A read with nothing left to read (the state reached the end) shows no slice; the CDK still ends it
    // with the state it started from.
    const final = read.slices.length === 0 && input && !read.logs.some((l) => l.level === 'ERROR') ? input : finalStateOf(read);
    if (read.slices.length === 0 && input)
      report.warnings.push(
        `read ${n} had nothing to read: its input state is at the cursor's end, so later reads cannot show records (lower --max-slices or move the end)`,
      );
    const errors = read.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
    report.reads.push({
      read: n,
      input_state: input,
      final_state: final,
      errors,
      records: read.slices.reduce((a, s) => a + s.pages.reduce((b, p) => b + p.records.length, 0), 0),
      pages: read.slices.reduce((a, s) => a + s.pages.length, 0),
      slices: read.slices.length,
      records_without_cursor: read.slices.reduce(
        (a, s) => a + s.pages.reduce((b, p) => b + p.records.filter((r) => model.parse(r[model.cursorField]) === null).length, 0),
        0,
      ),
    });
    if (errors.length) {
      report.violations.push({
        rule: 'read-failed',
        read: n,
        message: `read ${n} failed: ${errors[0]}`,
        records: [],
        requests: [],
        count: errors.length,
      });
      break;
    }
    if (!final) {
      report.violations.push({
        rule: 'read-failed',
        read: n,
        message: `read ${n} ended without a state message`,
        records: [],
        requests: [],
        count: 1,
      });
      break;
    }
    input = final;
  }

  // State shape: the input of read 1 (when given) and every state a read ended with.
  const shapeProblems: string[] = [];
  if (options.initialState) for (const p of stateShapeProblems(model, options.initialState)) shapeProblems.push(`input state: ${p}`);
  for (const r of report.reads)
    if (r.final_state) for (const p of stateShapeProblems(model, r.final_state)) shapeProblems.push(`state after read ${r.read}: ${p}`);
  if (shapeProblems.length)
    report.violations.push({
      rule: 'state-shape',
      read: 0,
      message: `the state does not have the shape the CDK writes: ${shapeProblems.slice(0, MAX_LISTED).join('; ')}`,
      records: [],
      requests: [],
      count: shapeProblems.length,
    });

  // Records at or after the input state, in reads 2 and 3.
  for (let i = 1; i < reads.length; i++) {
    const v = recordsBeforeState(model, reads[i], i + 1, report.reads[i].input_state, primaryKey);
    if (v) report.violations.push(v);
  }

  // The state never moves backwards: through each read's slices, and from each read to the next.
  const sequence: Array<{ label: string; state: Obj }> = [];
  if (options.initialState) sequence.push({ label: 'the input state', state: options.initialState });
  reads.forEach((r, i) => {
    r.slices.forEach((s, j) => {
      const st = (s.state[0] as { stream?: { stream_state?: Obj } } | undefined)?.stream?.stream_state;
      if (st && typeof st === 'object') sequence.push({ label: `read ${i + 1} slice ${j + 1}`, state: st });
    });
  });
  for (let i = 1; i < sequence.length; i++) {
    const back = stateRegressions(model, sequence[i - 1].state, sequence[i].state);
    if (back.length) {
      const read = Number(/read (\d)/.exec(sequence[i].label)?.[1] ?? 0);
      report.violations.push({
        rule: 'state-moved-backwards',
        read,
        message: `the state moved backwards from ${sequence[i - 1].label} to ${sequence[i].label}: ${back.slice(0, MAX_LISTED).join('; ')}`,
        records: [],
        requests: [],
        count: back.length,
      });
      break;
    }
  }

  // The third read asks for no data older than the second read's state (less the lookback).
  if (reads.length === 3) {
    const v = olderDataRequested(model, reads[2], report.reads[2].input_state);
    if (v) report.violations.push(v);
  }
  if (!model.isClientSideIncremental && !model.isDataFeed && model.kind === 'datetime') {
    for (let i = 1; i < reads.length; i++) {
      const missing = startNotSent(model, reads[i]);
      if (missing) report.warnings.push(`read ${i + 1}: ${missing}`);
    }
  }
  if (report.reads[0] && report.reads[0].records === 0)
    report.warnings.push(
      "read 1 returned no records: the state cannot move, so the check proves little (widen the config's start date or the limits)",
    );
  const unchecked = report.reads.slice(1).reduce((a, r) => a + r.records_without_cursor, 0);
  if (unchecked)
    report.warnings.push(
      `${unchecked} record${unchecked === 1 ? '' : 's'} of reads 2–3 had no parseable ${model.cursorField} and could not be checked`,
    );

  const rules: Array<[CheckRule, string]> = [
    ['read-failed', 'three reads completed, each ending with a state'],
    [
      'records-before-state',
      `the records of reads 2 and 3 lie at or after their input state${model.lookbackWindow ? ` less the lookback ${model.lookbackWindow}` : ''}`,
    ],
    ['state-moved-backwards', 'the state never moves backwards'],
    ['older-data-requested', "read 3 asks for no data older than read 2's state"],
    ['state-shape', 'every state has the shape the CDK writes'],
  ];
  report.checks = rules.map(([rule, detail]) => ({ rule, holds: !report.violations.some((v) => v.rule === rule), detail }));
  report.holds = report.violations.length === 0;
  return report;
}

/** Records of `read` (number `n`) whose cursor value lies before the bound its input state sets for their partition. */
function recordsBeforeState(
  model: IncrementalModel,
  read: StreamRead,
  n: number,
  input: Obj | null,
  primaryKey: string[][],
): Violation | null {
  if (!input) return null;
  const offending: OffendingRecord[] = [];
  let count = 0;
  read.slices.forEach((slice, si) => {
    const bound = boundForPartition(model, input, partitionOfSlice(model, slice.slice_descriptor));
    if (!bound) return;
    slice.pages.forEach((page, pi) => {
      for (const record of page.records) {
        const value = record[model.cursorField];
        const point = model.parse(value);
        if (!point || compare(point, bound) >= 0) continue;
        count++;
        if (offending.length < MAX_LISTED)
          offending.push({
            read: n,
            slice: si + 1,
            page: pi + 1,
            key: recordKey(record, primaryKey),
            cursor_value: value,
            bound: model.show(bound),
            request: requestText(page.request),
          });
      }
    });
  });
  if (!count) return null;
  const first = offending[0];
  return {
    rule: 'records-before-state',
    read: n,
    records: offending,
    requests: [],
    count,
    message: `read ${n} returned ${count} record${count === 1 ? '' : 's'} older than its input state allows (${model.cursorField} before ${first.bound}${model.lookbackWindow ? `, lookback ${model.lookbackWindow} included` : ''}): the API ignored the window's start, or the start is not sent`,
  };
}

/** Slices of the third read whose window starts before the bound of the second read's state. */
function olderDataRequested(model: IncrementalModel, read: StreamRead, input: Obj | null): Violation | null {
  if (!input) return null;
  const offending: OffendingRequest[] = [];
  let count = 0;
  read.slices.forEach((slice, si) => {
    const bound = boundForPartition(model, input, partitionOfSlice(model, slice.slice_descriptor));
    const descriptor = typeof slice.slice_descriptor === 'object' && slice.slice_descriptor ? slice.slice_descriptor : {};
    const start = model.parse(descriptor[model.startKey]);
    if (!bound || !start || compare(start, bound) >= 0) return;
    count++;
    if (offending.length < MAX_LISTED)
      offending.push({
        read: 3,
        slice: si + 1,
        request: requestText(slice.pages[0]?.request ?? null),
        window_start: String(descriptor[model.startKey]),
        bound: model.show(bound),
      });
  });
  if (!count) return null;
  return {
    rule: 'older-data-requested',
    read: 3,
    records: [],
    requests: offending,
    count,
    message: `read 3 asked for data from ${offending[0].window_start}, before read 2's state allows (${offending[0].bound})`,
  };
}

/** Why the window start seems not to reach the API: no request of a slice carries its start value. */
function startNotSent(model: IncrementalModel, read: StreamRead): string | null {
  for (const slice of read.slices) {
    const descriptor = typeof slice.slice_descriptor === 'object' && slice.slice_descriptor ? slice.slice_descriptor : {};
    const start = descriptor[model.startKey];
    if (typeof start !== 'string' || !slice.pages.length) continue;
    if (!slice.pages.some((p) => requestCarries(p.request, start))) {
      return `no request of the slice starting ${start} carries that start (not in the URL, body or headers): unless a template reformats it, the API is not told where to start (set start_time_option)`;
    }
  }
  return null;
}

function requestCarries(request: StreamRead['slices'][number]['pages'][number]['request'], value: string): boolean {
  if (!request) return false;
  let url = request.url;
  try {
    url = decodeURIComponent(request.url.replace(/\+/g, ' '));
  } catch {
    // keep the raw URL
  }
  const texts = [request.url, url, request.body ?? '', ...Object.values(request.headers ?? {})];
  return texts.some((t) => t.includes(value));
}

function compare(a: CursorPoint, b: CursorPoint): number {
  if (a.kind === 'datetime' && b.kind === 'datetime') return a.dt.compare(b.dt);
  if (a.kind === 'count' && b.kind === 'count') return a.n - b.n;
  return 0;
}

function keyPaths(pk: unknown): string[][] {
  if (typeof pk === 'string') return [[pk]];
  if (!Array.isArray(pk)) return [];
  return pk.map((k) => (Array.isArray(k) ? k.map(String) : [String(k)]));
}

/** `id=5` (the primary key's values), or the record's JSON when the stream has no primary key. */
function recordKey(record: Obj, primaryKey: string[][]): string {
  if (!primaryKey.length) {
    const text = JSON.stringify(record);
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  }
  return primaryKey
    .map((path) => {
      let v: unknown = record;
      for (const seg of path) v = v && typeof v === 'object' ? (v as Obj)[seg] : undefined;
      return `${path.join('.')}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
    })
    .join(' ');
}

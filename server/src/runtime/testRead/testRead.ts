// testRead (docs/runtime.md, §10): resolves the manifest, reads one stream within the test-read limits
// and returns the Connector Builder's StreamRead with every secret masked (§11). Errors during the
// read become ERROR logs next to what was read; errors building the stream are thrown.
import type { AuxiliaryRequest, HttpRequest, HttpResponse, TestReadEnv, TestReadLimits } from '../types';
import { configError, RuntimeError } from '../errors';
import { resolveManifest } from '../manifest/resolve';
import { parseVersion } from '../schema/versions';
import { isEmptySlice, type StreamSlice } from '../records/streamSlice';
import { findStreamState, type StateMessage } from './streamCursor';
import { SecretMasker } from './masking';
import { RecordSelectionError } from '../records/recordAsDict';
import { redirectsOf } from '../http/transport';
import { RequestFailedError } from '../http/requester';
import { SchemaInferrer } from './schemaInference';
import { configValidationError, specSchemaError } from './configValidation';
import { buildStream } from './retriever';
import { deprecationWarnings } from './deprecations';
import { resolveDynamicStreams } from './dynamicStreams';
import type { LogLevel, ReadContext, ResolvedLimits } from './readContext';
import type {
  AuxiliaryRequestEntry,
  LogMessage,
  ReadRequest,
  ReadResponse,
  StreamRead,
  StreamReadPage,
  StreamReadSlice,
  TestReadProgress,
} from './streamRead';
import { closeTrace, showTrace, type PageTrace } from './paginationTrace';
import { configRuleViolation, normalizeConfig } from '../config/configNormalization';
import { skippedReason, streamDefinitions } from './streamDefinitions';
import { notRunnableIn } from '../schema/runnability';
import { createApiBudget } from '../http/apiBudget';

export type { StreamRead } from './streamRead';

/** ERROR logs that explain a read which still went on (an undecodable body yields no records): the CLI does not fail on them. */
const READ_WENT_ON = new WeakSet<object>();

/** Whether a log of a StreamRead is an ERROR after which the read went on (see READ_WENT_ON). */
export function readWentOnAfter(log: LogMessage): boolean {
  return READ_WENT_ON.has(log);
}

/** Spec §10.2 defaults. */
export const DEFAULT_TEST_READ_LIMITS: ResolvedLimits = { maxRecords: 100, maxPagesPerSlice: 5, maxSlices: 5 };

/**
 * Reads `streamName` as the Connector Builder's test read does. Throws RuntimeError (config_error)
 * when the manifest cannot be resolved, the limits are invalid or the stream cannot be built.
 */
export async function testRead(
  manifest: object,
  config: object,
  streamName: string,
  limits: TestReadLimits = {},
  env: TestReadEnv = {},
): Promise<StreamRead> {
  const resolvedLimits = checkLimits(limits);
  const resolved = resolveManifest(manifest);
  const broken = resolved.problems.filter((p) => p.severity === 'error');
  if (broken.length)
    throw configError(
      `The manifest cannot be resolved: ${broken
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}`,
    );
  const root = resolved.value as Record<string, unknown>;
  // The reference reads with the config after the spec's migrations and transformations.
  let cfg: Record<string, unknown>;
  try {
    cfg = normalizeConfig(root.spec, config as Record<string, unknown>, env).config;
  } catch (e) {
    throw maskError(e, new SecretMasker());
  }
  const masker = env.masker ?? new SecretMasker();
  masker.addFromManifest(root, config as Record<string, unknown>);
  masker.addFromManifest(root, cfg);

  const logs: LogMessage[] = [];
  const auxiliary: AuxiliaryRequestEntry[] = [];
  const progress = (e: TestReadProgress) => {
    try {
      env.onProgress?.(e);
    } catch {
      /* a failing listener must not break the read */
    }
  };
  const log = (level: LogLevel, message: string, error?: unknown, internal?: string, readWentOn = false) => {
    const masked = masker.maskText(message);
    if (level === 'WARN' && logs.some((l) => l.level === 'WARN' && l.message === masked)) return;
    const stack = error instanceof Error && error.stack ? masker.maskText(error.stack) : null;
    const entry: LogMessage = {
      message: masked,
      level,
      internal_message: error ? (internal !== undefined ? masker.maskText(internal) : masked) : null,
      stacktrace: stack,
    };
    if (readWentOn) READ_WENT_ON.add(entry);
    logs.push(entry);
    progress({ type: 'log', level, message: masked });
  };
  let latestConfig: Record<string, unknown> | null = null;
  const readEnv: TestReadEnv = {
    ...env,
    onConfigUpdate: (updated) => {
      // New tokens written back are secrets too: re-collect them from the updated config.
      masker.addFromManifest(root, updated);
      latestConfig = Object.fromEntries(Object.entries(updated).filter(([k]) => !k.startsWith('__')));
      env.onConfigUpdate?.(updated);
    },
  };
  const rc: ReadContext = {
    manifest: root,
    config: cfg,
    env: readEnv,
    limits: resolvedLimits,
    masker,
    log,
    inputState: (stream) => findStreamState(env.state, stream),
    requestOptionCompat: { manifestVersion: parseVersion(root.version), warn: (message) => log('WARN', message) },
    aux(entry: AuxiliaryRequest, parentStream: string | null) {
      const e: AuxiliaryRequestEntry = parentStream
        ? { ...entry, title: `Parent stream: ${entry.title}`, type: 'PARENT_STREAM' }
        : { ...entry };
      auxiliary.push(masker.maskValue(e));
      progress({ type: 'auxiliary_request', title: e.title, requestType: e.type, status: e.response?.status ?? null });
    },
  };

  const result = (slices: StreamReadSlice[], limitReached: boolean, inferrer: SchemaInferrer | null, required: string[][]): StreamRead => {
    const inferred = inferrer ? inferrer.schema(required) : { schema: null, errors: [] };
    // The Builder appends the deprecation warnings after the read's logs, before the schema's errors.
    for (const w of deprecationWarnings(root)) log('WARN', w);
    for (const e of inferred.errors) log('ERROR', e);
    return {
      logs,
      slices,
      test_read_limit_reached: limitReached,
      auxiliary_requests: auxiliary,
      inferred_schema: inferred.schema,
      inferred_datetime_formats: inferrer ? inferrer.datetimeFormats() : {},
      latest_config_update: latestConfig ? masker.maskValue(latestConfig) : null,
    };
  };

  // A spec that is not a valid JSON schema stops the reference's config check itself (jsonschema's SchemaError,
  // logged as it is, nothing read).
  const badSpec = specSchemaError((root.spec as Record<string, unknown> | undefined)?.connection_specification);
  if (badSpec !== null) {
    log('ERROR', badSpec);
    return result([], false, null, []);
  }
  // The reference checks the config against the spec before reading anything (config error).
  const invalid = configValidationError((root.spec as Record<string, unknown> | undefined)?.connection_specification, cfg);
  if (invalid !== null) {
    log('ERROR', `Config validation error: ${invalid}`);
    return result([], false, null, []);
  }

  // The spec's config validations run when the reference builds the streams: a violation fails the
  // whole read (the reference's test read raises, as for a stream that cannot be built).
  const violation = configRuleViolation(root.spec, cfg, env);
  if (violation !== null) throw maskError(configError(violation), masker);
  const definitions = streamDefinitions(root, cfg, env);
  const streams = definitions.streams.map((d) => d.stream);
  let stream = streams.find((s) => s && s.name === streamName);
  let dynamicNames: string[] = [];
  if (!stream && Array.isArray(root.dynamic_streams) && root.dynamic_streams.length) {
    // As airbyte_cdk/sources/declarative/resolvers/: dynamic streams are resolved and appended to the static ones, so a
    // test read can target one by its resolved name. Only resolved when the name is not a static one.
    let dynamic;
    try {
      dynamic = await resolveDynamicStreams(root, rc);
    } catch (e) {
      throw maskError(e, masker);
    }
    stream = dynamic.find((d) => d.name === streamName)?.stream;
    dynamicNames = dynamic.map((d) => d.name);
  }
  if (!stream) {
    const skipped = skippedReason(definitions.skipped, streamName);
    if (skipped) {
      log('ERROR', skipped);
      return result([], false, null, []);
    }
    const names = [...streams.map((s) => String(s?.name)).filter(Boolean), ...dynamicNames];
    log(
      'ERROR',
      `Stream '${streamName}' is not defined in the manifest${Array.isArray(root.dynamic_streams) && root.dynamic_streams.length ? ' (nor resolved from its dynamic_streams)' : ''}${names.length ? `; streams: ${names.join(', ')}` : ''}.`,
    );
    return result([], false, null, []);
  }

  // A component this runtime does not run stops the read here, with the reason the editor shows on it.
  const blocked = notRunnableIn(stream, Boolean(findStreamState(env.state, streamName)));
  if (blocked)
    throw configError(
      `Stream '${streamName}' is not runnable in a test read: ${blocked.reason} (${blocked.type} at ${blocked.path.join('.')}).`,
    );

  let built;
  try {
    rc.apiBudget = createApiBudget(root.api_budget, cfg, readEnv, (message) => log('INFO', message));
    built = buildStream(stream, rc);
  } catch (e) {
    throw maskError(e, masker);
  }
  progress({ type: 'start', stream: streamName });

  const slices: StreamReadSlice[] = [];
  const inferrer = new SchemaInferrer();
  let totalRecords = 0;
  let totalPages = 0;
  let limitReached = false;
  const streamCursor = built.slicer.state;
  let latestState: StateMessage | null = null;
  // The reference's entrypoint writes into each state message the records emitted since the previous one.
  let sinceState = 0;
  const counted = (m: StateMessage | null): StateMessage | null => {
    if (!m) return null;
    const out = { ...m, sourceStats: { recordCount: sinceState } };
    sinceState = 0;
    return out;
  };
  // Pagination trace: every shown page with its trace, and the last page of the slice being read.
  const traced: Array<{ page: StreamReadPage; trace: PageTrace }> = [];
  let sliceLast: PageTrace | null = null;
  const cancelled = () => env.signal?.aborted === true;
  // A few failures end the whole read in the reference (raised in its main thread, not in a partition).
  let readEnded = false;
  const failed = (e: unknown) => {
    if (e instanceof RecordSelectionError && e.endsRead) readEnded = true;
    if (cancelled()) return log('ERROR', 'The read was cancelled.', e);
    const detail = `Reading stream '${streamName}' failed: ${(e as Error).message}`;
    // A failed request is logged in the reference's words; where it went and what the API said stay in internal_message.
    if (e instanceof RequestFailedError && e.referenceMessage) log('ERROR', e.referenceMessage, e, detail);
    else log('ERROR', detail, e);
  };
  // One worker, as in the Builder: every slice (up to max_slices, parent streams read) exists before the
  // first data request, and per-partition cursors are created for all of them (airbyte_cdk/sources/declarative/concurrent_declarative_source.py).
  // A failure while making them ends slicing; the slices made so far are still read (as the reference's
  // partitions already generated are).
  const planned: StreamSlice[] = [];
  // Whether the last slice read is shown: the final state only reaches the result on a shown last slice.
  let lastShown = true;
  try {
    for await (const slice of built.slicer.slices()) {
      planned.push(slice);
      if (planned.length >= resolvedLimits.maxSlices) break;
    }
  } catch (e) {
    failed(e);
  }
  for (const slice of planned) {
    if (cancelled() || readEnded) break;
    const descriptor = built.descriptorOf
      ? masker.maskValue(built.descriptorOf(slice))
      : isEmptySlice(slice)
        ? '{}'
        : masker.maskValue({ ...slice.partition, ...slice.cursor_slice });
    const current: StreamReadSlice = { pages: [], slice_descriptor: descriptor, state: [], auxiliary_requests: [] };
    slices.push(current);
    progress({ type: 'slice', slice: slices.length - 1, descriptor });
    const sliceAux = (entry: AuxiliaryRequest) => {
      const masked = masker.maskValue({ ...entry }) as AuxiliaryRequestEntry;
      current.auxiliary_requests.push(masked);
      progress({ type: 'auxiliary_request', title: masked.title, requestType: masked.type, status: masked.response?.status ?? null });
    };
    sliceLast = null;
    let sliceEnd = 'the read ended here';
    try {
      for await (const page of built.readSlice(slice, sliceAux)) {
        let records = page.records;
        const room = resolvedLimits.maxRecords - totalRecords;
        if (records.length > room) records = records.slice(0, room);
        totalRecords += records.length;
        sinceState += records.length;
        totalPages++;
        for (const r of records) {
          inferrer.add(r);
          streamCursor.observe(slice, r);
        }
        // A request that got no response at all (a network error) is not a page in the Builder: only its error is logged.
        if (page.error instanceof RequestFailedError && page.response === null && page.error.referenceMessage !== null) throw page.error;
        const shown: StreamReadPage = {
          records: masker.maskValue(records),
          request: showRequest(page.request, masker),
          response: showResponse(page.response, masker),
        };
        current.pages.push(shown);
        if (page.trace) {
          traced.push({ page: shown, trace: page.trace });
          sliceLast = page.trace;
        }
        progress({
          type: 'page',
          slice: slices.length - 1,
          page: current.pages.length - 1,
          method: page.request.method,
          url: masker.maskText(page.request.url),
          status: page.response?.status ?? null,
          records: records.length,
          totalRecords,
        });
        if (page.error) throw page.error;
        if (current.pages.length >= resolvedLimits.maxPagesPerSlice) limitReached = true;
        if (totalRecords >= resolvedLimits.maxRecords) {
          sliceEnd = `record limit of the test read (${resolvedLimits.maxRecords}) reached${records.length < page.records.length ? `: ${records.length} of the page's ${page.records.length} records kept` : ''}`;
          break;
        }
      }
      // The loop stopped the slice itself (record limit) while the page loop waited after a page.
      if (sliceLast) closeTrace(sliceLast, sliceEnd);
      // Each slice shows the latest state message emitted so far (§6.1); the last one gets the final state.
      latestState = counted(streamCursor.close(slice)) ?? latestState;
    } catch (e) {
      // As the reference's concurrent read: a failed partition is logged and not closed (its state does
      // not move on), and the next partitions are still read.
      failed(e);
      if (sliceLast) closeTrace(sliceLast, cancelled() ? 'the read was cancelled' : `the read failed: ${(e as Error).message}`);
      // The Builder groups messages into slices by their first page: a slice that failed before any
      // request (a template error in its URL) is not shown, its descriptor gives way to the next one's.
      if (current.pages.length === 0 && current.auxiliary_requests.length === 0) {
        slices.pop();
        lastShown = false;
        continue;
      }
    }
    lastShown = true;
    current.state = latestState ? [masker.maskValue(latestState)] : [];
    if (readEnded) break;
    if (totalRecords >= resolvedLimits.maxRecords) {
      limitReached = true;
      break;
    }
  }
  if (env.paginationTrace === true) {
    for (const { page, trace } of traced) page.pagination_trace = showTrace(trace, page.records.length, masker);
  }
  // The stream's end always emits a state (ensure_at_least_one_state_emitted), after failures too.
  if (cancelled()) {
    if (!logs.some((l) => l.message === 'The read was cancelled.')) log('ERROR', 'The read was cancelled.');
  } else if (!readEnded) {
    try {
      latestState = counted(streamCursor.finish()) as StateMessage;
      if (slices.length && lastShown) slices[slices.length - 1].state = [masker.maskValue(latestState)];
    } catch (e) {
      failed(e);
    }
  }
  // §10.3: the slice limit counts the slices shown (a slice that failed before any request is not).
  if (slices.length >= resolvedLimits.maxSlices) limitReached = true;
  progress({ type: 'done', slices: slices.length, pages: totalPages, records: totalRecords, limitReached });
  return result(slices, limitReached, totalRecords > 0 ? inferrer : null, [...built.primaryKey, ...built.cursorField]);
}

function checkLimits(limits: TestReadLimits): ResolvedLimits {
  const out = { ...DEFAULT_TEST_READ_LIMITS };
  for (const key of ['maxRecords', 'maxPagesPerSlice', 'maxSlices'] as const) {
    const v = limits[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
      throw configError(`Test-read limit ${key} must be an integer of at least 1, got ${JSON.stringify(v)}.`);
    out[key] = v;
  }
  return out;
}

function showRequest(r: HttpRequest, masker: SecretMasker): ReadRequest {
  return masker.maskValue({ url: r.url, headers: r.headers, http_method: r.method, body: r.body });
}

function showResponse(r: HttpResponse | null, masker: SecretMasker): ReadResponse | null {
  if (!r) return null;
  const redirects = redirectsOf(r);
  return masker.maskValue({ status: r.status, body: r.body, headers: r.headers, ...(redirects ? { redirects } : {}) });
}

function maskError(e: unknown, masker: SecretMasker): RuntimeError {
  if (e instanceof RuntimeError) {
    const masked = new RuntimeError(masker.maskText(e.message), e.failureType, {
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.kind !== undefined ? { kind: e.kind } : {}),
    });
    return masked;
  }
  return new RuntimeError(masker.maskText((e as Error)?.message ?? String(e)), 'system_error');
}

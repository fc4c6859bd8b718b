// One stream's SimpleRetriever for a test read: builds requester, authenticator, paginator, selector
// and slicer from the resolved stream, then runs the page loop of §7.7 slice by slice as a generator,
// so the caller stops reading simply by not asking for more.
import type { RequestParts } from '../types';
import { configError, RuntimeError } from '../errors';
import { createAuthenticator } from '../auth';
import { createHttpRequester, type HttpRequester, type RequestInput } from '../http/requester';
import { safeUrl } from '../http/transport';
import { createPaginator, type Paginator } from '../pagination/defaultPaginator';
import { createRecordSelector, type RecordSelector } from '../records/recordSelector';
import type { StreamSlice } from '../records/streamSlice';
import { createSlicer } from './partitions';
import type { BuiltStream } from './builtStream';
import { requestPage, wrapToken, type PageOutcome, type PageResult } from './pageRequest';
import { deepMerge, queryPropertiesOf, type QueryProperties } from './queryProperties';
import { createPaginationReset, type SliceResets } from './paginationReset';
import { openTrace, traceNext, traceStop, type PageTrace } from './paginationTrace';
import type { ReadContext } from './readContext';
import { buildAsyncStream } from './asyncRetriever';
import { recordsOfStream } from './streamRecords';
import { retentionExpired, retentionPeriod } from './stateRetention';
import { createFileUploader, type FileUploader } from './fileUploader';

export type { PageResult } from './pageRequest';

type Obj = Record<string, unknown>;

/**
 * Builds a stream; `parentOf` is set when the stream is read as the parent of a substream, and `parentState`
 * is then its input state (incremental_dependency). The stream being read takes its own from the read's input.
 */
export function buildStream(stream: Obj, rc: ReadContext, parentOf: string | null = null, parentState: Obj | null = null): BuiltStream {
  const inputState = parentOf ? parentState : (rc.inputState?.(String(stream.name ?? '')) ?? null);
  const name = String(stream.name ?? '');
  if (stream.type === 'StateDelegatingStream') {
    // The reference builds the incremental stream when the read has a state for it, else the full-refresh one.
    const hasState = Boolean(inputState && Object.keys(inputState).length);
    // api_retention_period: the stream read (not a parent) falls back to a full refresh from an empty state
    // when its state is older than the period the API keeps.
    const period = retentionPeriod(stream, rc);
    const expired = hasState && !parentOf && period !== null && retentionExpired(stream, period, inputState as Obj, rc);
    const incremental = hasState && !expired;
    const delegate = (incremental ? stream.incremental_stream : stream.full_refresh_stream) as Obj | undefined;
    if (!delegate || typeof delegate !== 'object')
      throw configError(`Stream '${name}': StateDelegatingStream needs ${incremental ? 'incremental_stream' : 'full_refresh_stream'}.`);
    const delegateContext: ReadContext = expired ? { ...rc, inputState: (s) => (s === name ? null : (rc.inputState?.(s) ?? null)) } : rc;
    return buildStream({ ...delegate, name }, delegateContext, parentOf, parentState);
  }
  const retriever = stream.retriever as Obj | undefined;
  if (!retriever) throw configError(`Stream '${name}' has no retriever.`);
  if (retriever.type === 'AsyncRetriever')
    return buildAsyncStream(stream, retriever, rc, parentOf, (parent, state) => buildStream(parent, rc, name, state), inputState);
  if (retriever.type !== 'SimpleRetriever') {
    throw configError(
      `Stream '${name}' uses ${String(retriever.type)}, which this runtime cannot run (SimpleRetriever and AsyncRetriever only).`,
    );
  }
  const requesterComponent = retriever.requester as Obj | undefined;
  if (!requesterComponent || requesterComponent.type !== 'HttpRequester') {
    // A type that is not a name (a mapping left by broken YAML) is described, never printed as [object Object].
    const got = requesterComponent?.type;
    const described =
      got === undefined || got === null || got === ''
        ? ''
        : typeof got === 'string'
          ? ` (got ${got})`
          : ` (its type is a ${Array.isArray(got) ? 'list' : typeof got === 'object' ? 'mapping' : typeof got}, not a component name)`;
    throw configError(`Stream '${name}': the retriever's requester must be an HttpRequester${described}.`);
  }
  const parameters = (requesterComponent.$parameters as Obj) ?? {};
  const env = rc.env;
  const authenticator = createAuthenticator(
    requesterComponent.authenticator as object | undefined,
    rc.config,
    {
      urlBase: (requesterComponent.url ?? requesterComponent.url_base) as string | undefined,
      parameters: ((requesterComponent.authenticator as Obj | undefined)?.$parameters as object) ?? parameters,
      onAuxiliaryRequest: (entry) => rc.aux(entry, parentOf ? name : null),
      onSecret: (v) => rc.masker.add(v),
      // A test read does not retry, its login and token requests included (§10), like its data requests.
      disableRetries: rc.retries !== true,
      requestOptionCompat: rc.requestOptionCompat,
    },
    env,
  );
  const requester: HttpRequester = createHttpRequester(
    requesterComponent,
    rc.config,
    { parameters, authenticator, disableRetries: rc.retries !== true, signal: env.signal, apiBudget: rc.apiBudget },
    env,
  );
  const slicer = createSlicer(retriever, stream, rc, (parent, state) => buildStream(parent, rc, name, state), inputState);
  const cursor = slicer.cursor;
  const isDataFeed = cursor?.isDataFeed === true;
  if (isDataFeed && cursor?.isClientSideIncremental) {
    rc.log(
      'WARN',
      `Stream ${name}: \`is_client_side_incremental\` adds no record filtering when \`is_data_feed\` is set, as a data feed already filters on the cursor value. It still makes the record selector apply the transformations before the \`record_filter\` condition.`,
    );
  }
  const selectorComponent = retriever.record_selector as Obj | undefined;
  const decoder = retriever.decoder as Obj | undefined;
  // Client-side incremental (§4): the cursor check runs in the selector, before the condition, on transformed records.
  const selector: RecordSelector = createRecordSelector(
    selectorComponent,
    decoder,
    stream.transformations,
    rc.config,
    (selectorComponent?.$parameters as Obj) ?? {},
    env,
    {
      transformFirstByDefault: cursor?.isClientSideIncremental === true,
      keep: cursor?.isClientSideIncremental && !isDataFeed ? (record, slice) => slicer.state.shouldBeSynced(slice, record) : undefined,
    },
    rc.recordsOfStream === false ? null : recordsOfStream(name, stream.schema_loader, selectorComponent, rc),
  );
  const paginatorComponent = retriever.paginator as Obj | undefined;
  const paginator: Paginator = createPaginator(
    paginatorComponent,
    rc.config,
    {
      urlBase: requester.urlBase,
      decoder,
      recordExtractor: selectorComponent?.extractor as object | undefined,
      testReadMaxPages: rc.limits.maxPagesPerSlice,
      parameters: (paginatorComponent?.$parameters as Obj) ?? {},
      requestOptionCompat: rc.requestOptionCompat,
    },
    env,
  );
  warnLastRecords(paginatorComponent, rc);
  const paginationReset = createPaginationReset(retriever, name, slicer.cursor, rc);
  const ignoreSlicerOnPaginated = retriever.ignore_stream_slicer_parameters_on_paginated_requests === true;
  const fileUploader =
    stream.file_uploader && typeof stream.file_uploader === 'object' ? createFileUploader(stream.file_uploader as Obj, name, rc) : null;
  /** One request of the page loop; with a file_uploader, each selected record's file is downloaded before the next record is selected. */
  async function fetchPage(input: RequestInput): Promise<PageOutcome> {
    const outcome = await requestPage(requester, selector, input, name, rc);
    return fileUploader ? uploadFiles(outcome, fileUploader) : outcome;
  }
  const queryProperties = queryPropertiesOf(requesterComponent, name, rc, (properties) => buildStream(properties, rc, name));

  /**
   * One page of a stream with QueryProperties: a request per chunk of properties (the slice's extra fields
   * are only the chunk, as in the reference), records without a merge key emitted with their chunk's page,
   * merged records after the last chunk's. A failing chunk ends the page there (merged records are lost).
   */
  async function chunkRequests(
    qp: QueryProperties,
    current: StreamSlice,
    token: { next_page_token: unknown } | null,
    slicerParts: RequestParts[],
  ): Promise<{ before: PageResult[]; last: PageOutcome; records: Record<string, unknown>[] }> {
    const chunks = await qp.chunks();
    const before: PageResult[] = [];
    const merged = new Map<string, Record<string, unknown>>();
    const emitted: Record<string, unknown>[] = [];
    for (let i = 0; ; i++) {
      const chunkSlice: StreamSlice = {
        partition: current.partition,
        cursor_slice: current.cursor_slice,
        extra_fields: { query_properties: chunks[i] },
      };
      const outcome = await fetchPage({
        slice: chunkSlice,
        nextPageToken: token,
        retrieverParts: [paginator.requestOptions(token), ...slicerParts],
      });
      const own: Record<string, unknown>[] = [];
      let failure: RuntimeError | null = null;
      try {
        for (const record of outcome.page.records) {
          const key = qp.merges ? qp.mergeKey(record) : null;
          if (key === null) {
            own.push(record);
            continue;
          }
          let target = merged.get(key);
          if (!target) merged.set(key, (target = {}));
          deepMerge(target, record);
        }
      } catch (e) {
        if (!(e instanceof RuntimeError)) throw e;
        failure = e;
      }
      emitted.push(...own);
      if (failure)
        return {
          before,
          last: { page: { ...outcome.page, records: own, error: failure }, exchange: null, ignored: false },
          records: emitted,
        };
      if (!outcome.exchange) return { before, last: { ...outcome, page: { ...outcome.page, records: own } }, records: emitted };
      if (i === chunks.length - 1) {
        const mergedRecords = [...merged.values()];
        emitted.push(...mergedRecords);
        return { before, last: { ...outcome, page: { ...outcome.page, records: [...own, ...mergedRecords] } }, records: emitted };
      }
      before.push({ ...outcome.page, records: own });
    }
  }

  async function* readSlice(slice: StreamSlice): AsyncGenerator<PageResult> {
    // Spec §7.8: every page of every attempt belongs to this slice; an attempt may narrow its cursor range.
    const attempts = paginationReset.forSlice(slice);
    let token = wrapToken(paginator.initialToken());
    for (;;) {
      if (env.signal?.aborted) throw new RuntimeError('The read was cancelled.', 'system_error');
      const current = attempts.slice;
      const slicerParts: RequestParts[] = token && ignoreSlicerOnPaginated ? [] : [slicer.requestParts(current)];
      let outcome: PageOutcome;
      // What the paginator and the pagination reset see of this page: with QueryProperties, every record
      // emitted over the page's chunk requests (the merged ones last), as the reference's _read_pages.
      let pageRecords: Record<string, unknown>[];
      if (queryProperties) {
        const step = await chunkRequests(queryProperties, current, token, slicerParts);
        for (const page of step.before) {
          // A chunk page: the next request is the next chunk, with the same page token.
          const chunkTrace = openTrace(token);
          Object.assign(chunkTrace, { tokenOut: chunkTrace.tokenIn, nextRequested: true, stopReason: null, settled: true });
          yield {
            ...page,
            ...(isDataFeed ? { records: page.records.filter((r) => slicer.state.shouldBeSynced(slice, r)) } : {}),
            trace: chunkTrace,
          };
        }
        outcome = step.last;
        pageRecords = step.records;
      } else {
        outcome = await fetchPage({
          slice: current,
          nextPageToken: token,
          retrieverParts: [paginator.requestOptions(token), ...slicerParts],
        });
        pageRecords = outcome.page.records;
      }
      const records = outcome.page.records;
      const trace = openTrace(token);
      // The test read stops at a failed page without resuming this loop: its trace is settled first.
      if (!outcome.exchange) traceStop(trace, `the page failed: ${outcome.page.error?.message ?? 'no response'}`);
      else if (outcome.ignored)
        traceStop(trace, `HTTP ${outcome.exchange.response.status} ignored by the error handler (action IGNORE): the slice ends`);
      // A data feed (§3) drops the records the cursor would not sync after the paginator has seen them all.
      yield { ...outcome.page, ...(isDataFeed ? { records: records.filter((r) => slicer.state.shouldBeSynced(slice, r)) } : {}), trace };
      if (!outcome.exchange) return;
      const { response, resolution } = outcome.exchange;
      attempts.observe(pageRecords);
      // Spec §7.7 order: a reset signal, then a falsy response, then the reset limit, then the next token.
      if (resolution.action === 'RESET_PAGINATION') {
        resetAttempt(
          attempts,
          trace,
          `the error handler answered RESET_PAGINATION to HTTP ${response.status} from ${safeUrl(outcome.page.request.url)}`,
        );
        // A new initial token also restarts the test-read page cap (§7.10).
        token = wrapToken(paginator.initialToken());
        continue;
      }
      if (outcome.ignored) return;
      if (attempts.limitReached()) {
        resetAttempt(
          attempts,
          trace,
          `this attempt read ${paginationReset.recordLimit} records (pagination_reset.limits.number_of_records)`,
        );
        token = wrapToken(paginator.initialToken());
        continue;
      }
      const previous = token ? token.next_page_token : null;
      const last = pageRecords.length ? pageRecords[pageRecords.length - 1] : null;
      // A data feed stops paginating at a page whose last record is already synced (or beyond the end).
      if (isDataFeed && last && !slicer.state.shouldBeSynced(slice, last)) {
        traceStop(trace, `is_data_feed: the page's last record is outside the cursor's range (already synced), so the feed stops here`);
        return;
      }
      let next: unknown;
      try {
        next = paginator.nextPageToken(response, pageRecords.length, last, previous, pageRecords);
      } catch (e) {
        traceStop(trace, paginator.stopReason() ?? `computing the next page token failed: ${(e as Error).message}`);
        throw e;
      }
      if (next === null || next === undefined) {
        traceStop(trace, paginator.stopReason() ?? 'the paginator returned no next page token');
        return;
      }
      token = next as { next_page_token: unknown };
      traceNext(trace, token);
    }
  }

  return { name, primaryKey: keyPaths(stream.primary_key), cursorField: cursorPaths(stream), slicer, readSlice };
}

/** Uploads the page's records in order; a failed upload ends the page after the records before it. */
async function uploadFiles(outcome: PageOutcome, uploader: FileUploader): Promise<PageOutcome> {
  const records = outcome.page.records;
  for (let i = 0; i < records.length; i++) {
    try {
      await uploader.upload(records[i]);
    } catch (e) {
      if (!(e instanceof RuntimeError)) throw e;
      return { page: { ...outcome.page, records: records.slice(0, i), error: e }, exchange: null, ignored: false };
    }
  }
  return outcome;
}

/** Starts a new attempt at the slice; the page's trace says why pagination restarts from the first page. */
function resetAttempt(attempts: SliceResets, trace: PageTrace, why: string): void {
  try {
    attempts.reset(why);
  } catch (e) {
    traceStop(trace, `pagination reset failed: ${(e as Error).message}`);
    throw e;
  }
  traceStop(trace, attempts.lastReset ?? `pagination reset because ${why}`);
}

function keyPaths(pk: unknown): string[][] {
  if (typeof pk === 'string' && pk) return [[pk]];
  if (Array.isArray(pk)) return pk.map((k) => (Array.isArray(k) ? k.map(String) : [String(k)]));
  return [];
}

function cursorPaths(stream: Obj): string[][] {
  const inc = stream.incremental_sync as Obj | undefined;
  const f = inc?.cursor_field;
  if (typeof f === 'string' && f && !f.includes('{')) return [[f]];
  return [];
}

/** `last_records` works here but fails in the CDK itself: say so once per read. */
function warnLastRecords(paginator: Obj | undefined, rc: ReadContext): void {
  const strategy = paginator?.pagination_strategy as Obj | undefined;
  if (strategy?.type !== 'CursorPagination') return;
  if (![strategy.cursor_value, strategy.stop_condition].some((t) => typeof t === 'string' && t.includes('last_records'))) return;
  rc.log(
    'WARN',
    "CursorPagination uses `last_records`: this runtime provides the page's records as the Connector Builder documents, but the current Airbyte CDK has no such variable and fails on it; use `last_record` / `last_page_size` to stay portable.",
  );
}

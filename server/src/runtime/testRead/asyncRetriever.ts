// AsyncRetriever for a test read: per slice, create a server-side job, poll it until the status mapping
// says it is done, find the download URL(s), download and select the records, then delete the job.
// Job requests are the slice's auxiliary requests (§10.4); download pages are the slice's pages.
import type { AuxiliaryRequest, HttpRequest, HttpResponse } from '../types';
import { configError, RuntimeError } from '../errors';
import { createAuthenticator } from '../auth';
import { createHttpRequester, RequestFailedError, type HttpRequester } from '../http/requester';
import { evalString, pythonStr } from '../http/interpolatedValues';
import { createDecoder, type Decoder } from '../records/decoders';
import { createDpathExtractor, type RecordExtractor } from '../records/dpathExtractor';
import { createRecordSelector } from '../records/recordSelector';
import { recordsOfStream } from './streamRecords';
import type { StreamSlice } from '../records/streamSlice';
import { createPaginator } from '../pagination/defaultPaginator';
import { createSlicer } from './partitions';
import { createStatusMapping, jobError, jobTimeoutMs, POLL_INTERVAL_MS } from './asyncJobStatus';
import type { BuildParent, BuiltStream, SliceAuxiliarySink } from './builtStream';
import { requestPage, wrapToken, type PageResult } from './pageRequest';
import { openTrace, traceNext, traceStop } from './paginationTrace';
import type { ReadContext } from './readContext';
import { caseInsensitiveHeaders } from '../http/headers';

type Obj = Record<string, unknown>;
type Sent = { request: HttpRequest; response: HttpResponse };
type JobRequest = { title: string; type: string; description: string };

// Titles and types are what the CDK's job repository logs, so a test read groups them the same way (§10.4).
const CREATE: JobRequest = {
  title: 'Async Job -- Create',
  type: 'ASYNC_CREATE',
  description: 'Creates the server-side job that prepares the records.',
};
const POLL: JobRequest = { title: 'Async Job -- Polling', type: 'ASYNC_POLL', description: 'Asks the server for the status of the job.' };
const TARGET: JobRequest = {
  title: 'Async Job -- Download Target',
  type: 'ASYNC_POLL',
  description: 'Asks the server where the results of the finished job can be downloaded.',
};
const ABORT: JobRequest = { title: 'Async Job -- Abort', type: 'ASYNC_ABORT', description: 'Cancels the server-side job.' };
const DELETE: JobRequest = { title: 'Async Job -- Delete', type: 'ASYNC_DELETE', description: 'Deletes the finished job from the server.' };

/** Builds a stream whose retriever is an AsyncRetriever; `buildParent` builds parent streams of substream routers. */
export function buildAsyncStream(
  stream: Obj,
  retriever: Obj,
  rc: ReadContext,
  parentOf: string | null,
  buildParent: BuildParent,
  inputState: Obj | null = null,
): BuiltStream {
  const name = String(stream.name ?? '');
  const env = rc.env;
  const requester = (field: string, required: boolean, withSignal = true): HttpRequester | null => {
    const component = retriever[field] as Obj | undefined;
    if (component === undefined || component === null) {
      if (required) throw configError(`Stream '${name}': AsyncRetriever needs ${field} (an HttpRequester).`);
      return null;
    }
    return makeRequester(component, field, name, rc, parentOf, withSignal ? env.signal : undefined);
  };
  const creation = requester('creation_requester', true) as HttpRequester;
  const polling = requester('polling_requester', true) as HttpRequester;
  const download = requester('download_requester', true) as HttpRequester;
  const downloadTarget = requester('download_target_requester', false);
  // Abort must still go out after the read was cancelled, so it does not carry the read's signal.
  const abort = requester('abort_requester', false, false);
  const remove = requester('delete_requester', false);

  const parameters = (retriever.$parameters as Obj) ?? {};
  const statusMapping = createStatusMapping(retriever.status_mapping, name);
  const timeoutMs = jobTimeoutMs(retriever.polling_job_timeout, rc.config, parameters, name, env);
  const jobDecoder = createDecoder(retriever.decoder as Obj | undefined);
  const statusExtractor = extractor(retriever.status_extractor, 'status_extractor', true, rc, parameters, name) as RecordExtractor;
  const targetExtractor = extractor(retriever.download_target_extractor, 'download_target_extractor', false, rc, parameters, name);

  // Spec (CDK factory): downloads are read with download_decoder and download_extractor (default: the
  // whole decoded element); the record_selector's filter and the stream's transformations then apply.
  const selectorComponent = (retriever.record_selector as Obj | undefined) ?? {};
  const downloadExtractor = (retriever.download_extractor as Obj | undefined) ?? { type: 'DpathExtractor', field_path: [] };
  if (downloadExtractor.type === 'ResponseToFileExtractor')
    throw configError(
      `Stream '${name}': download_extractor ResponseToFileExtractor is not supported by this runtime; use a CsvDecoder as download_decoder with a DpathExtractor (field_path: []).`,
    );
  const downloadDecoderComponent = retriever.download_decoder as Obj | undefined;
  // schema_normalization: Default casts the downloaded records too (the same RecordSelector in the reference).
  const normalizing = selectorComponent.schema_normalization === 'Default' && rc.recordsOfStream !== false;
  const selector = createRecordSelector(
    { ...selectorComponent, extractor: downloadExtractor },
    downloadDecoderComponent,
    stream.transformations,
    rc.config,
    (selectorComponent.$parameters as Obj) ?? {},
    env,
    {},
    normalizing ? recordsOfStream(String(stream.name ?? ''), stream.schema_loader, selectorComponent, rc) : null,
  );
  const paginatorComponent = retriever.download_paginator as Obj | undefined;
  const paginator = createPaginator(
    paginatorComponent,
    rc.config,
    {
      urlBase: download.urlBase,
      decoder: downloadDecoderComponent,
      recordExtractor: downloadExtractor,
      testReadMaxPages: rc.limits.maxPagesPerSlice,
      parameters: (paginatorComponent?.$parameters as Obj) ?? {},
      requestOptionCompat: rc.requestOptionCompat,
    },
    env,
  );
  const baseSlicer = createSlicer(retriever, stream, rc, buildParent, inputState);
  // The slices made so far, in order: the job orchestrator starts jobs for the next slices while the
  // tracker has room (testRead makes every slice before reading the first one).
  let produced: StreamSlice[] = [];
  const slicer = {
    async *slices() {
      produced = [];
      for await (const s of baseSlicer.slices()) {
        produced.push(s);
        yield s;
      }
    },
    requestParts: (s: StreamSlice) => baseSlicer.requestParts(s),
    get cursor() {
      return baseSlicer.cursor;
    },
    get state() {
      return baseSlicer.state;
    },
  };
  const jobLimit = maxConcurrentJobs(rc.manifest.max_concurrent_async_job_count, env);
  const jobs = new Map<StreamSlice, Job>();
  const sleep = env.sleep ?? ((ms: number) => delay(ms, env.signal));
  const now = () => (env.now?.() ?? new Date()).getTime();
  const cancelled = () => env.signal?.aborted === true;

  async function* readSlice(slice: StreamSlice, sink?: SliceAuxiliarySink): AsyncGenerator<PageResult> {
    const report = sink ?? ((entry: AuxiliaryRequest) => rc.aux(entry, parentOf ? name : null));
    // Job requests get only their own request options: as in the CDK, partition routers inject
    // nothing into an AsyncRetriever's requests (templates read stream_partition instead).
    const auxSend = async (r: HttpRequester, kind: JobRequest, s: StreamSlice): Promise<Sent> => {
      try {
        const exchange = await r.send({ slice: s, nextPageToken: null, retrieverParts: [] });
        report(entry(kind, exchange.request, exchange.response));
        if (exchange.response.status >= 400)
          throw jobError(
            name,
            `the ${kind.title} request was answered with HTTP ${exchange.response.status}, which its error handler ignores; the job cannot continue.`,
          );
        return exchange;
      } catch (e) {
        if (e instanceof RequestFailedError) {
          report(entry(kind, e.exchange.request, e.exchange.response));
          throw new RuntimeError(`Stream '${name}': ${kind.title} failed: ${e.message}`, e.failureType, {
            ...(e.status !== undefined ? { status: e.status } : {}),
            cause: e,
          });
        }
        throw e;
      }
    };
    const withExtra = (extra: Obj): StreamSlice => ({ ...slice, extra_fields: { ...slice.extra_fields, ...extra } });
    const contextOf = (j: Job): StreamSlice => ({
      ...j.slice,
      extra_fields: {
        ...j.slice.extra_fields,
        ...(j.pollingResponse
          ? { creation_response: j.creationResponse, polling_response: j.pollingResponse }
          : { creation_response: j.creationResponse }),
      },
    });
    const create = async (s: StreamSlice): Promise<Job> => {
      const job: Job = {
        slice: s,
        creationResponse: {},
        pollingResponse: null,
        polled: null,
        state: 'running',
        status: '',
        attempts: 0,
        error: null,
      };
      jobs.set(s, job);
      const created = await auxSend(creation, CREATE, s);
      job.creationResponse = responseContext(created, jobDecoder);
      return job;
    };
    // The orchestrator (AsyncJobOrchestrator._start_jobs): this slice's job, then jobs for the next slices
    // while fewer than max_concurrent_async_job_count are running. A later slice's failed creation is
    // kept for when that slice is read.
    const startJobs = async (): Promise<Job> => {
      const own = jobs.get(slice) ?? (await create(slice));
      for (const next of produced.slice(produced.indexOf(slice) + 1)) {
        if ([...jobs.values()].filter((j) => j.state === 'running').length >= jobLimit) break;
        if (jobs.has(next)) continue;
        try {
          await create(next);
        } catch (e) {
          const j = jobs.get(next);
          if (j) {
            j.state = null;
            j.error = e;
          }
          break;
        }
      }
      return own;
    };
    const job = await startJobs();
    if (job.error) throw job.error;
    const jobSlice = () => contextOf(job);
    const sendAbort = async (why: string) => {
      if (!abort) return;
      // A failing abort must not hide why the job was abandoned: it is shown as a request and logged.
      try {
        await auxSend(abort, ABORT, jobSlice());
      } catch (e) {
        rc.log('WARN', `Stream '${name}': aborting the job after ${why} failed: ${(e as Error).message}`);
      }
    };
    // One status update (update_jobs_status): every running job is polled once, in the order they were made.
    const pollRound = async () => {
      for (const j of [...jobs.values()].filter((x) => x.state === 'running' && !x.error)) {
        try {
          const polled = await auxSend(polling, POLL, contextOf(j));
          j.attempts++;
          j.polled = polled;
          j.pollingResponse = responseContext(polled, jobDecoder);
          const raw = statusExtractor.extract(jobDecoder.decode(polled.response)[0] ?? {})[0];
          if (raw === undefined || raw === null)
            throw jobError(
              name,
              `status_extractor found no status in the polling response (poll ${j.attempts}); check its field_path against the response.`,
            );
          j.status = pythonStr(raw);
          j.state = statusMapping.classify(j.status);
        } catch (e) {
          j.error = e;
          if (j === job) return;
        }
      }
    };

    // Poll until the job leaves the running states.
    const started = now();
    for (;;) {
      try {
        // A job a status update of an earlier slice already saw finish is not polled again.
        if (job.state === 'running' && !job.error) await pollRound();
        if (job.error) throw job.error;
      } catch (e) {
        if (cancelled()) await sendAbort('the read was cancelled');
        throw e;
      }
      const { state, status } = job;
      const attempt = job.attempts;
      if (state === 'completed') break;
      if (state === 'skipped') {
        rc.log(
          'INFO',
          `Stream '${name}': the API reported status '${status}' (status_mapping.skipped): the job has no data, so this slice has no records.`,
        );
        return;
      }
      if (state === 'failed')
        throw jobError(
          name,
          `the async job failed: the API reported status '${status}' (status_mapping.failed) on poll ${attempt}. A test read does not retry failed jobs.`,
        );
      if (state === 'timeout') {
        await sendAbort(`status '${status}'`);
        throw jobError(name, `the async job timed out: the API reported status '${status}' (status_mapping.timeout) on poll ${attempt}.`);
      }
      if (state === null)
        throw jobError(name, `the API reported status '${status}', which status_mapping does not list (${statusMapping.describe()}).`);
      try {
        await sleep(POLL_INTERVAL_MS);
        if (cancelled()) throw new RuntimeError('The read was cancelled.', 'system_error');
      } catch (e) {
        await sendAbort('the read was cancelled');
        throw e;
      }
      if (now() - started >= timeoutMs) {
        await sendAbort('the polling timeout');
        throw jobError(
          name,
          `the async job was still running (status '${status}') after ${formatMinutes(timeoutMs)} (polling_job_timeout) and ${attempt} polls; the job was ${abort ? 'aborted' : 'abandoned (no abort_requester)'}.`,
        );
      }
    }
    const polled = job.polled as Sent;
    const creationResponse = job.creationResponse;
    const pollingResponse = job.pollingResponse;

    // Where to download from: a separate request, or the polling response itself.
    let targetResponse = polled;
    if (downloadTarget)
      targetResponse = await auxSend(downloadTarget, TARGET, {
        partition: {},
        cursor_slice: {},
        extra_fields: { polling_response: pollingResponse },
      });
    const targets: unknown[] = targetExtractor
      ? jobDecoder.decode(targetResponse.response).flatMap((el) => targetExtractor.extract(el))
      : [null];
    if (targetExtractor && targets.length === 0)
      rc.log(
        'WARN',
        `Stream '${name}': the job completed but download_target_extractor found no download target, so there is nothing to download.`,
      );

    let failed = false;
    let deleted = false;
    const deleteJob = async () => {
      if (!remove || deleted) return;
      deleted = true;
      await auxSend(remove, DELETE, jobSlice());
    };
    try {
      for (const target of targets) {
        const downloadSlice = withExtra({
          download_target: typeof target === 'string' || target === null ? target : pythonStr(target),
          creation_response: creationResponse,
          polling_response: pollingResponse,
        });
        for await (const page of downloadPages(downloadSlice)) {
          if (page.error) failed = true;
          yield page;
          if (page.error) return;
        }
      }
      await deleteJob();
    } catch (e) {
      failed = true;
      throw e;
    } finally {
      // The read may stop after any page (the record limit): the job is finished all the same, so it
      // is still deleted. A failed download leaves it in place, as in the CDK.
      if (!failed && !deleted) {
        try {
          await deleteJob();
        } catch (e) {
          rc.log('WARN', `Stream '${name}': deleting the job failed: ${(e as Error).message}`);
        }
      }
    }
  }

  /** The pages of one download target, with download_paginator. */
  async function* downloadPages(downloadSlice: StreamSlice): AsyncGenerator<PageResult> {
    let token = wrapToken(paginator.initialToken());
    for (;;) {
      if (cancelled()) throw new RuntimeError('The read was cancelled.', 'system_error');
      const outcome = await requestPage(
        download,
        selector,
        { slice: downloadSlice, nextPageToken: token, retrieverParts: [paginator.requestOptions(token)] },
        name,
        rc,
      );
      const trace = openTrace(token);
      // A failed page, or an error status the error handler let through, ends this download.
      if (!outcome.exchange) traceStop(trace, `the download failed: ${outcome.page.error?.message ?? 'no response'}`);
      else if (outcome.ignored || outcome.exchange.response.status >= 400)
        traceStop(trace, `HTTP ${outcome.exchange.response.status} ends the download`);
      yield { ...outcome.page, trace };
      if (trace.settled || !outcome.exchange) return;
      const { response } = outcome.exchange;
      const records = outcome.page.records;
      const last = records.length ? records[records.length - 1] : null;
      let next: unknown;
      try {
        next = paginator.nextPageToken(response, records.length, last, token ? token.next_page_token : null, records);
      } catch (e) {
        traceStop(trace, paginator.stopReason() ?? `computing the next page token failed: ${(e as Error).message}`);
        throw e;
      }
      if (next === null || next === undefined) {
        const paginated = paginatorComponent && paginatorComponent.type !== 'NoPagination';
        traceStop(
          trace,
          paginated
            ? `download_paginator: ${paginator.stopReason() ?? 'no next page token'}`
            : 'no download_paginator: one request per download target',
        );
        return;
      }
      token = next as { next_page_token: unknown };
      traceNext(trace, token);
    }
  }

  // The reference's AsyncRetriever logs only the slice's cursor part (`create_slice_log_message(stream_slice.cursor_slice)`),
  // as a dict even when empty: the descriptor is `{}`, never the string "{}" of other streams, and holds no partition keys.
  const descriptorOf = (slice: StreamSlice): Obj => ({ ...(slice.cursor_slice ?? {}) });
  return { name, primaryKey: keyPaths(stream.primary_key), cursorField: [], slicer, readSlice, descriptorOf };
}

function makeRequester(
  component: Obj,
  field: string,
  stream: string,
  rc: ReadContext,
  parentOf: string | null,
  signal: AbortSignal | undefined,
): HttpRequester {
  if (component.type !== 'HttpRequester') {
    throw configError(
      `Stream '${stream}': AsyncRetriever.${field} must be an HttpRequester${component.type ? ` (got ${String(component.type)})` : ''}.`,
    );
  }
  const parameters = (component.$parameters as Obj) ?? {};
  const authenticator = createAuthenticator(
    component.authenticator as object | undefined,
    rc.config,
    {
      urlBase: (component.url ?? component.url_base) as string | undefined,
      parameters: ((component.authenticator as Obj | undefined)?.$parameters as object) ?? parameters,
      onAuxiliaryRequest: (entry) => rc.aux(entry, parentOf ? stream : null),
      onSecret: (v) => rc.masker.add(v),
      disableRetries: true,
      requestOptionCompat: rc.requestOptionCompat,
    },
    rc.env,
  );
  return createHttpRequester(component, rc.config, { parameters, authenticator, disableRetries: true, signal }, rc.env);
}

function extractor(
  component: unknown,
  field: string,
  required: boolean,
  rc: ReadContext,
  parameters: Obj,
  stream: string,
): RecordExtractor | null {
  if (component === undefined || component === null) {
    if (required) throw configError(`Stream '${stream}': AsyncRetriever needs ${field} (a DpathExtractor).`);
    return null;
  }
  return createDpathExtractor(component as Obj, rc.config, parameters, rc.env);
}

/**
 * What `creation_response` / `polling_response` templates see: the first decoded element of the body,
 * plus `headers` (response headers) and `request` (the request sent) unless the body has such keys.
 */
function responseContext({ request, response }: Sent, decoder: Decoder): Obj {
  const first = decoder.decode(response)[0];
  const out: Obj = first !== null && typeof first === 'object' && !Array.isArray(first) ? { ...(first as Obj) } : {};
  // requests' headers (response and prepared request) are case-insensitive dicts.
  if (!('headers' in out)) out.headers = caseInsensitiveHeaders(response.headers);
  if (!('request' in out))
    out.request = { url: request.url, headers: caseInsensitiveHeaders(request.headers), method: request.method, body: request.body };
  return out;
}

function entry(kind: JobRequest, request: HttpRequest, response: HttpResponse | null): AuxiliaryRequest {
  return {
    title: kind.title,
    type: kind.type,
    description: kind.description,
    request: { url: request.url, headers: request.headers, http_method: request.method, body: request.body },
    response: response ? { status: response.status, body: response.body, headers: response.headers } : null,
  };
}

function keyPaths(pk: unknown): string[][] {
  if (typeof pk === 'string' && pk) return [[pk]];
  if (Array.isArray(pk)) return pk.map((k) => (Array.isArray(k) ? k.map(String) : [String(k)]));
  return [];
}

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(2)} minute${minutes === 1 ? '' : 's'}`;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RuntimeError('The read was cancelled.', 'system_error'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new RuntimeError('The read was cancelled.', 'system_error'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

type Job = {
  slice: StreamSlice;
  creationResponse: Obj;
  pollingResponse: Obj | null;
  polled: Sent | null;
  /** What status_mapping makes of the last status; null for a status it does not list. */
  state: 'running' | 'completed' | 'failed' | 'timeout' | 'skipped' | null;
  status: string;
  attempts: number;
  /** A failed creation or polling request of a job made for a later slice, thrown when that slice is read. */
  error: unknown;
};

/**
 * The source's `max_concurrent_async_job_count` (default 1). As in the CDK's JobTracker, a template is evaluated
 * with an empty config (the tracker is built before the config reaches it): `{{ config.get('n', 10) }}` is 10.
 */
function maxConcurrentJobs(value: unknown, env: ReadContext['env']): number {
  let n = 1;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim()) {
    try {
      n = Number.parseInt(String(evalString(value, { config: {}, parameters: {} }, env)), 10);
    } catch {
      n = 1;
    }
  }
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

// Runs every stream of a manifest — the static ones, then those its dynamic_streams resolve to — as test
// reads within the limits, a bounded number at a time, and sums each up for a readiness report: records,
// pages, slices, errors, retries, schema differences, datetime formats, time. The CLI's
// `read --all-streams` and the editor's "Run all streams" both call this. No VS Code dependency.
import { configError, RuntimeError } from '../errors';
import { resolveFetch } from '../http/transport';
import { quietContext } from '../incremental/incrementalStream';
import { resolveManifest } from '../manifest/resolve';
import { resolveDynamicStreams } from '../testRead/dynamicStreams';
import { streamSchemaDifferences, type SchemaDifference } from '../schema/schemaDifferences';
import { recordRead } from '../cassette/cassetteRead';
import type { Cassette } from '../cassette/cassette';
import { listStreams, type StreamListing } from '../testRead/listStreams';
import { testRead } from '../testRead/testRead';
import type { StreamRead } from '../testRead/streamRead';
import type { HttpRequest, TestReadEnv, TestReadLimits } from '../types';

type Obj = Record<string, unknown>;

/** One stream's line of the readiness report. */
export type StreamRunSummary = {
  stream: string;
  dynamic: boolean;
  /** `failed`: an ERROR log (or the stream could not be built); `empty`: no record; `ok` otherwise. */
  status: 'ok' | 'empty' | 'failed';
  records: number;
  pages: number;
  slices: number;
  /** The ERROR log messages (the first is the failure). */
  errors: string[];
  warnings: string[];
  /** Requests sent again right after they failed (retries after an error status, a rate limit, a network error). */
  retries: number;
  /** Declared vs inferred schema; null when the declared schema is not inline (nothing to compare). */
  schema_differences: SchemaDifference[] | null;
  /** Field → datetime format of the values the records hold (the Builder's inferred_datetime_formats). */
  datetime_formats: Record<string, string>;
  /** Wall time of the read, in milliseconds. */
  time_ms: number;
  limit_reached: boolean;
};

export type AllStreamsResult = {
  streams: StreamRunSummary[];
  /** Set when the dynamic streams could not be resolved: only the static streams ran. */
  listing_error: string | null;
  /** How many streams ran at once. */
  concurrency: number;
  time_ms: number;
};

export type AllStreamsEvent =
  | { type: 'listed'; streams: StreamListing[] }
  | { type: 'started'; stream: string; index: number; total: number }
  | { type: 'finished'; summary: StreamRunSummary; done: number; total: number };

export type AllStreamsOptions = {
  limits?: TestReadLimits;
  /** Streams read at once (default 2; 1 when the connector rotates single-use refresh tokens). */
  concurrency?: number;
  onEvent?: (event: AllStreamsEvent) => void;
  /** Each stream's full result (the editor shows it when a row is opened). */
  onRead?: (stream: string, read: StreamRead) => void;
  /** When set, each read is recorded and its cassette handed over (`read --all-streams --record DIR`). */
  onCassette?: (stream: string, cassette: Cassette) => void;
  /** Only these streams (by name), in this order; all by default. */
  only?: string[];
};

export const DEFAULT_CONCURRENCY = 2;

/**
 * Runs every stream. Throws RuntimeError (config_error) when the manifest cannot be resolved; a stream
 * that fails is a `failed` line, never a throw. `config` is shared by the reads, so a token written back
 * by one read is used by the next.
 */
export async function runAllStreams(
  manifest: object,
  config: Obj,
  options: AllStreamsOptions = {},
  env: TestReadEnv = {},
): Promise<AllStreamsResult> {
  const started = Date.now();
  let listing: StreamListing[];
  let listingError: string | null = null;
  try {
    listing = await listStreams(manifest, config, options.limits ?? {}, env);
  } catch (e) {
    if (e instanceof RuntimeError && /cannot be resolved/.test(e.message)) throw e;
    // The dynamic definitions failed (their API, their config): the static streams still run.
    listingError = (e as Error).message;
    listing = staticStreams(manifest).map((s) => ({ name: s.name as string, dynamic: false }));
  }
  if (options.only) {
    const wanted = new Set(options.only);
    listing = listing.filter((s) => wanted.has(s.name));
  }
  options.onEvent?.({ type: 'listed', streams: listing });
  // Two reads refreshing the same single-use refresh token at once would make one of them fail.
  const rotating = JSON.stringify(manifest).includes('refresh_token_updater');
  const concurrency = rotating ? 1 : Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const definitionOf = definitions(manifest, config, env);
  const summaries: StreamRunSummary[] = new Array(listing.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      if (env.signal?.aborted) return;
      const index = next++;
      if (index >= listing.length) return;
      const entry = listing[index];
      options.onEvent?.({ type: 'started', stream: entry.name, index, total: listing.length });
      const summary = await runOne(manifest, config, entry, options, env, definitionOf);
      summaries[index] = summary;
      done++;
      options.onEvent?.({ type: 'finished', summary, done, total: listing.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, listing.length)) }, worker));
  return { streams: summaries.filter(Boolean), listing_error: listingError, concurrency, time_ms: Date.now() - started };
}

/** The resolved static streams of a manifest ([] when it cannot be resolved). */
function staticStreams(manifest: object): Obj[] {
  const root = resolveManifest(manifest).value as Obj | null;
  return (Array.isArray(root?.streams) ? (root.streams as Obj[]) : []).filter((s) => s && typeof s.name === 'string');
}

/** Finds a stream's resolved definition; the dynamic ones are resolved once, on first need. */
function definitions(manifest: object, config: Obj, env: TestReadEnv): (name: string) => Promise<Obj | null> {
  const root = resolveManifest(manifest).value as Obj;
  const statics = staticStreams(manifest);
  let dynamic: Promise<Array<{ name: string; stream: unknown }>> | null = null;
  return async (name) => {
    const found = statics.find((s) => s.name === name);
    if (found) return found;
    if (!Array.isArray(root?.dynamic_streams) || !root.dynamic_streams.length) return null;
    dynamic ??= resolveDynamicStreams(root, quietContext(root, config, env)).catch(() => []);
    return ((await dynamic).find((d) => d.name === name)?.stream as Obj | undefined) ?? null;
  };
}

async function runOne(
  manifest: object,
  config: Obj,
  entry: StreamListing,
  options: AllStreamsOptions,
  env: TestReadEnv,
  definitionOf: (name: string) => Promise<Obj | null>,
): Promise<StreamRunSummary> {
  const started = Date.now();
  // A retry sends the same request again after it failed (an error status or no response); a repeated
  // request after a success is a poll (async jobs), not a retry.
  let retries = 0;
  let previousFailed = '';
  const base = resolveFetch(env, { signal: env.signal });
  const counted = async (req: HttpRequest) => {
    const key = `${req.method} ${req.url}\n${req.body ?? ''}`;
    if (key === previousFailed) retries++;
    previousFailed = '';
    try {
      const response = await base(req);
      if (response.status >= 400) previousFailed = key;
      return response;
    } catch (e) {
      previousFailed = key;
      throw e;
    }
  };
  const readEnv: TestReadEnv = { ...env, fetch: counted };
  let read: StreamRead;
  try {
    if (options.onCassette) {
      const recorded = await recordRead(manifest, config, entry.name, options.limits ?? {}, readEnv, { readMasking: 'testRead' });
      read = recorded.result;
      options.onCassette(entry.name, recorded.cassette);
    } else {
      read = await testRead(manifest, config, entry.name, options.limits ?? {}, readEnv);
    }
  } catch (e) {
    return {
      stream: entry.name,
      dynamic: entry.dynamic,
      status: 'failed',
      records: 0,
      pages: 0,
      slices: 0,
      errors: [(e as Error).message],
      warnings: [],
      retries: 0,
      schema_differences: null,
      datetime_formats: {},
      time_ms: Date.now() - started,
      limit_reached: false,
    };
  }
  options.onRead?.(entry.name, read);
  const pages = read.slices.reduce((n, s) => n + s.pages.length, 0);
  const records = read.slices.reduce((n, s) => n + s.pages.reduce((m, p) => m + p.records.length, 0), 0);
  const errors = read.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
  let differences: SchemaDifference[] | null = null;
  if (read.inferred_schema) {
    try {
      const found = await definitionOf(entry.name);
      const diff = found
        ? streamSchemaDifferences(
            found,
            read.inferred_schema,
            read.slices.flatMap((s) => s.pages.flatMap((p) => p.records)),
          )
        : null;
      differences = diff && diff.declared !== 'other' ? diff.differences : null;
    } catch {
      differences = null;
    }
  }
  return {
    stream: entry.name,
    dynamic: entry.dynamic,
    status: errors.length ? 'failed' : records === 0 ? 'empty' : 'ok',
    records,
    pages,
    slices: read.slices.length,
    errors,
    warnings: read.logs.filter((l) => l.level === 'WARN').map((l) => l.message),
    retries,
    schema_differences: differences,
    datetime_formats: read.inferred_datetime_formats,
    time_ms: Date.now() - started,
    limit_reached: read.test_read_limit_reached,
  };
}

/** Throws the config error of an unusable concurrency value (the CLI's --concurrency). */
export function checkConcurrency(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 16) throw configError(`concurrency must be an integer from 1 to 16, got ${value}`);
  return value;
}

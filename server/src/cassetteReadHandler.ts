// The cassette side of the language server (docs/cassettes.md, "In the editor"): a test read that
// records its HTTP exchanges through the runtime's recorder or replays them from a cassette file, the
// read history behind "Save Read as Cassette" and "Compare with Previous Read", and the requests that
// read it. Kept apart from testReadHandler.ts, which only calls `runReadWithCassettes`.
import { basename, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import { formatCassette, parseCassette, type Cassette } from './runtime';
import { recordRead, replayRead } from './runtime';
import { compareWithExpectation, expectationOf, formatDiff, primaryKeyPaths, type Expectation } from './runtime';
import { cassetteFileNames } from './runtime';
import { readUserFile } from './runtime';
import type { StreamRead } from './runtime';
import { boundLimits } from './readBounds';
import type { TestReadEnv } from './runtime';
import type { ReadHistory, ReadSnapshot } from './readHistory';
import type {
  CassetteSummaryParams,
  CassetteSummaryResult,
  ComparedRead,
  CompareReadsParams,
  CompareReadsResult,
  ReadCassetteParams,
  ReadCassetteResult,
  TestReadParams,
} from './protocol';

/** A file URI's path; anything but a file is an invalid request (cassettes are files beside the manifest). */
function filePath(uri: string, what: string): string {
  if (!uri.startsWith('file:')) throw new ResponseError(ErrorCodes.InvalidParams, `The ${what} ${uri} is not a file.`);
  return fileURLToPath(uri);
}

/** How a file is named to the user: relative to the manifest's folder when it is below it, else its path. */
function displayName(fileUri: string, manifestUri: string | null): string {
  const path = filePath(fileUri, 'file');
  if (!manifestUri?.startsWith('file:')) return basename(path);
  const rel = relative(dirname(fileURLToPath(manifestUri)), path);
  return rel && !rel.startsWith('..') ? rel.split('\\').join('/') : path;
}

/** The manifest's folder, the tree its cassettes and expectations must stay in; null when it is not a file. */
function manifestFolder(manifestUri: string | null): string | null {
  return manifestUri?.startsWith('file:') ? dirname(fileURLToPath(manifestUri)) : null;
}

/**
 * Reads and checks a cassette file under the files policy (capped; a link out of the manifest's folder
 * only when the user confirmed it); every problem becomes an InvalidParams error naming the file (and line).
 */
export async function loadCassette(
  cassetteUri: string,
  name: string,
  manifestUri: string | null = null,
  allowLinkOutside = false,
): Promise<Cassette> {
  const path = filePath(cassetteUri, 'cassette');
  const input = readUserFile(path, { root: manifestFolder(manifestUri), what: 'the cassette', allowLinkOutside });
  if ('error' in input)
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      input.code ? `Cannot read the cassette ${name} (${input.code}).` : `Cannot read the cassette ${name}: ${input.error}.`,
    );
  const text = input.text;
  const cassette = parseCassette(text, name);
  if (typeof cassette === 'string') throw new ResponseError(ErrorCodes.InvalidParams, cassette);
  return cassette;
}

/** The stream's primary key as field paths, from the manifest as the read saw it (empty when it has none or is dynamic). */
function primaryKeyOf(manifest: object, stream: string): string[][] {
  const resolved = runtime.resolveManifest(manifest as Record<string, unknown>).value as Record<string, unknown> | null;
  const streams = Array.isArray(resolved?.streams) ? (resolved.streams as Record<string, unknown>[]) : [];
  const found = streams.find((s) => s && typeof s === 'object' && s.name === stream);
  return primaryKeyPaths(found?.primary_key);
}

/**
 * A read engine other than the built-in runtime (the Airbyte CDK engine, cdkReadHandler.ts): a live
 * read, a replay from a cassette and a recorded read.
 */
export type ExternalEngineRunner = {
  label: string;
  read(
    manifest: object,
    config: Record<string, unknown>,
    stream: string,
    limits: TestReadParams['limits'],
    env: TestReadEnv,
  ): Promise<StreamRead>;
  replay(
    manifest: object,
    cassette: Cassette,
    options: { stream: string; limits: TestReadParams['limits']; name: string },
    env: TestReadEnv,
  ): Promise<StreamRead>;
  record(
    manifest: object,
    config: Record<string, unknown>,
    stream: string,
    limits: TestReadParams['limits'],
    env: TestReadEnv,
  ): Promise<{ result: StreamRead; cassette: Cassette }>;
};

/**
 * Runs the test read of `params` as it asks: replayed from a cassette (offline, the cassette's masked
 * config and limits, no config write-back: its tokens are `****`), recorded (the masked cassette is kept
 * for `airbyte/readCassette`), or plain. Every finished read is kept in `history` for comparisons.
 */
export async function runReadWithCassettes(
  manifest: object,
  config: Record<string, unknown>,
  params: TestReadParams,
  env: TestReadEnv,
  history: ReadHistory,
  engine?: ExternalEngineRunner,
): Promise<StreamRead> {
  const stream = params.streamName;
  let result: StreamRead;
  let recorded: Cassette | null = null;
  let replayedFrom: string | null = null;
  if (params.replay) {
    replayedFrom = params.replay.name ?? displayName(params.replay.cassetteUri, params.uri);
    const cassette = await loadCassette(params.replay.cassetteUri, replayedFrom, params.uri, params.replay.allowLinkOutside === true);
    const { onConfigUpdate: _dropped, ...offline } = env;
    // A cassette's limits are untrusted input too: bounded like the settings' (readBounds.ts).
    const limits = boundLimits(params.limits ?? cassette.limits);
    if (engine) {
      result = await engine.replay(manifest, cassette, { stream, limits, name: replayedFrom }, offline);
    } else {
      const replay = await replayRead(manifest, cassette, { stream, limits, name: replayedFrom }, offline);
      result = replay.result;
    }
  } else if (params.record && engine) {
    const read = await engine.record(manifest, config, stream, boundLimits(params.limits ?? {}), env);
    result = read.result;
    recorded = read.cassette;
  } else if (params.record) {
    // The results view shows what a read without a recorder shows; only the cassette is masked more strictly.
    const read = await recordRead(manifest, config, stream, params.limits ?? {}, env, { readMasking: 'testRead' });
    result = read.result;
    recorded = read.cassette;
  } else if (engine) {
    result = await engine.read(manifest, config, stream, params.limits ?? {}, env);
  } else {
    result = await runtime.testRead(manifest, config, stream, params.limits ?? {}, env);
  }
  // A cancelled read is not a read to compare with or to save.
  if (env.signal?.aborted) return result;
  const expectation = expectationOf(stream, primaryKeyOf(manifest, stream), result);
  history.addRead(params.uri, stream, { expectation, at: new Date().toISOString(), replayedFrom });
  if (recorded) history.setCassette(params.uri, stream, recorded, expectation);
  return result;
}

/** `airbyte/readCassette`: the cassette of the stream's last recorded read, as the file the CLI writes. */
export function handleReadCassette(params: ReadCassetteParams, history: ReadHistory): ReadCassetteResult {
  const kept = history.cassette(params.uri, params.streamName);
  if (!kept) return null;
  return {
    text: formatCassette(kept.cassette),
    expectation: `${JSON.stringify(kept.expectation, null, 2)}\n`,
    exchanges: kept.cassette.exchanges.length,
    recordedAt: kept.cassette.recorded_at,
    fileName: cassetteFileNames(params.streamName).cassette,
  };
}

/** `airbyte/cassetteSummary`: the stream, time, size and limits of a cassette file, or why it cannot be replayed. */
export async function handleCassetteSummary(params: CassetteSummaryParams): Promise<CassetteSummaryResult> {
  try {
    const c = await loadCassette(params.cassetteUri, displayName(params.cassetteUri, null));
    return { stream: c.stream, recordedAt: c.recorded_at, exchanges: c.exchanges.length, limits: c.limits };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function sideOf(s: ReadSnapshot): ComparedRead {
  return { label: s.replayedFrom ? `replay of ${s.replayedFrom}` : 'read from the API', at: s.at, records: s.expectation.records.length };
}

/** Reads a saved expectation (`connector-manifest test --update`); the reason as text when it is not one. */
async function loadExpectation(uri: string, name: string, manifestUri: string): Promise<Expectation | string> {
  let value: Partial<Expectation>;
  const input = readUserFile(filePath(uri, 'expectation'), { root: manifestFolder(manifestUri), what: 'the expectation' });
  if ('error' in input)
    return input.code ? `Cannot read the expectation ${name} (${input.code}).` : `Cannot read the expectation ${name}: ${input.error}.`;
  try {
    value = JSON.parse(input.text) as Partial<Expectation>;
  } catch (e) {
    return `${name} is not valid JSON: ${(e as Error).message}`;
  }
  if (!value || typeof value !== 'object' || !Array.isArray(value.records))
    return `${name} is not an expectation of connector-manifest test (it has no records list).`;
  return {
    stream: typeof value.stream === 'string' ? value.stream : '',
    primary_key: Array.isArray(value.primary_key) ? value.primary_key : [],
    records: value.records,
    inferred_schema: value.inferred_schema && typeof value.inferred_schema === 'object' ? value.inferred_schema : null,
  };
}

/**
 * `airbyte/compareReads`: the diff of `connector-manifest test` (records by primary key, inferred
 * schema) from the previous read of the stream, or from a saved expectation, to its last read.
 */
export async function handleCompareReads(params: CompareReadsParams, history: ReadHistory): Promise<CompareReadsResult> {
  const { current, previous } = history.reads(params.uri, params.streamName);
  if (!current) return { unavailable: `Stream '${params.streamName}' has not been read in this session; run it first.` };
  let before: Expectation;
  let beforeSide: ComparedRead;
  if (params.against === 'previous') {
    if (!previous)
      return {
        unavailable: `Stream '${params.streamName}' has been read only once in this session; run it again (or replay a cassette) to compare two reads.`,
      };
    before = previous.expectation;
    beforeSide = sideOf(previous);
  } else {
    const name = displayName(params.against.expectationUri, params.uri);
    const loaded = await loadExpectation(params.against.expectationUri, name, params.uri);
    if (typeof loaded === 'string') return { unavailable: loaded };
    before = loaded;
    beforeSide = { label: `expectation ${name}`, at: null, records: loaded.records.length };
  }
  // The primary key of the current manifest decides which records are "the same" on both sides.
  const primaryKey = current.expectation.primary_key.length ? current.expectation.primary_key : before.primary_key;
  const diff = compareWithExpectation({ ...before, primary_key: primaryKey }, current.expectation);
  return {
    stream: params.streamName,
    before: beforeSide,
    after: sideOf(current),
    primaryKey,
    diff,
    text: formatDiff(params.streamName, diff),
  };
}

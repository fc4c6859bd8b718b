// `connector-manifest read <manifest> --stream NAME --config config.json [--max-records N] [--max-pages N]
// [--max-slices N] [--state state.json] [--format json|pretty] [--trace] [--record FILE | --replay FILE]`: a test read from
// the terminal over the same testRead as the editor; --record writes a cassette of every HTTP exchange,
// --replay reads offline from one (docs/cassettes.md). Exit codes: 0 read ok, 1 read failed (or a
// request the cassette does not hold), 2 invalid manifest, config, cassette or arguments.
import { dirname, resolve } from 'node:path';
import { writeBackConfig } from './configWriteBack';
import { formatCassette, parseCassette, type Cassette } from '../cassette/cassette';
import { recordRead, replayRead } from '../cassette/cassetteRead';
import type { ReplayMiss } from '../cassette/replay';
import { parseManifest } from '../manifest/parse';
import { readInputText } from './inputFile';
import { terminalSafe } from './terminalText';
import { readUserFile, writeRefusal, writeUserFile } from '../files/userFiles';
import { prototypePathErrors } from './prototypePaths';
import { allStreamsCommand } from './allStreamsCommand';
import { RuntimeError } from '../errors';
import { readWentOnAfter, testRead } from '../testRead/testRead';
import type { PaginationTrace, StreamRead, TestReadProgress } from '../testRead/streamRead';
import type { TestReadEnv, TestReadLimits } from '../types';
import type { ReadEngines } from './readEngine';
import { compareWithEngine, readOnEngine } from './engineRead';
import { formatOption, limitOptions, oneArgument, parseOptions, switchOption, valueOption } from './options';

type Out = NodeJS.WritableStream & { isTTY?: boolean };

type ReadArgs = {
  manifest: string;
  stream: string;
  /** Optional only with --replay (the cassette holds the masked config of its recording). */
  config: string | null;
  limits: TestReadLimits;
  format: 'json' | 'pretty';
  state?: string;
  record?: string;
  replay?: string;
  /** `--trace`: the JSON output includes each page's pagination_trace (the pretty format always shows it). */
  trace?: boolean;
  /** `--engine cdk`: read through the author's Python and airbyte-cdk (docs/engines.md); `--python PATH` picks the interpreter. */
  engine?: 'builtin' | 'cdk';
  python?: string;
  /** `--compare-engines`: read on both engines and print the differences. */
  compareEngines?: boolean;
};

/** Parses the arguments; returns an error text instead of throwing. */
export function parseReadArgs(args: string[]): ReadArgs | string {
  let manifest = null as string | null;
  let stream = null as string | null;
  let config = null as string | null;
  let state = undefined as string | undefined;
  let record = undefined as string | undefined;
  let replay = undefined as string | undefined;
  let format = 'pretty' as 'json' | 'pretty';
  let trace = false as boolean;
  let engine = undefined as 'builtin' | 'cdk' | undefined;
  let python = undefined as string | undefined;
  let compareEngines = false as boolean;
  const limits: TestReadLimits = {};
  const problem = parseOptions(args, {
    options: {
      '--stream': valueOption((v) => (stream = v)),
      '--config': valueOption((v) => (config = v)),
      '--state': valueOption((v) => (state = v)),
      '--record': valueOption((v) => (record = v)),
      '--replay': valueOption((v) => (replay = v)),
      '--trace': switchOption(() => (trace = true)),
      '--python': valueOption((v) => (python = v)),
      '--compare-engines': switchOption(() => (compareEngines = true)),
      '--engine': {
        value: true,
        set: (e) => {
          if (e !== 'builtin' && e !== 'cdk') return `--engine must be builtin or cdk, got "${e}"`;
          engine = e;
          return undefined;
        },
      },
      '--format': formatOption((v) => (format = v)),
      ...limitOptions(limits),
    },
    positional: oneArgument((a) => (manifest = a)),
  });
  if (problem !== undefined) return problem;
  if (!manifest) return 'name the manifest file';
  if (!stream) return 'name the stream with --stream NAME';
  if (!config && replay === undefined) return 'name the config file with --config config.json';
  if (record !== undefined && replay !== undefined) return '--record and --replay cannot be used together';
  if (compareEngines && engine !== undefined) return '--compare-engines reads on both engines: leave out --engine';
  if (record !== undefined && compareEngines)
    return '--record and --compare-engines cannot be used together: record first, then compare with --replay FILE --compare-engines';
  return {
    manifest,
    stream,
    config,
    limits,
    format,
    ...(state !== undefined ? { state } : {}),
    ...(record !== undefined ? { record } : {}),
    ...(replay !== undefined ? { replay } : {}),
    ...(trace ? { trace } : {}),
    ...(engine !== undefined ? { engine } : {}),
    ...(python !== undefined ? { python } : {}),
    ...(compareEngines ? { compareEngines } : {}),
  };
}

/** Runs the command; resolves with the exit code. */
export async function readCommand(args: string[], out: Out, err: Out, signal?: AbortSignal, engines: ReadEngines = {}): Promise<number> {
  // Every stream at once (docs/incremental.md): its own options and report formats.
  if (args.includes('--all-streams')) return allStreamsCommand(args, out, err, signal);
  const parsedArgs = parseReadArgs(args);
  if (typeof parsedArgs === 'string') {
    err.write(`read: ${parsedArgs}\n`);
    return 2;
  }
  const { manifest: manifestFile, stream, config: configFile, limits, format, state: stateFile } = parsedArgs;
  const cdkEngine = parsedArgs.engine === 'cdk' || parsedArgs.compareEngines ? engines.cdk : undefined;
  if ((parsedArgs.engine === 'cdk' || parsedArgs.compareEngines) && !cdkEngine) {
    err.write('read: this build of connector-manifest has no Airbyte CDK engine (use out/cli.js)\n');
    return 2;
  }
  const manifestInput = readInputText(manifestFile);
  if ('error' in manifestInput) {
    err.write(`read: ${terminalSafe(manifestFile)}: ${manifestInput.error}\n`);
    return 2;
  }
  const manifestText = manifestInput.text;
  // Every other input is read under the files policy: capped, and no link out of the manifest's folder.
  const root = dirname(resolve(manifestFile));
  let configText: string | null = null;
  if (configFile) {
    const configInput = readUserFile(configFile, { root, what: 'the config' });
    if ('error' in configInput) {
      err.write(`read: ${terminalSafe(configInput.error)}\n`);
      return 2;
    }
    configText = configInput.text;
  }
  if (parsedArgs.record) {
    const refused = writeRefusal(parsedArgs.record, root, 'the cassette');
    if (refused) {
      err.write(`read: ${terminalSafe(refused)}\n`);
      return 2;
    }
  }
  let cassette: Cassette | null = null;
  if (parsedArgs.replay) {
    const cassetteInput = readUserFile(parsedArgs.replay, { root, what: 'the cassette' });
    if ('error' in cassetteInput) {
      err.write(`read: ${terminalSafe(cassetteInput.error)}\n`);
      return 2;
    }
    const cassetteText = cassetteInput.text;
    const c = parseCassette(cassetteText, parsedArgs.replay);
    if (typeof c === 'string') {
      err.write(`read: ${c}\n`);
      return 2;
    }
    cassette = c;
  }
  const parsed = parseManifest(manifestText);
  const yamlErrors = parsed.problems.filter((p) => p.severity === 'error');
  if (yamlErrors.length || !parsed.value || typeof parsed.value !== 'object') {
    for (const p of yamlErrors) {
      const pos = parsed.locator.lineCol(p.span.start);
      err.write(`${terminalSafe(`${manifestFile}:${pos.line}:${pos.col}: ${p.message}`)}\n`);
    }
    if (!yamlErrors.length) err.write(`${manifestFile}: the manifest is empty or not a mapping\n`);
    return 2;
  }
  const refusedPaths = prototypePathErrors(parsed, manifestFile);
  if (refusedPaths.length) {
    for (const line of refusedPaths) err.write(`${terminalSafe(line)}\n`);
    return 2;
  }
  let config: Record<string, unknown>;
  try {
    config = configText === null ? structuredClone(cassette?.config ?? {}) : JSON.parse(configText);
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('the top level must be an object');
  } catch (e) {
    err.write(`read: ${terminalSafe(`${configFile} is not a valid JSON config: ${(e as Error).message}`)}\n`);
    return 2;
  }
  let state: object[] | undefined;
  if (stateFile !== undefined) {
    try {
      const stateInput = readUserFile(stateFile, { root, what: 'the state file' });
      if ('error' in stateInput) throw new Error(stateInput.error);
      const value = JSON.parse(stateInput.text) as unknown;
      if (!value || typeof value !== 'object') throw new Error("expected a list of state messages or the stream's state object");
      // A bare object is the stream's own state: wrap it as the Builder's list of state messages.
      state = Array.isArray(value)
        ? (value as object[])
        : [{ type: 'STREAM', stream: { stream_descriptor: { name: stream }, stream_state: value } }];
    } catch (e) {
      err.write(`read: ${terminalSafe(`${stateFile} is not a valid state file: ${(e as Error).message}`)}\n`);
      return 2;
    }
  }
  const streams = ((parsed.value as Record<string, unknown>).streams as unknown[] | undefined) ?? [];
  // A ConditionalStreams entry holds streams of its own (testRead says when its condition is false).
  const names = streams
    .flatMap((s) =>
      s &&
      typeof s === 'object' &&
      (s as Record<string, unknown>).type === 'ConditionalStreams' &&
      Array.isArray((s as Record<string, unknown>).streams)
        ? ((s as Record<string, unknown>).streams as unknown[])
        : [s],
    )
    .map((s) => (s && typeof s === 'object' ? (s as Record<string, unknown>).name : undefined))
    .filter((n) => typeof n === 'string');
  // A dynamic stream's name is only known once its definition is resolved (testRead does that).
  const dynamicStreams = (parsed.value as Record<string, unknown>).dynamic_streams;
  const dynamic = Array.isArray(dynamicStreams) && dynamicStreams.length > 0;
  if (names.length > 0 && !names.includes(stream) && !dynamic) {
    err.write(`read: ${terminalSafe(`no stream named '${stream}' in ${manifestFile}; streams: ${names.join(', ')}`)}\n`);
    return 2;
  }

  const progress = format === 'pretty' && err.isTTY ? new ProgressLine(err) : null;
  let result: StreamRead;
  let misses: ReplayMiss[] = [];
  let writeBackFailed = false;
  const env: TestReadEnv = {
    signal,
    paginationTrace: format === 'pretty' || parsedArgs.trace === true,
    ...(state ? { state } : {}),
    onProgress: (e) => progress?.update(e as TestReadProgress),
    onConfigUpdate: (updated) => {
      // A replay never touches the user's files: its tokens come from the cassette, masked.
      if (cassette || !configFile) return;
      // A rotated single-use refresh token must survive this run: write the config back at once.
      const text = `${JSON.stringify(updated, null, 2)}\n`;
      const written = writeBackConfig(configFile, text);
      if (written.ok) {
        err.write(`read: the connector updated its config (e.g. a rotated refresh token); ${configFile} was rewritten.\n`);
        return;
      }
      writeBackFailed = true;
      progress?.clear();
      if (written.recoveredAt) {
        err.write(
          `read: ERROR: the connector rotated its credentials but ${written.reason}. The new config is in ${written.recoveredAt} (readable only by you): move it over ${configFile}, or the old refresh token no longer works.\n`,
        );
      } else if (err.isTTY) {
        // Last resort, on a terminal only (never into a file or a pipe that may persist): shown once.
        err.write(
          `read: ERROR: the connector rotated its credentials but ${written.reason}, and no recovery file could be written. Copy this config now; it is shown only once:\n${text}`,
        );
      } else {
        err.write(
          `read: ERROR: the connector rotated its credentials but ${written.reason}, and no recovery file could be written; the new refresh token is lost (authorize again).\n`,
        );
      }
    },
  };
  const externalOptions = { manifestPath: manifestFile, python: parsedArgs.python, state, signal, onConfigUpdate: env.onConfigUpdate };
  try {
    if (cdkEngine && parsedArgs.record) {
      const recorded = await cdkEngine.record(parsed.value as Record<string, unknown>, config, stream, limits, externalOptions);
      result = recorded.result;
      const written = writeUserFile(parsedArgs.record, formatCassette(recorded.cassette), { root, what: 'the cassette' });
      if (!written.ok) throw new RuntimeError(written.error, 'config_error');
      err.write(
        `read: recorded ${recorded.cassette.exchanges.length} HTTP exchange${recorded.cassette.exchanges.length === 1 ? '' : 's'} to ${parsedArgs.record}\n`,
      );
    } else if (cdkEngine && !parsedArgs.compareEngines) {
      const read = await readOnEngine(
        cdkEngine,
        parsed.value as Record<string, unknown>,
        config,
        stream,
        limits,
        cassette,
        parsedArgs.replay,
        externalOptions,
      );
      result = read.result;
      misses = read.misses;
    } else if (cassette) {
      const replayed = await replayRead(
        parsed.value,
        cassette,
        { config, stream, limits: { ...cassette.limits, ...limits }, name: parsedArgs.replay },
        env,
      );
      result = replayed.result;
      misses = replayed.misses;
    } else if (parsedArgs.record) {
      const recorded = await recordRead(parsed.value, config, stream, limits, env);
      result = recorded.result;
      const written = writeUserFile(parsedArgs.record, formatCassette(recorded.cassette), { root, what: 'the cassette' });
      if (!written.ok) throw new RuntimeError(written.error, 'config_error');
      err.write(
        `read: recorded ${recorded.cassette.exchanges.length} HTTP exchange${recorded.cassette.exchanges.length === 1 ? '' : 's'} to ${parsedArgs.record}\n`,
      );
    } else {
      result = await testRead(parsed.value, config, stream, limits, env);
    }
  } catch (e) {
    progress?.clear();
    // An external engine's errors carry a failureType too (a missing package is a config error: exit 2).
    const failureType = e instanceof RuntimeError ? e.failureType : ((e as { failureType?: string }).failureType ?? 'system_error');
    // Error messages quote API responses: no raw control characters on the terminal.
    err.write(`read: ${format === 'json' ? (e as Error).message : terminalSafe((e as Error).message)}\n`);
    if (writeBackFailed) return 1;
    return failureType === 'config_error' ? 2 : 1;
  }
  progress?.clear();
  for (const m of misses) err.write(`read: replay of ${parsedArgs.replay}: no recorded response for ${m.method} ${m.url} (${m.reason})\n`);
  if (cdkEngine && parsedArgs.compareEngines) {
    return compareWithEngine(cdkEngine, result, {
      manifest: parsed.value as Record<string, unknown>,
      config,
      stream,
      limits,
      cassette,
      replayName: parsedArgs.replay,
      options: externalOptions,
      format,
      out,
      err,
    });
  }
  if (format === 'json') out.write(`${JSON.stringify(result, null, 2)}\n`);
  else out.write(prettySummary(result, stream));
  // A rotated token that could not be saved fails the command even when the read itself worked.
  // An ERROR after which the read went on (an undecodable body, documented) does not fail the command.
  return writeBackFailed || misses.length || result.logs.some((l) => l.level === 'ERROR' && !readWentOnAfter(l)) ? 1 : 0;
}

/** One status line rewritten in place on a terminal. */
class ProgressLine {
  private pages = 0;
  constructor(private readonly err: Out) {}
  update(e: TestReadProgress): void {
    if (e.type === 'page') {
      this.pages++;
      const bar = '#'.repeat(Math.min(20, this.pages)).padEnd(20, '.');
      this.err.write(`\r[${bar}] slice ${e.slice + 1} · page ${e.page + 1} · ${e.totalRecords} records · HTTP ${e.status ?? 'failed'}  `);
    } else if (e.type === 'auxiliary_request') {
      this.err.write(`\r${terminalSafe(`${e.title} (${e.requestType}) → ${e.status ?? 'failed'}`)}`.padEnd(70) + '\n');
    }
  }
  clear(): void {
    this.err.write('\r\x1b[K');
  }
}

function auxiliaryLine(a: StreamRead['auxiliary_requests'][number]): string {
  return `${a.type} ${a.title}: ${a.request.http_method} ${a.request.url} → ${a.response ? `HTTP ${a.response.status}` : 'no response'}`;
}

/** A page's pagination trace in one line: `token in → token out · next page: requested` or `stopped: why`. */
export function traceLine(t: PaginationTrace): string {
  const token = (v: unknown) => (v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));
  return `token ${token(t.token_in)} → ${token(t.token_out)} · ${t.next_requested ? 'next page: requested' : `stopped: ${t.stop_reason ?? 'no reason given'}`}`;
}

/** The readable summary of the pretty format. */
export function prettySummary(r: StreamRead, stream: string): string {
  const lines: string[] = [];
  const records = r.slices.reduce((n, s) => n + s.pages.reduce((m, p) => m + p.records.length, 0), 0);
  const pages = r.slices.reduce((n, s) => n + s.pages.length, 0);
  lines.push(
    `Stream '${stream}': ${records} record${records === 1 ? '' : 's'} in ${pages} page${pages === 1 ? '' : 's'} over ${r.slices.length} slice${r.slices.length === 1 ? '' : 's'}${r.test_read_limit_reached ? ' (test-read limit reached)' : ''}`,
  );
  r.slices.forEach((s, i) => {
    const d = typeof s.slice_descriptor === 'string' ? s.slice_descriptor : JSON.stringify(s.slice_descriptor);
    lines.push(`  slice ${i + 1} ${d}`);
    // Async-job requests (create, poll, delete) belong to their slice (§10.4).
    for (const a of s.auxiliary_requests) lines.push(`    ${auxiliaryLine(a)}`);
    s.pages.forEach((p, j) => {
      lines.push(
        `    page ${j + 1}: ${p.request?.http_method ?? '?'} ${p.request?.url ?? '?'} → ${p.response ? `HTTP ${p.response.status}` : 'no response'}, ${p.records.length} records`,
      );
      if (p.pagination_trace) lines.push(`      ${traceLine(p.pagination_trace)}`);
    });
  });
  // The state the Builder would show on the last slice: what a sync would checkpoint after this read.
  const last = r.slices.length
    ? (r.slices[r.slices.length - 1].state[0] as { stream?: { stream_state?: unknown } } | undefined)
    : undefined;
  if (last?.stream?.stream_state !== undefined) lines.push(`State after the read: ${JSON.stringify(last.stream.stream_state)}`);
  if (r.auxiliary_requests.length) {
    lines.push(`Auxiliary requests (${r.auxiliary_requests.length}):`);
    for (const a of r.auxiliary_requests) lines.push(`  ${auxiliaryLine(a)}`);
  }
  const props = Object.keys((r.inferred_schema?.properties as Record<string, unknown>) ?? {});
  if (props.length) lines.push(`Inferred fields: ${props.join(', ')}`);
  for (const l of r.logs) lines.push(`${l.level}: ${l.message}`);
  // URLs, titles, field names and log messages come from the API and the manifest: shown, never obeyed.
  return `${lines.map(terminalSafe).join('\n')}\n`;
}

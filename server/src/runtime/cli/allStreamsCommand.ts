// `connector-manifest read <manifest> --all-streams --config config.json [--report FILE] [--record DIR]
// [--concurrency N] [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]`: a test read
// of every stream (static and resolved dynamic), a few at a time, summed up per stream; --report writes
// Markdown, JSON or JUnit XML by the file's extension; --record DIR saves one cassette per stream
// (DIR/<stream>.cassette.yaml, what `test --cassettes DIR` replays). Exit codes: 0 every stream read,
// 1 a stream failed, 2 invalid manifest, config or arguments.
import { mkdirSync } from 'node:fs';
import { writeUserFile } from '../files/userFiles';
import { basename, join } from 'node:path';
import { formatCassette } from '../cassette/cassette';
import { RuntimeError } from '../errors';
import { cassetteFileNames } from '../shared/cassetteFiles';
import { formatReadinessReport, reportFormatOf, summaryLine } from '../allStreams/readinessReport';
import { checkConcurrency, DEFAULT_CONCURRENCY, runAllStreams } from '../allStreams/runAllStreams';
import type { TestReadLimits } from '../types';
import { writeBackConfig } from './configWriteBack';
import { loadManifestAndConfig } from './inputs';
import { formatOption, limitOptions, oneArgument, parseOptions, switchOption, valueOption } from './options';
import { terminalSafe } from './terminalText';

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** Runs the command; resolves with the exit code. */
export async function allStreamsCommand(args: string[], out: Out, err: Out, signal?: AbortSignal): Promise<number> {
  let manifestFile = null as string | null;
  let configFile = null as string | null;
  let report = null as string | null;
  let recordDir = null as string | null;
  let concurrency = DEFAULT_CONCURRENCY;
  let format = 'pretty' as 'json' | 'pretty';
  const limits: TestReadLimits = {};
  const problem = parseOptions(args, {
    options: {
      '--all-streams': switchOption(() => {}),
      '--config': valueOption((v) => (configFile = v)),
      '--report': valueOption((v) => (report = v)),
      '--record': valueOption((v) => (recordDir = v)),
      '--concurrency': {
        value: true,
        set: (v) => {
          try {
            concurrency = checkConcurrency(Number(v));
            return undefined;
          } catch (e) {
            return `--${(e as Error).message}`;
          }
        },
      },
      '--format': formatOption((v) => (format = v)),
      ...limitOptions(limits),
      '--stream': { value: false, set: () => '--stream and --all-streams cannot be used together' },
    },
    positional: oneArgument((a) => (manifestFile = a)),
    unknown: (a) =>
      `unknown option ${a} (with --all-streams: --config, --report, --record, --concurrency, --max-records, --max-pages, --max-slices, --format)`,
  });
  if (problem !== undefined) return usage(err, problem);
  if (!manifestFile) return usage(err, 'name the manifest file');
  if (!configFile) return usage(err, 'name the config file with --config config.json');
  const reportFormat = report ? reportFormatOf(report) : null;
  if (report && !reportFormat)
    return usage(err, `--report ${terminalSafe(report)}: the extension says the format: .md (Markdown), .json (JSON) or .xml (JUnit XML)`);
  const inputs = loadManifestAndConfig('read', manifestFile, configFile, err);
  if (!inputs) return 2;
  if (recordDir) {
    try {
      mkdirSync(recordDir, { recursive: true });
    } catch (e) {
      return usage(err, `cannot create ${terminalSafe(recordDir)} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  const tty = format === 'pretty' && err.isTTY === true;
  let writeBackFailed = false;
  const cfgFile = configFile;
  let result;
  try {
    result = await runAllStreams(
      inputs.manifest,
      inputs.config,
      {
        limits,
        concurrency,
        onEvent: (e) => {
          if (!tty) return;
          if (e.type === 'finished')
            err.write(
              `\r\x1b[K[${'#'.repeat(Math.round((20 * e.done) / e.total)).padEnd(20, '.')}] ${e.done}/${e.total} streams · ${terminalSafe(e.summary.stream)} ${e.summary.status}`,
            );
        },
        ...(recordDir
          ? {
              onCassette: (stream: string, cassette: Parameters<typeof formatCassette>[0]) => {
                const path = join(recordDir!, cassetteFileNames(stream).cassette);
                // Under the files policy: never written through a link planted in the folder.
                const written = writeUserFile(path, formatCassette(cassette), { root: recordDir!, what: 'the cassette' });
                if (!written.ok) {
                  writeBackFailed = true;
                  err.write(`read: ${terminalSafe(written.error)}\n`);
                }
              },
            }
          : {}),
      },
      {
        signal,
        onConfigUpdate: (updated) => {
          const written = writeBackConfig(cfgFile, `${JSON.stringify(updated, null, 2)}\n`);
          if (written.ok) err.write(`read: the connector updated its config (e.g. a rotated refresh token); ${cfgFile} was rewritten.\n`);
          else {
            writeBackFailed = true;
            err.write(
              `read: ERROR: the connector rotated its credentials but ${written.reason}.${written.recoveredAt ? ` The new config is in ${written.recoveredAt} (readable only by you): move it over ${cfgFile}.` : ' The new refresh token is lost (authorize again).'}\n`,
            );
          }
        },
      },
    );
  } catch (e) {
    if (tty) err.write('\r\x1b[K');
    err.write(`read: ${terminalSafe((e as Error).message)}\n`);
    return e instanceof RuntimeError && e.failureType === 'config_error' ? 2 : 1;
  }
  if (tty) err.write('\r\x1b[K');
  const name = basename(manifestFile);
  if (format === 'json') out.write(formatReadinessReport(result, name, 'json'));
  else {
    out.write(
      `${result.streams.length} stream${result.streams.length === 1 ? '' : 's'} of ${terminalSafe(name)}, read ${result.concurrency} at a time in ${(result.time_ms / 1000).toFixed(1)} s:\n`,
    );
    const width = Math.max(...result.streams.map((s) => s.stream.length), 6);
    for (const s of result.streams) {
      const mark = s.status === 'failed' ? '✗' : s.status === 'empty' ? '!' : '✓';
      out.write(
        terminalSafe(`  ${mark} ${s.stream.padEnd(width)}  ${summaryLine(s)}${s.errors.length ? ` · ERROR: ${s.errors[0]}` : ''}`) + '\n',
      );
    }
    if (result.listing_error)
      out.write(terminalSafe(`The dynamic streams could not be resolved (only the static streams ran): ${result.listing_error}`) + '\n');
  }
  if (recordDir) err.write(`read: recorded ${result.streams.length} cassette${result.streams.length === 1 ? '' : 's'} to ${recordDir}\n`);
  if (report && reportFormat) {
    const written = writeUserFile(report, formatReadinessReport(result, name, reportFormat), { root: null, what: 'the report' });
    if (!written.ok) {
      err.write(`read: ${terminalSafe(written.error)}\n`);
      return 2;
    }
    err.write(`read: report written to ${report}\n`);
  }
  return writeBackFailed || result.listing_error || result.streams.some((s) => s.status === 'failed') ? 1 : 0;
}

function usage(err: Out, problem: string): number {
  err.write(`read: ${problem}\n`);
  return 2;
}

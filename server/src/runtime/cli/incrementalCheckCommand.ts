// `connector-manifest incremental-check <manifest> --stream NAME --config config.json [--state state.json]
// [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]`: reads the stream three times,
// each from the state the previous read ended with, and checks the incremental sync (docs/incremental.md).
// Exit codes: 0 it holds, 1 a violation (or a failed read), 2 not incremental or invalid input.
import { RuntimeError } from '../errors';
import { formatCheckReport } from '../incremental/checkReportText';
import { incrementalCheck } from '../incremental/incrementalCheck';
import type { TestReadLimits } from '../types';
import { loadManifestAndConfig } from './inputs';
import { readInputText } from './inputFile';
import { formatOption, limitOptions, oneArgument, parseOptions, valueOption } from './options';
import { terminalSafe } from './terminalText';

type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** Runs the command; resolves with the exit code. */
export async function incrementalCheckCommand(args: string[], out: Out, err: Out, signal?: AbortSignal): Promise<number> {
  let manifestFile = null as string | null;
  let stream = null as string | null;
  let configFile = null as string | null;
  let stateFile = null as string | null;
  let format = 'pretty' as 'json' | 'pretty';
  const limits: TestReadLimits = {};
  const problem = parseOptions(args, {
    options: {
      '--stream': valueOption((v) => (stream = v)),
      '--config': valueOption((v) => (configFile = v)),
      '--state': valueOption((v) => (stateFile = v)),
      '--format': formatOption((v) => (format = v)),
      ...limitOptions(limits),
    },
    positional: oneArgument((a) => (manifestFile = a)),
  });
  if (problem !== undefined) return usage(err, problem);
  if (!manifestFile) return usage(err, 'name the manifest file');
  if (!stream) return usage(err, 'name the stream with --stream NAME');
  if (!configFile) return usage(err, 'name the config file with --config config.json');
  const inputs = loadManifestAndConfig('incremental-check', manifestFile, configFile, err);
  if (!inputs) return 2;
  let initialState: Record<string, unknown> | null = null;
  if (stateFile) {
    const text = readInputText(stateFile);
    try {
      if ('error' in text) throw new Error(text.error);
      const value = JSON.parse(text.text) as unknown;
      // A list of state messages (the Builder's input) or the stream's own state object.
      const own = Array.isArray(value)
        ? (value as Array<{ stream?: { stream_descriptor?: { name?: string }; stream_state?: unknown } }>).find(
            (m) => m?.stream?.stream_descriptor?.name === stream,
          )?.stream?.stream_state
        : value;
      if (!own || typeof own !== 'object' || Array.isArray(own))
        throw new Error(`expected the stream's state object or a list of state messages with one for '${stream}'`);
      initialState = own as Record<string, unknown>;
    } catch (e) {
      return usage(err, terminalSafe(`${stateFile} is not a valid state file: ${(e as Error).message}`));
    }
  }
  const progress = format === 'pretty' && err.isTTY === true;
  try {
    const report = await incrementalCheck(
      inputs.manifest,
      inputs.config,
      stream,
      {
        limits,
        initialState,
        onRead: (n, phase) => {
          if (progress) err.write(phase === 'start' ? `\rincremental-check: read ${n} of 3…` : '\r\x1b[K');
        },
      },
      { signal },
    );
    if (format === 'json') out.write(`${JSON.stringify(report, null, 2)}\n`);
    // Record values and URLs come from the API: shown, never obeyed by the terminal.
    else out.write(`${formatCheckReport(report).split('\n').map(terminalSafe).join('\n')}\n`);
    if (!report.incremental) return 2;
    return report.holds ? 0 : 1;
  } catch (e) {
    err.write(`incremental-check: ${terminalSafe((e as Error).message)}\n`);
    return e instanceof RuntimeError && e.failureType === 'config_error' ? 2 : 1;
  }
}

function usage(err: Out, problem: string): number {
  err.write(`incremental-check: ${problem}\n`);
  return 2;
}

// `connector-manifest check <manifest> --config config.json [--format json|pretty]`: the manifest's
// `check` component run as the reference's `source-declarative-manifest check` runs it. Prints the
// connection status and message. Exit codes: 0 SUCCEEDED, 1 FAILED or the check ended in an error,
// 2 invalid input.
import { check } from '../check/check';
import { loadManifestAndConfig } from './inputs';
import { terminalSafe } from './terminalText';
import { formatOption, oneArgument, parseOptions, valueOption } from './options';

type Out = NodeJS.WritableStream;

/** Runs the command; resolves with the exit code. */
export async function checkCommand(args: string[], out: Out, err: Out, signal?: AbortSignal): Promise<number> {
  let manifestFile = null as string | null;
  let configFile = null as string | null;
  let format = 'pretty' as 'json' | 'pretty';
  const problem = parseOptions(args, {
    options: { '--config': valueOption((v) => (configFile = v)), '--format': formatOption((v) => (format = v)) },
    positional: oneArgument((a) => (manifestFile = a)),
  });
  if (problem !== undefined) return usage(err, problem);
  if (!manifestFile) return usage(err, 'name the manifest file');
  if (!configFile) return usage(err, "pass the connector's config with --config config.json");
  const inputs = loadManifestAndConfig('check', manifestFile, configFile, err);
  if (!inputs) return 2;
  try {
    const status = await check(inputs.manifest, inputs.config, { signal });
    if (format === 'json') out.write(`${JSON.stringify({ status: status.status, message: status.message })}\n`);
    else out.write(`${status.status}${status.message !== null ? `: ${terminalSafe(status.message)}` : ''}\n`);
    return status.status === 'SUCCEEDED' ? 0 : 1;
  } catch (e) {
    const message = (e as Error).message;
    if (format === 'json') out.write(`${JSON.stringify({ status: null, error: message })}\n`);
    err.write(`check: ${terminalSafe(message)}\n`);
    return 1;
  }
}

function usage(err: Out, problem: string): number {
  err.write(`check: ${problem}\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n`);
  return 2;
}

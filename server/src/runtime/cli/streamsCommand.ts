// `connector-manifest streams <manifest> [--config config.json] [--format json|pretty]`: the streams a
// read can target — the static ones, then those `dynamic_streams` resolve to with this config (an
// HttpComponentsResolver reads its API). Exit codes: 0 listed, 1 resolving failed, 2 invalid input.
import { RuntimeError } from '../errors';
import { listStreams } from '../testRead/listStreams';
import { loadManifestAndConfig } from './inputs';
import { reportUnlistedStreams } from './unlistedStreams';
import { terminalSafe } from './terminalText';
import { formatOption, oneArgument, parseOptions, valueOption } from './options';

type Out = NodeJS.WritableStream;

/** Runs the command; resolves with the exit code. */
export async function streamsCommand(args: string[], out: Out, err: Out, signal?: AbortSignal): Promise<number> {
  let manifestFile = null as string | null;
  let configFile = null as string | null;
  let format = 'pretty' as 'json' | 'pretty';
  const problem = parseOptions(args, {
    options: { '--config': valueOption((v) => (configFile = v)), '--format': formatOption((v) => (format = v)) },
    positional: oneArgument((a) => (manifestFile = a)),
  });
  if (problem !== undefined) return usage(err, problem);
  if (!manifestFile) return usage(err, 'name the manifest file');
  const inputs = loadManifestAndConfig('streams', manifestFile, configFile, err);
  if (!inputs) return 2;
  try {
    const streams = await listStreams(inputs.manifest, inputs.config, {}, { signal }, (level, message) => {
      if (level === 'ERROR' || level === 'WARN') err.write(`streams: ${level}: ${terminalSafe(message)}\n`);
    });
    // Streams the manifest holds that the source does not define for this config get a located reason.
    reportUnlistedStreams('streams', manifestFile, inputs.parsed, inputs.config, err);
    if (format === 'json') out.write(`${JSON.stringify(streams, null, 2)}\n`);
    // Names come from the manifest and, for dynamic streams, from the API: printed, never obeyed.
    else
      for (const s of streams) out.write(terminalSafe(s.dynamic ? `${s.name}\t(dynamic: ${s.definition}, ${s.resolver})` : s.name) + '\n');
    return 0;
  } catch (e) {
    err.write(`streams: ${format === 'json' ? (e as Error).message : terminalSafe((e as Error).message)}\n`);
    if (configFile === null) err.write("streams: dynamic streams are resolved with the connector's config: pass --config config.json\n");
    return e instanceof RuntimeError && e.failureType === 'config_error' && configFile === null ? 2 : 1;
  }
}

function usage(err: Out, problem: string): number {
  err.write(`streams: ${problem}\n`);
  return 2;
}

// `read --engine cdk` and `read --compare-engines`: the read on an injected external engine (live or
// from the cassette of --replay), and the comparison of the built-in read with it. The engine itself is
// not part of the runtime (readEngine.ts says why).
import type { Cassette } from '../cassette/cassette';
import type { ReplayMiss } from '../cassette/replay';
import type { StreamRead } from '../testRead/streamRead';
import type { TestReadLimits } from '../types';
import type { ExternalReadEngine, ExternalReadOptions } from './readEngine';
import { terminalSafe } from './terminalText';

/** One read on `engine`: replayed from `cassette` when there is one (its masked config and limits), else live. */
export async function readOnEngine(
  engine: ExternalReadEngine,
  manifest: Record<string, unknown>,
  config: Record<string, unknown>,
  stream: string,
  limits: TestReadLimits,
  cassette: Cassette | null,
  replayName: string | undefined,
  options: ExternalReadOptions,
): Promise<{ result: StreamRead; misses: ReplayMiss[] }> {
  if (cassette) {
    // Offline: no token is written back (the cassette's are masked).
    const { onConfigUpdate: _dropped, ...offline } = options;
    return engine.replay(
      manifest,
      cassette,
      { stream, limits: { ...cassette.limits, ...limits }, name: replayName ?? 'the cassette' },
      offline,
    );
  }
  return { result: await engine.read(manifest, config, stream, limits, options), misses: [] };
}

type Out = NodeJS.WritableStream;

/**
 * Reads the stream again on `engine` and prints the differences from the built-in read `builtin`
 * (JSON: `{ identical, differences, counts }`). Exit code 0 when identical, 1 when not or when the
 * engine failed.
 */
export async function compareWithEngine(
  engine: ExternalReadEngine,
  builtin: StreamRead,
  a: {
    manifest: Record<string, unknown>;
    config: Record<string, unknown>;
    stream: string;
    limits: TestReadLimits;
    cassette: Cassette | null;
    replayName?: string;
    options: ExternalReadOptions;
    format: 'json' | 'pretty';
    out: Out;
    err: Out;
  },
): Promise<number> {
  let other: { result: StreamRead; misses: ReplayMiss[] };
  try {
    other = await readOnEngine(engine, a.manifest, a.config, a.stream, a.limits, a.cassette, a.replayName, a.options);
  } catch (e) {
    a.err.write(`read: ${engine.label}: ${terminalSafe((e as Error).message)}\n`);
    return 1;
  }
  for (const m of other.misses) a.err.write(`read: ${engine.label} replay: no recorded response for ${m.method} ${m.url} (${m.reason})\n`);
  const c = engine.compare(builtin, other.result, a.stream, a.cassette ? { ...a.cassette.limits, ...a.limits } : a.limits);
  if (a.format === 'json') a.out.write(`${JSON.stringify(c.value, null, 2)}\n`);
  else a.out.write(c.text.split('\n').map(terminalSafe).join('\n'));
  return c.identical && other.misses.length === 0 ? 0 : 1;
}

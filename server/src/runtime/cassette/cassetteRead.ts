// A test read recorded to a cassette, and a test read replayed from one: the same testRead with a
// recording or replaying env.fetch and a masker shared between the read and the cassette.
import { resolveFetch } from '../http/transport';
import { testRead } from '../testRead/testRead';
import type { StreamRead } from '../testRead/streamRead';
import type { TestReadEnv, TestReadLimits } from '../types';
import type { Cassette } from './cassette';
import { CassetteMasker, TeachingMasker } from './cassetteMasker';
import { CassetteRecorder } from './recorder';
import { CassetteReplayer, type ReplayMiss } from './replay';

/**
 * How a recorded read's StreamRead is masked: `cassette` (the default, what `read --record` prints) masks
 * it like the cassette, credential-named config values included; `testRead` masks it exactly as a read
 * without a recorder would (the editor records every Run stream and must show what it always showed).
 */
export type RecordOptions = { readMasking?: 'cassette' | 'testRead' };

/** Runs a test read and returns its result with the masked cassette of every exchange it made. */
export async function recordRead(
  manifest: object,
  config: Record<string, unknown>,
  stream: string,
  limits: TestReadLimits = {},
  env: TestReadEnv = {},
  options: RecordOptions = {},
): Promise<{ result: StreamRead; cassette: Cassette }> {
  const masker = new CassetteMasker();
  masker.addCredentialsOf(config);
  const readMasker = options.readMasking === 'testRead' ? new TeachingMasker(masker) : masker;
  const recorder = new CassetteRecorder(env.now ? env.now() : new Date());
  // The config as it was before the read: a rotated refresh token is written back into it during the read.
  const configAtStart = structuredClone(config);
  const fetch = recorder.wrap(resolveFetch(env, { signal: env.signal }));
  const result = await testRead(manifest, config, stream, limits, { ...env, fetch, masker: readMasker });
  masker.addCredentialsOf(config);
  return { result, cassette: recorder.cassette(masker, stream, configAtStart, limits) };
}

/**
 * Replays a read offline from a cassette. `config` defaults to the cassette's (masked) config; the clock
 * runs from the recording's start. `misses` lists the requests the cassette could not answer.
 */
export async function replayRead(
  manifest: object,
  cassette: Cassette,
  options: { config?: Record<string, unknown>; stream?: string; limits?: TestReadLimits; name?: string } = {},
  env: TestReadEnv = {},
): Promise<{ result: StreamRead; misses: ReplayMiss[]; unused: number }> {
  const masker = new CassetteMasker();
  const replayer = new CassetteReplayer(cassette, masker, options.name ?? 'the cassette');
  const recordedAt = Date.parse(cassette.recorded_at);
  const started = Date.now();
  const replayEnv: TestReadEnv = {
    now: () => new Date(recordedAt + (Date.now() - started)),
    // Waits (retry back-off, async-job polls) were spent while recording; replay does not repeat them.
    sleep: async () => {},
    ...env,
    fetch: replayer.fetch(),
    masker,
  };
  const config = structuredClone(options.config ?? cassette.config);
  masker.addCredentialsOf(config);
  const result = await testRead(manifest, config, options.stream ?? cassette.stream, options.limits ?? cassette.limits, replayEnv);
  return { result, misses: dedupe(replayer.misses), unused: replayer.unused() };
}

function dedupe(misses: ReplayMiss[]): ReplayMiss[] {
  const seen = new Set<string>();
  return misses.filter((m) => {
    const k = `${m.method} ${m.url}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// A cassette replayed on the CDK engine: the CDK reads with the cassette's masked config and limits,
// and every request it makes is answered by the loopback replay server (cassetteReplayServer.ts).
import type { Cassette } from '../runtime/cassette/cassette';
import type { ReplayMiss } from '../runtime/cassette/replay';
import type { StreamRead } from '../runtime/testRead/streamRead';
import type { TestReadLimits } from '../runtime/types';
import { startCassetteReplayServer } from './cassetteReplayServer';
import { cdkTestRead, type CdkReadOptions } from './cdkTestRead';

/** Replays `cassette` through the CDK; resolves with the read and the requests the cassette did not hold. */
export async function cdkReplayRead(
  manifest: Record<string, unknown>,
  cassette: Cassette,
  options: { stream?: string; limits?: TestReadLimits; name?: string; config?: Record<string, unknown> },
  cdk: Omit<CdkReadOptions, 'replayUrl' | 'onConfigUpdate'>,
): Promise<{ result: StreamRead; misses: ReplayMiss[] }> {
  const config = structuredClone(options.config ?? cassette.config);
  const server = await startCassetteReplayServer(cassette, config, options.name ?? 'the cassette');
  try {
    // A replay never writes tokens back: the cassette's are masked.
    const result = await cdkTestRead(manifest, config, options.stream ?? cassette.stream, options.limits ?? cassette.limits, { ...cdk, replayUrl: server.url });
    const seen = new Set<string>();
    const misses = server.misses().filter((m) => !seen.has(`${m.method} ${m.url}`) && seen.add(`${m.method} ${m.url}`));
    return { result, misses };
  } finally {
    await server.close();
  }
}

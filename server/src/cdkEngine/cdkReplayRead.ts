// Cassettes on the CDK engine: a replay (the CDK reads with the cassette's masked config and limits,
// every request answered from the cassette) and a recording (every exchange of the CDK's read kept
// and masked as the built-in engine's recorder does), both through the loopback relay.
import type { Cassette } from '../runtime';
import { CassetteMasker } from '../runtime';
import { CassetteRecorder } from '../runtime';
import { CassetteReplayer, type ReplayMiss } from '../runtime';
import { createHttpFetch } from '../runtime';
import type { StreamRead } from '../runtime';
import type { TestReadLimits } from '../runtime';
import { startLoopbackRelay } from './loopbackRelay';
import { cdkTestRead, type CdkReadOptions } from './cdkTestRead';

/** Replays `cassette` through the CDK; resolves with the read and the requests the cassette did not hold. */
export async function cdkReplayRead(
  manifest: Record<string, unknown>,
  cassette: Cassette,
  options: { stream?: string; limits?: TestReadLimits; name?: string; config?: Record<string, unknown> },
  cdk: Omit<CdkReadOptions, 'relayUrl' | 'onConfigUpdate'>,
): Promise<{ result: StreamRead; misses: ReplayMiss[] }> {
  const config = structuredClone(options.config ?? cassette.config);
  const masker = new CassetteMasker();
  masker.addCredentialsOf(config);
  const replayer = new CassetteReplayer(cassette, masker, options.name ?? 'the cassette');
  const relay = await startLoopbackRelay(replayer.fetch());
  try {
    // A replay never writes tokens back: the cassette's are masked.
    const result = await cdkTestRead(manifest, config, options.stream ?? cassette.stream, options.limits ?? cassette.limits, {
      ...cdk,
      relayUrl: relay.url,
    });
    const seen = new Set<string>();
    const misses = replayer.misses.filter((m) => !seen.has(`${m.method} ${m.url}`) && seen.add(`${m.method} ${m.url}`));
    return { result, misses };
  } finally {
    await relay.close();
  }
}

/** Reads through the CDK while recording every HTTP exchange; the cassette is masked like the built-in engine's. */
export async function cdkRecordRead(
  manifest: Record<string, unknown>,
  config: Record<string, unknown>,
  stream: string,
  limits: TestReadLimits,
  cdk: Omit<CdkReadOptions, 'relayUrl'>,
  transport: { timeoutMs?: number; maxResponseBytes?: number } = {},
): Promise<{ result: StreamRead; cassette: Cassette }> {
  const masker = new CassetteMasker();
  masker.addCredentialsOf(config);
  const configAtStart = structuredClone(config);
  let latest = config;
  const recorder = new CassetteRecorder(new Date());
  const relay = await startLoopbackRelay(recorder.wrap(createHttpFetch({ ...transport, signal: cdk.signal })));
  try {
    const result = await cdkTestRead(manifest, config, stream, limits, {
      ...cdk,
      relayUrl: relay.url,
      onConfigUpdate: (c) => {
        latest = { ...latest, ...c };
        cdk.onConfigUpdate?.(c);
      },
    });
    // Rotated tokens are credentials of the recording too.
    masker.addCredentialsOf(latest);
    return { result, cassette: recorder.cassette(masker, stream, configAtStart, limits) };
  } finally {
    await relay.close();
  }
}

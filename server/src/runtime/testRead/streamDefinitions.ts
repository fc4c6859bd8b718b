// The static stream definitions of a resolved manifest as the reference's `_stream_configs` lists them:
// each `ConditionalStreams` entry (CDK 6.55) contributes its `streams` when its `condition`, rendered
// with the config only, is true, and nothing otherwise. Read, check and `streams` all go through here.
import { evalBoolean } from '../http/interpolatedValues';
import type { RuntimeEnv } from '../types';

type Obj = Record<string, unknown>;

/** One static stream and, when it comes from a ConditionalStreams entry, that entry's index in `streams`. */
export type StreamDefinition = { stream: Obj; conditionalIndex: number | null };

/** A ConditionalStreams entry whose condition is false for this config: its streams are left out. */
export type SkippedStreams = { index: number; condition: string; names: string[] };

/** The static streams for `config`, and the ConditionalStreams entries left out (with the names they hold). Never throws on a false condition; a template error throws RuntimeError. */
export function streamDefinitions(root: Obj, config: Obj, env?: RuntimeEnv): { streams: StreamDefinition[]; skipped: SkippedStreams[] } {
  const out: StreamDefinition[] = [];
  const skipped: SkippedStreams[] = [];
  const entries = Array.isArray(root.streams) ? (root.streams as unknown[]) : [];
  entries.forEach((entry, index) => {
    if (!entry || typeof entry !== 'object') return;
    const e = entry as Obj;
    if (e.type !== 'ConditionalStreams') {
      out.push({ stream: e, conditionalIndex: null });
      return;
    }
    const inner = (Array.isArray(e.streams) ? e.streams : []).filter((s): s is Obj => !!s && typeof s === 'object');
    // The reference renders the condition with parameters={} and the (normalized) config.
    if (evalBoolean(e.condition ?? '', { config, parameters: {} }, env)) {
      for (const s of inner) out.push({ stream: s, conditionalIndex: index });
    } else {
      skipped.push({ index, condition: String(e.condition ?? ''), names: inner.map((s) => String(s.name ?? '')).filter(Boolean) });
    }
  });
  return { streams: out, skipped };
}

/** Why a stream name of a false ConditionalStreams entry is not read, or null when `name` is not in one. */
export function skippedReason(skipped: SkippedStreams[], name: string): string | null {
  const hit = skipped.find((s) => s.names.includes(name));
  return hit
    ? `Stream '${name}' is inside ConditionalStreams (streams[${hit.index}]) whose condition ${JSON.stringify(hit.condition)} is false for this config, so the source does not define it.`
    : null;
}

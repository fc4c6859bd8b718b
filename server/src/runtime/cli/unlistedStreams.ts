// The streams a manifest holds that the source does not define for a given config (a ConditionalStreams
// entry whose condition is false), reported as `file:line:col: note: …` so that `validate`, `streams`
// and `read` agree about every stream: a stream left out is never left out silently.
import { normalizeConfig } from '../config/configNormalization';
import { resolveManifest } from '../manifest/resolve';
import type { ParsedManifest } from '../manifest/parse';
import { streamDefinitions } from '../testRead/streamDefinitions';

type Out = NodeJS.WritableStream;

/** Writes one located note per stream left out; never throws (a broken condition is the read's to report). */
export function reportUnlistedStreams(
  command: string,
  file: string,
  parsed: ParsedManifest,
  config: Record<string, unknown>,
  err: Out,
): void {
  try {
    const root = resolveManifest(parsed.value as object).value as Record<string, unknown>;
    const cfg = normalizeConfig(root.spec, config).config;
    for (const s of streamDefinitions(root, cfg).skipped) {
      const where = parsed.locator.locate(['streams', s.index, 'condition']) ?? parsed.locator.locate(['streams', s.index]);
      const pos = parsed.locator.lineCol(where?.valueSpan.start ?? 0);
      for (const name of s.names) {
        err.write(
          `${command}: ${file}:${pos.line}:${pos.col}: note: stream '${name}' is not listed: its ConditionalStreams condition ${JSON.stringify(s.condition)} is false for this config\n`,
        );
      }
    }
  } catch {
    // Resolving or rendering failed: the command's own run reports it.
  }
}

// The streams of a document that a test read cannot run (a component of runtime/schema/runnability.ts
// marked not runnable), by name, with the short reason the "Run stream" lens shows instead of running.
import type { ManifestDocument } from '../documents';
import { resolveManifest } from '../runtime';
import { COMPONENT_RUNNABILITY, FIELD_RUNNABILITY, notRunnableIn } from '../runtime';

// Names whose presence in the text makes resolving worthwhile (most manifests have none).
const TRIGGERS = [
  ...Object.entries(COMPONENT_RUNNABILITY)
    .filter(([, r]) => r.kind === 'not_runnable' && !r.onlyWithState)
    .map(([t]) => t),
  ...Object.entries(FIELD_RUNNABILITY)
    .filter(([, r]) => r.kind === 'not_runnable' && !r.onlyWithState)
    .map(([t]) => t.split('.')[1]),
];

/** Stream name → "<Type> (see the warning on it)". Streams read without an input state (a lens read). Never throws. */
export function notRunnableStreams(doc: ManifestDocument): Map<string, string> {
  const out = new Map<string, string>();
  const text = doc.textDocument.getText();
  if (!TRIGGERS.some((t) => text.includes(t))) return out;
  try {
    const parsed = doc.parsed;
    if (!parsed.value || typeof parsed.value !== 'object') return out;
    const root = resolveManifest(parsed.value, { parsed }).value as Record<string, unknown>;
    const entries = Array.isArray(root?.streams) ? (root.streams as Record<string, unknown>[]) : [];
    const streams = entries.flatMap((e) =>
      e && e.type === 'ConditionalStreams' && Array.isArray(e.streams) ? (e.streams as Record<string, unknown>[]) : [e],
    );
    for (const s of streams) {
      if (!s || typeof s.name !== 'string') continue;
      const hit = notRunnableIn(s, false);
      if (hit) out.set(s.name, `${hit.type} (see the warning on it)`);
    }
  } catch {
    // Resolution problems have their own diagnostics; the lenses stay as they are.
  }
  return out;
}

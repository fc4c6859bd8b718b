// The entry point of "New stream from cURL / HAR": requests → streams, written as a new manifest or as
// edits to the manifest being edited. The caller parses the cURL command or HAR file first.
import { deriveStream, type StreamDraft } from './deriveStream';
import type { RequestSketch } from './requestSketch';
import { addStreamsEdits, newManifestText, scaffoldContextOf, type OffsetEdit } from './scaffoldYaml';

export type { RequestSketch } from './requestSketch';
export type { OffsetEdit } from './scaffoldYaml';

/** Either a new manifest's text, or edits to `existing`; `streams` names what was added. */
export type ScaffoldResult = { text?: string; edits?: OffsetEdit[]; streams: string[] };

/**
 * One stream per distinct endpoint (method + URL without query; the first request of each wins).
 * With `existing` (a manifest's text) the result is edits to it; without, a new manifest. Never throws.
 */
export function scaffoldStreams(requests: RequestSketch[], existing: string | undefined, origin: string): ScaffoldResult {
  const context = scaffoldContextOf(existing);
  const seen = new Set<string>();
  const drafts: StreamDraft[] = [];
  for (const r of requests) {
    const endpoint = `${r.method} ${r.url}`;
    if (seen.has(endpoint)) continue;
    seen.add(endpoint);
    drafts.push(deriveStream(r, context));
  }
  const streams = drafts.map((d) => d.name);
  if (drafts.length === 0) return { streams };
  return existing !== undefined && existing.trim() !== ''
    ? { edits: addStreamsEdits(existing, drafts), streams }
    : { text: newManifestText(drafts, origin), streams };
}

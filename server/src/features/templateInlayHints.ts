// Inlay hints after each templated field: what it evaluated to on the selected page of the stream's last
// read (the captured read; the last page unless the results view selected another), with the runtime's
// own evaluator, as the hover shows per page. Nothing before a stream was read; off with the
// `airbyte.inlayHints.templateValues` setting (the client tells the server).
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver';
import { positionToOffset, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import type { CapturedReads } from '../captured/capturedReads';
import { capturedPlacesAt, pageLabel } from '../captured/capturedContext';
import { documentTemplates } from './jinjaDocument';
import { evaluateOnPages } from './capturedHover';

/** Longest value shown inline; the tooltip has it whole. */
const MAX_LABEL = 48;

/** The page the hints evaluate on, per `uri#stream`: `{ slice, page }` of the captured read. */
export type PageSelection = Map<string, { slice: number; page: number }>;

function inline(v: unknown): string {
  const text = v === null || v === undefined ? 'null' : typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
}

/** The hints of the templates inside `range`; [] without a captured read. Never throws. */
export function provideTemplateInlayHints(
  doc: ManifestDocument,
  captured: CapturedReads | undefined,
  range: Range,
  selection: PageSelection = new Map(),
): InlayHint[] {
  if (!captured?.has(doc.uri)) return [];
  let start: number;
  let end: number;
  try {
    start = positionToOffset(doc.textDocument, range.start);
    end = positionToOffset(doc.textDocument, range.end);
  } catch {
    return [];
  }
  const hints: InlayHint[] = [];
  for (const t of documentTemplates(doc).templates) {
    const at = t.offsets[t.offsets.length - 1];
    if (at < start || at > end || !/\{\{|\{%/.test(t.text)) continue;
    try {
      const place = capturedPlacesAt(doc, captured, t.path)[0];
      if (!place) continue;
      const results = evaluateOnPages(place, t);
      if (!results.length) continue;
      const wanted = selection.get(`${doc.uri}#${place.streamName}`);
      let i = wanted ? place.read.pages.findIndex((p) => p.slice === wanted.slice && p.page === wanted.page) : -1;
      if (i < 0) i = results.length - 1;
      const r = results[i];
      const label = 'value' in r ? `= ${inline(r.value)}` : 'error' in r ? '= error' : '= ?';
      const where = `${pageLabel(place.read, place.read.pages[i])} of the last read of \`${place.streamName}\``;
      const full =
        'value' in r
          ? typeof r.value === 'string'
            ? r.value
            : JSON.stringify(r.value)
          : 'error' in r
            ? r.error
            : 'unknown: the next-page token of this page could not be replayed';
      // After the closing quote of a quoted scalar, not inside it.
      const after = doc.text[at] === '"' || doc.text[at] === "'" ? at + 1 : at;
      hints.push({
        position: spanToRange(doc.textDocument, { start: after, end: after }).start,
        label,
        kind: InlayHintKind.Parameter,
        paddingLeft: true,
        tooltip: { kind: 'markdown', value: `\`${t.component}.${t.field}\` on ${where}:\n\n\`\`\`\n${full}\n\`\`\`` },
      });
    } catch {
      // One template that cannot be evaluated costs its hint only.
    }
  }
  return hints;
}

// The paginator summary of the last read, as a code lens above the paginator of each stream that has
// a captured read: "3 pages · stopped: stop_condition evaluated true" from the read's pagination trace
// (page.pagination_trace, which the language server asks the runtime for), "3 pages read" for a read
// without one (fed by airbyte/captureRead). Display only: the lens runs no command.
import type { CodeLens } from 'vscode-languageserver';
import type { ManifestDocument } from '../documents';
import type { CapturedRead, CapturedReads } from '../captured/capturedReads';
import { findStreams } from './streams';
import { findResolvedStream } from './streamComponents';
import { spanToRange } from '../convert';

/**
 * A stop reason short enough for a lens: the trace's reason without the template it quotes and
 * without the detail after a colon (`stop_condition "{{ … }}" evaluated true` → `stop_condition
 * evaluated true`); the whole reason is the lens's tooltip.
 */
export function shortStopReason(reason: string): string {
  const short = reason
    .replace(/\s*"\{\{[\s\S]*?\}\}"/g, '')
    .replace(/:\s[\s\S]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return short.length > 80 ? `${short.slice(0, 79)}…` : short;
}

/** The lens title for a captured read, and the last page's whole stop reason when it was traced. */
export function paginatorSummary(read: CapturedRead): { title: string; reason: string | null } {
  const n = read.pages.length + read.droppedPages;
  const pages = `${n} page${n === 1 ? '' : 's'}`;
  const last = read.pages[read.pages.length - 1];
  if (!last || !read.pages.every((p) => p.trace)) return { title: `${pages} read`, reason: null };
  const reason = last.trace!.stop_reason ?? (last.trace!.next_requested ? 'a next page was requested' : 'no reason given');
  return { title: `${pages} · stopped: ${shortStopReason(reason)}`, reason };
}

/** The summary lenses of `doc`; [] without a captured read. Never throws. */
export function providePaginatorLenses(doc: ManifestDocument, captured: CapturedReads | undefined): CodeLens[] {
  if (!captured?.has(doc.uri)) return [];
  const reads = captured.forUri(doc.uri);
  const lenses: { at: number; stream: string; title: string; reason: string | null }[] = [];
  for (const stream of findStreams(doc)) {
    const read = reads.get(stream.name);
    if (!read) continue;
    const resolved = findResolvedStream(doc, stream.name);
    const retriever = resolved?.value.retriever as Record<string, unknown> | undefined;
    if (!resolved || !retriever?.paginator) continue;
    const located = resolved.resolved.origins.locate(['streams', resolved.index, 'retriever', 'paginator']);
    if (!located) continue;
    lenses.push({ at: located.keySpan?.start ?? located.span.start, stream: stream.name, ...paginatorSummary(read) });
  }
  // A paginator shared by several streams carries one lens per stream, each naming its stream.
  return lenses.map((l) => {
    const shared = lenses.filter((o) => o.at === l.at).length > 1;
    const title = shared ? `${l.stream}: ${l.title}` : l.title;
    return {
      range: spanToRange(doc.textDocument, { start: l.at, end: l.at }),
      command: { title, command: '', ...(l.reason ? { tooltip: `Last page: ${l.reason}` } : {}) },
    };
  });
}

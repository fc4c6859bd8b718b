// The paginator summary of the last read, as a code lens above the paginator of each stream that has
// a captured read: "3 pages · stopped: stop_condition true" when the read traced its pagination
// (page.pagination_trace), "3 pages read" otherwise. Display only: the lens runs no command.
import type { CodeLens } from 'vscode-languageserver';
import type { ManifestDocument } from '../documents';
import type { CapturedRead, CapturedReads } from '../captured/capturedReads';
import { findStreams } from './streams';
import { findResolvedStream } from './streamComponents';
import { spanToRange } from '../convert';

/** The lens title for a captured read. */
export function paginatorSummary(read: CapturedRead): string {
  const n = read.pages.length + read.droppedPages;
  const pages = `${n} page${n === 1 ? '' : 's'}`;
  const last = read.pages[read.pages.length - 1];
  if (!last || !read.pages.every((p) => p.trace)) return `${pages} read`;
  return `${pages} · stopped: ${last.trace!.stop_reason ?? (last.trace!.next_requested ? 'next page requested' : 'no reason given')}`;
}

/** The summary lenses of `doc`; [] without a captured read. Never throws. */
export function providePaginatorLenses(doc: ManifestDocument, captured: CapturedReads | undefined): CodeLens[] {
  if (!captured?.has(doc.uri)) return [];
  const reads = captured.forUri(doc.uri);
  const lenses: { at: number; stream: string; title: string }[] = [];
  for (const stream of findStreams(doc)) {
    const read = reads.get(stream.name);
    if (!read) continue;
    const resolved = findResolvedStream(doc, stream.name);
    const retriever = resolved?.value.retriever as Record<string, unknown> | undefined;
    if (!resolved || !retriever?.paginator) continue;
    const located = resolved.resolved.origins.locate(['streams', resolved.index, 'retriever', 'paginator']);
    if (!located) continue;
    lenses.push({ at: located.keySpan?.start ?? located.span.start, stream: stream.name, title: paginatorSummary(read) });
  }
  // A paginator shared by several streams carries one lens per stream, each naming its stream.
  return lenses.map((l) => {
    const shared = lenses.filter((o) => o.at === l.at).length > 1;
    return { range: spanToRange(doc.textDocument, { start: l.at, end: l.at }), command: { title: shared ? `${l.stream}: ${l.title}` : l.title, command: '' } };
  });
}

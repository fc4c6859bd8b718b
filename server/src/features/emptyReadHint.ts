// After a test read that returned 0 records although the API answered with data: an information
// diagnostic on the stream's `field_path` (else its record selector) naming the response's
// top-level keys and the `field_path` that selects the records, with a quick fix that writes it
// (the diagnostic carries a `replace` fix over the field_path's value, so codeActions.ts offers it).
// Driven by the captured read, so the hint comes and goes with each read.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import type { CapturedReads } from '../captured/capturedReads';
import { decodedResponse } from '../captured/capturedContext';
import { findStreams } from './streams';
import { findResolvedStream } from './streamComponents';

type Obj = Record<string, unknown>;

const isMap = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Where the records are in a response: the path to its largest list of objects (two levels at most), or null. */
export function recordsPathIn(response: unknown): { path: string[]; count: number } | null {
  if (Array.isArray(response)) return response.some(isMap) ? { path: [], count: response.length } : null;
  if (!isMap(response)) return null;
  let best: { path: string[]; count: number } | null = null;
  const consider = (path: string[], v: unknown) => {
    if (Array.isArray(v) && v.length > 0 && v.some(isMap) && (!best || v.length > best.count)) best = { path, count: v.length };
  };
  for (const [k, v] of Object.entries(response)) consider([k], v);
  if (!best) for (const [k, v] of Object.entries(response)) if (isMap(v)) for (const [k2, v2] of Object.entries(v)) consider([k, k2], v2);
  return best;
}

/** A field_path as flow YAML: `[data]`, `[results, items]`, `[]`. */
export function flowPath(path: readonly string[]): string {
  return `[${path.map((s) => (/^[A-Za-z_][\w-]*$/.test(s) && !/^(true|false|null|yes|no|on|off)$/i.test(s) ? s : JSON.stringify(s))).join(', ')}]`;
}

/** The hints of `doc` for its streams whose captured read has no record. Never throws. */
export function provideEmptyReadHints(doc: ManifestDocument, captured: CapturedReads | undefined): Diagnostic[] {
  if (!captured?.has(doc.uri)) return [];
  const reads = captured.forUri(doc.uri);
  const out: Diagnostic[] = [];
  for (const { name } of findStreams(doc)) {
    const read = reads.get(name);
    if (!read || read.pages.length === 0 || read.pages.some((p) => p.records.length > 0)) continue;
    const resolved = findResolvedStream(doc, name);
    if (!resolved) continue;
    const page = read.pages[0];
    const response = decodedResponse(resolved.value, page);
    const found = recordsPathIn(response);
    const keys = isMap(response) ? Object.keys(response) : [];
    if (!found && keys.length === 0) continue;
    const selector = ['streams', resolved.index, 'retriever', 'record_selector'];
    const extractor =
      resolved.value.retriever && isMap(resolved.value.retriever) ? (resolved.value.retriever as Obj).record_selector : undefined;
    const dpath = isMap(extractor) && isMap(extractor.extractor) && (extractor.extractor.type ?? 'DpathExtractor') === 'DpathExtractor';
    const fieldPath = dpath ? resolved.resolved.origins.locate([...selector, 'extractor', 'field_path']) : undefined;
    const at = fieldPath && !fieldPath.approximate ? fieldPath : resolved.resolved.origins.locate(selector);
    if (!at) continue;
    const keyList = keys.length
      ? `The response's top-level keys: ${keys
          .slice(0, 12)
          .map((k) => `\`${k}\``)
          .join(', ')}${keys.length > 12 ? ', …' : ''}.`
      : 'The response is a list.';
    const suggestion = found
      ? ` \`field_path: ${flowPath(found.path)}\` selects ${found.count} record${found.count === 1 ? '' : 's'} of the first page.`
      : '';
    const diagnostic: Diagnostic = {
      range: spanToRange(doc.textDocument, fieldPath && !fieldPath.approximate ? fieldPath.span : (at.keySpan ?? at.span)),
      severity: DiagnosticSeverity.Information,
      source: 'airbyte',
      code: 'empty-read',
      message: `The last read of \`${name}\` returned 0 records. ${keyList}${suggestion}`,
    };
    // The fix replaces the field_path's value, so it is only offered where that value is written.
    if (found && dpath && fieldPath && !fieldPath.approximate) diagnostic.data = { kind: 'replace', text: flowPath(found.path) };
    out.push(diagnostic);
  }
  return out;
}

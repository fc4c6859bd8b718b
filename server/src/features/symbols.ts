// Document symbols for the outline and breadcrumbs: the top-level sections, each stream by name,
// the definitions (grouping maps such as `definitions.streams` are expanded), schemas and spec.
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import type { Segment } from '../model/manifestModel';
import { findStreams } from './streams';

const SECTION_KIND: Record<string, SymbolKind> = {
  streams: SymbolKind.Array,
  dynamic_streams: SymbolKind.Array,
  definitions: SymbolKind.Namespace,
  schemas: SymbolKind.Namespace,
  spec: SymbolKind.Interface,
  check: SymbolKind.Event,
};

/** How deep grouping maps under `definitions` are expanded. */
const DEFINITION_DEPTH = 3;

/** The symbol tree of `doc`. Never throws; an unreadable document has no symbols. */
export function provideDocumentSymbols(doc: ManifestDocument): DocumentSymbol[] {
  const root = doc.model.value;
  if (!isPlainMap(root)) return [];
  const out: DocumentSymbol[] = [];
  for (const key of Object.keys(root)) {
    const symbol = symbolAt(doc, [key], key, SECTION_KIND[key] ?? SymbolKind.Property);
    if (!symbol) continue;
    if (key === 'streams') symbol.children = streamSymbols(doc);
    else if (key === 'definitions') symbol.children = mapSymbols(doc, [key], root[key], DEFINITION_DEPTH);
    else if (key === 'schemas' || key === 'spec') symbol.children = mapSymbols(doc, [key], root[key], 1);
    out.push(symbol);
  }
  return out;
}

function streamSymbols(doc: ManifestDocument): DocumentSymbol[] {
  return findStreams(doc).map((s) => {
    const range = spanToRange(doc.textDocument, s.span);
    // The item's first line is selected: finding `name` inside would parse every stream's block.
    const selectionEnd = Math.min(doc.locator.lineEnd(s.span.start), s.span.end);
    const selection = spanToRange(doc.textDocument, { start: s.span.start, end: selectionEnd });
    return { name: s.name, kind: SymbolKind.Class, range, selectionRange: selection };
  });
}

function mapSymbols(doc: ManifestDocument, path: Segment[], value: unknown, depth: number): DocumentSymbol[] {
  if (!isPlainMap(value)) return [];
  const out: DocumentSymbol[] = [];
  for (const [key, child] of Object.entries(value)) {
    const isComponent = isPlainMap(child) && ('type' in child || '$ref' in child);
    const symbol = symbolAt(
      doc,
      [...path, key],
      key,
      isComponent ? SymbolKind.Object : isPlainMap(child) ? SymbolKind.Namespace : SymbolKind.Field,
    );
    if (!symbol) continue;
    if (isComponent && typeof child.type === 'string') symbol.detail = child.type;
    if (!isComponent && depth > 1) symbol.children = mapSymbols(doc, [...path, key], child, depth - 1);
    out.push(symbol);
  }
  return out;
}

function symbolAt(doc: ManifestDocument, path: Segment[], name: string, kind: SymbolKind): DocumentSymbol | null {
  const location = doc.locator.locate(path);
  if (!location) return null;
  const selectionSpan = location.keySpan ?? location.valueSpan;
  const span = { start: selectionSpan.start, end: Math.max(selectionSpan.end, location.valueSpan.end) };
  return {
    name: name === '' ? '""' : name,
    kind,
    range: spanToRange(doc.textDocument, span),
    selectionRange: spanToRange(doc.textDocument, selectionSpan),
  };
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

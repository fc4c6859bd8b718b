// Text → parsed manifest: the `yaml` Document with exact source ranges, its plain JS value, and
// every YAML problem as a located Problem. Never throws (design invariant 3).
import { isMap, isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type { Problem } from '../problems';
import { documentTree, ManifestLocator } from './locator/manifestLocator';

export type ParsedManifest = {
  text: string;
  doc: Document.Parsed;
  /** yaml's line index of `doc` (kept for callers of the public runtime; the locator's `lineCol` is the project's). */
  lineCounter: LineCounter;
  /** The plain value (later duplicate keys win, as in the CDK's YAML loader); null for an empty file. */
  value: unknown;
  problems: Problem[];
  /**
   * The one locator of this version (locator.ts): path ↔ span, nodes at paths, indentation lookups,
   * line helpers. Over `doc` here; the language server's model answers it per block.
   */
  locator: ManifestLocator;
};

/** YAML codes that do not stop the CDK from loading the file: reported as warnings. */
const WARNING_CODES = new Set(['DUPLICATE_KEY']);

/** Parses manifest text. Positions in problems are UTF-16 offsets into `text`. */
export function parseManifest(text: string): ParsedManifest {
  const lineCounter = new LineCounter();
  // uniqueKeys is checked below in linear time: the parser's own check compares every key with every
  // earlier one (20,000 keys took seconds, 100,000 minutes).
  // `!!binary` (and the other YAML 1.1 tags) stay strings: as bytes, a few megabytes of base64
  // became millions of array indexes for every later pass to walk.
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: true, uniqueKeys: false, prettyErrors: false, resolveKnownTags: false });
  const problems: Problem[] = duplicateKeys(doc, text.length);
  for (const err of doc.errors) {
    const warning = WARNING_CODES.has(err.code);
    problems.push({
      code: warning ? 'duplicate-key' : 'yaml-syntax',
      severity: warning ? 'warning' : 'error',
      message: warning ? `${firstLine(err.message)} The later value wins.` : firstLine(err.message),
      span: clampSpan(err.pos[0], err.pos[1], text.length),
    });
  }
  for (const w of doc.warnings) {
    problems.push({
      code: 'yaml-warning',
      severity: 'warning',
      message: firstLine(w.message),
      span: clampSpan(w.pos[0], w.pos[1], text.length),
    });
  }
  let value: unknown = null;
  try {
    // maxAliasCount bounds alias expansion so an alias bomb cannot exhaust memory.
    value = doc.toJS({ maxAliasCount: 1000 }) ?? null;
  } catch (e) {
    problems.push({
      code: 'yaml-syntax',
      severity: 'error',
      message: (e as Error).message,
      span: { start: 0, end: Math.min(text.length, 1) },
    });
  }
  return {
    text,
    doc,
    lineCounter,
    value,
    problems,
    locator: new ManifestLocator(
      text,
      documentTree(text, () => doc),
    ),
  };
}

/** A warning for every mapping key written twice (the later value wins, as in the CDK's loader). */
function duplicateKeys(doc: Document.Parsed, length: number): Problem[] {
  const problems: Problem[] = [];
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const k = pair.key.value;
        if (seen.has(k)) {
          const range = pair.key.range ?? [0, 0];
          problems.push({
            code: 'duplicate-key',
            severity: 'warning',
            message: 'Map keys must be unique. The later value wins.',
            span: clampSpan(range[0], range[1], length),
          });
        }
        seen.add(k);
      }
    },
  });
  return problems;
}

/** The parser reports an unterminated scalar one past the end of the text: keep spans inside it. */
function clampSpan(start: number, end: number, length: number): { start: number; end: number } {
  const s = Math.min(Math.max(start, 0), length);
  return { start: s, end: Math.min(Math.max(end, s), length) };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  return line.endsWith('.') || line.endsWith(':') ? line : `${line}.`;
}

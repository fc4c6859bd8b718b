// The commands that run a manifest (read, streams, test) refuse one whose write paths hold
// `__proto__`, `constructor` or `prototype` before anything runs, with the segment's line and column
// (rule prototype-path-segment; the runtime would refuse it too, but without a position).
import type { ParsedManifest } from '../manifest/parse';
import { validateManifest } from '../validation/validateManifest';

/** `file:line:col: error: …` lines for every refused path segment; empty when there is none. */
export function prototypePathErrors(parsed: ParsedManifest, file: string): string[] {
  // A cheap pre-filter: the full validation runs only when one of the words is in the text at all.
  if (!/__proto__|constructor|prototype/.test(parsed.text)) return [];
  return validateManifest(parsed)
    .filter((p) => p.code === 'prototype-path-segment')
    .map((p) => {
      const pos = parsed.locator.lineCol(p.span.start);
      return `${file}:${pos.line}:${pos.col}: error: ${p.message} [${p.code}]`;
    });
}

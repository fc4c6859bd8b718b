// Lines too long to analyse. No real manifest has a line over 2,415 characters (the corpus of 492), but
// a hostile document can hold one of 9 MB, which the YAML parser takes tens of seconds to read while
// every other request waits. Such a line is read as a YAML comment of the same length (offsets, and so
// every position, stay the same), and the document gets one diagnostic on it saying so.

/** Lines longer than this (UTF-16 code units, without the line break) are not analysed. */
export const MAX_LINE_LENGTH = 100_000;

/** An overlong line: its start offset and length. */
export type OverlongLine = { start: number; length: number };

/** `text` with every overlong line replaced by a comment of the same length, and where they were. The same string when there is none. */
export function blankOverlongLines(text: string, max = MAX_LINE_LENGTH): { text: string; lines: OverlongLine[] } {
  // Fast path: a text this short cannot hold an overlong line.
  if (text.length <= max) return { text, lines: [] };
  if (!mayHoldOverlongLine(text, max)) return { text, lines: [] };
  const lines: OverlongLine[] = [];
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const contentEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    if (contentEnd - start > max) lines.push({ start, length: contentEnd - start });
    start = end + 1;
  }
  if (!lines.length) return { text, lines };
  let out = '';
  let done = 0;
  for (const l of lines) {
    out += text.slice(done, l.start) + '#' + ' '.repeat(l.length - 1);
    done = l.start + l.length;
  }
  return { text: out + text.slice(done), lines };
}

/**
 * False when every line is provably at most `max` long: a longer line covers at least one whole
 * window of `max / 2` characters (rounded down) aligned to that size, so a line break in every
 * such window rules it out. That is one short backward search per window instead of one search per
 * line, which the first open of a large manifest paid (21k lines: ~3 ms before the code was
 * optimized).
 */
function mayHoldOverlongLine(text: string, max: number): boolean {
  const window = Math.max(1, Math.floor(max / 2));
  // Only whole windows: a shorter piece at the end lies inside no overlong line's whole window.
  for (let start = 0; start + window <= text.length; start += window) {
    if (text.lastIndexOf('\n', start + window - 1) < start) return true;
  }
  return false;
}

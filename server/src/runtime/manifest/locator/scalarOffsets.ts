// Maps each character of a YAML string scalar's value to its offset in the document text, for
// every scalar style (plain, single/double quoted with escapes, literal and folded blocks), so
// positions inside a template land on the exact characters the author typed.
import type { Scalar } from 'yaml';

const DOUBLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

type Decoded = { chars: string[]; offsets: number[] };

/** Decodes quote-level escapes (keeping raw line breaks, which folding handles later). */
function preDecode(text: string, start: number, end: number, style: string): Decoded {
  const chars: string[] = [];
  const offsets: number[] = [];
  for (let i = start; i < end; i++) {
    const ch = text[i];
    if (style === 'QUOTE_DOUBLE' && ch === '\\' && i + 1 < end) {
      const next = text[i + 1];
      if (next === '\n' || next === '\r') {
        // Escaped line break: joins lines without a space; leading blanks of the next line are dropped.
        i += next === '\r' && text[i + 2] === '\n' ? 2 : 1;
        while (i + 1 < end && (text[i + 1] === ' ' || text[i + 1] === '\t')) i++;
        continue;
      }
      const hexLen = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
      if (hexLen) {
        chars.push(String.fromCodePoint(parseInt(text.slice(i + 2, i + 2 + hexLen), 16) || 0));
        offsets.push(i);
        i += 1 + hexLen;
        continue;
      }
      chars.push(DOUBLE_ESCAPES[next] ?? next);
      offsets.push(i);
      i++;
      continue;
    }
    if (style === 'QUOTE_SINGLE' && ch === "'" && text[i + 1] === "'") {
      chars.push("'");
      offsets.push(i);
      i++;
      continue;
    }
    chars.push(ch);
    offsets.push(i);
  }
  return { chars, offsets };
}

/**
 * Offsets (UTF-16, into `text`) of each character of the scalar's string value, plus one final
 * entry for the end. Folding and indentation are matched greedily against the parsed value, which
 * is exact for every character that appears in the source. Returns null for non-string scalars.
 * `base` is added to the node's ranges when the node was parsed from a slice starting there.
 */
export function scalarOffsets(text: string, node: Scalar, base = 0): number[] | null {
  if (typeof node.value !== 'string' || !node.range) return null;
  const value = node.value;
  // `base` shifts ranges of nodes parsed from a slice of the text (the editor's per-block parses).
  const start = node.range[0] + base;
  const valueEnd = node.range[1] + base;
  const style = String(node.type ?? 'PLAIN');
  const quoted = style === 'QUOTE_DOUBLE' || style === 'QUOTE_SINGLE';
  if (!quoted) return unescapedOffsets(text, value, start, valueEnd);
  const pre = preDecode(text, quoted ? start + 1 : start, quoted ? valueEnd - 1 : valueEnd, style);
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    // Skip source characters that folding/indentation removed until the value's character shows up.
    while (j < pre.chars.length && pre.chars[j] !== c && !(c === ' ' && pre.chars[j] === '\n')) j++;
    if (j >= pre.chars.length) {
      out.push(out.length ? out[out.length - 1] : start);
      continue;
    }
    out.push(pre.offsets[j]);
    if (c === ' ' && pre.chars[j] === '\n') {
      // A folded line break: consume the break and the next line's indentation.
      j++;
      while (j < pre.chars.length && (pre.chars[j] === ' ' || pre.chars[j] === '\t')) j++;
    } else j++;
  }
  out.push(j < pre.offsets.length ? pre.offsets[j] : quoted ? valueEnd - 1 : valueEnd);
  return out;
}

/**
 * `scalarOffsets` for plain and block scalars, which have no escapes: the same greedy match, read
 * straight from the text (no decoded copy). Validation maps every template with a finding, and
 * the long multi-line queries of some manifests made the copy the larger cost.
 */
function unescapedOffsets(text: string, value: string, start: number, end: number): number[] {
  const out: number[] = [];
  let j = start;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    while (j < end && text.charCodeAt(j) !== c && !(c === 32 && text.charCodeAt(j) === 10)) j++;
    if (j >= end) {
      out.push(out.length ? out[out.length - 1] : start);
      continue;
    }
    out.push(j);
    if (c === 32 && text.charCodeAt(j) === 10) {
      // A folded line break: consume the break and the next line's indentation.
      j++;
      while (j < end && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
    } else j++;
  }
  out.push(Math.min(j, end));
  return out;
}

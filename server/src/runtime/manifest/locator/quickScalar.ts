// Finds a string scalar written in block style by indentation alone (quickLocate.ts) and returns it
// as the `yaml` parser would (its style and range), so template positions need no parse of the
// block that holds them. Covers one-line plain and quoted values and the multi-line ones templates
// are often written in: folded and literal block scalars (`>-`, `|`), plain scalars continued on
// deeper lines and quoted scalars spanning lines. Every multi-line answer is checked by decoding
// its text with js-yaml and comparing with the value: a range that decodes to the value is the
// scalar's. Anything else returns null and the caller asks the parser.
import { CORE_SCHEMA, load } from 'js-yaml';
import { Scalar } from 'yaml';
import type { JsonPath } from '../origins';
import { closingQuote, type QuickLocation } from './quickLocate';

/**
 * The scalar written at `source`, with the parser's range and style, when it decodes to `value`;
 * else null. `locate` is the indentation lookup over `text` (quickLocatorFor; a block's own in the language server).
 */
export function quickScalar(
  text: string,
  source: JsonPath,
  value: string,
  locate: (path: JsonPath) => QuickLocation | null,
): Scalar | null {
  const q = locate(source);
  if (!q) return null;
  if (q.valueSpan && q.valueStyle) {
    const raw = text.slice(q.valueSpan.start, q.valueSpan.end);
    let decoded: unknown;
    if (q.valueStyle === 'PLAIN') decoded = raw;
    else if (q.valueStyle === 'QUOTE_SINGLE') decoded = raw.slice(1, -1).replace(/''/g, "'");
    else {
      try {
        // JSON escapes are a subset of YAML's: anything else fails here and goes to the parser.
        decoded = JSON.parse(raw);
      } catch {
        return null;
      }
    }
    return decoded === value ? scalar(value, q.valueSpan.start, q.valueSpan.end, q.valueStyle) : null;
  }
  const found = multiLine(text, valueLineStart(text, q.valueStart, q.column), q.column);
  if (!found) return null;
  const written = text.slice(q.valueStart, found.end);
  if (written.includes('\r') || written.includes('\t')) return null;
  let decoded: unknown;
  try {
    // The value's lines keep their own indentation, deeper than the key's column: below a key at
    // column 0 they decode as they do in place.
    decoded = load(`k: ${written}`, { schema: CORE_SCHEMA });
  } catch {
    return null;
  }
  if ((decoded as { k?: unknown } | null)?.k !== value) return null;
  return scalar(value, found.start, found.end, found.type);
}

/**
 * Where a value written over several lines starts: on its key's line, or (nothing but spaces after
 * the colon) at the first character of the next non-blank line when that line is deeper than the
 * key, as in `stop_condition:` followed by an indented quoted template. Else `start` itself, which
 * multiLine declines.
 */
function valueLineStart(text: string, start: number, column: number): number {
  const eol = lineEnd(text, start);
  if (start < eol) return start;
  for (let at = eol + 1; at < text.length; ) {
    const e = lineEnd(text, at);
    const indent = indentOf(text, at, e);
    // Block scalar headers on a line of their own are rare: left to the parser.
    if (indent < e - at) return indent > column && text[at + indent] !== '|' && text[at + indent] !== '>' ? at + indent : start;
    at = e + 1;
  }
  return start;
}

function scalar(value: string, start: number, end: number, type: Scalar.Type): Scalar {
  const node = new Scalar(value);
  node.range = [start, end, end];
  node.type = type;
  return node;
}

/** The start and end (as the parser's range ends) and style of a value starting at `start` and continuing on lines deeper than `column`. */
function multiLine(text: string, start: number, column: number): { start: number; end: number; type: Scalar.Type } | null {
  const eol = lineEnd(text, start);
  if (start >= eol) return null;
  const c = text[start];
  if (c === '|' || c === '>') {
    // Headers with an indentation indicator or "keep" chomping are left to the parser.
    if (!/^[|>]-?[ ]*(?:#.*)?$/.test(text.slice(start, eol))) return null;
    // Block scalars end after the line break of their last non-blank line.
    let end = -1;
    for (let at = eol + 1; at < text.length; ) {
      const e = lineEnd(text, at);
      const indent = indentOf(text, at, e);
      if (indent < e - at) {
        if (indent <= column) break;
        end = e < text.length ? e + 1 : e;
      }
      at = e + 1;
    }
    return end < 0 ? null : { start, end, type: c === '|' ? 'BLOCK_LITERAL' : 'BLOCK_FOLDED' };
  }
  if (c === '"' || c === "'") {
    const close = closingQuote(text, start);
    if (close < 0) return null;
    // Only a comment may follow the closing quote.
    if (!/^[ ]*(?:#.*)?$/.test(text.slice(close + 1, lineEnd(text, close)))) return null;
    return { start, end: close + 1, type: c === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE' };
  }
  if (/[\s&*!|>{[%@`#]/.test(c)) return null;
  // A plain scalar continued on deeper lines: it ends at its last non-space character, before a comment.
  const first = plainLine(text, start, eol);
  if (!first || first.comment) return null;
  let end = first.end;
  for (let at = eol + 1; at < text.length; ) {
    const e = lineEnd(text, at);
    const indent = indentOf(text, at, e);
    if (indent < e - at) {
      if (indent <= column || text[at + indent] === '#') break;
      const line = plainLine(text, at + indent, e);
      if (!line) break;
      end = line.end;
      if (line.comment) break;
    }
    at = e + 1;
  }
  return { start, end, type: 'PLAIN' };
}

function lineEnd(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e;
}

/** Spaces at the start of the line [at, end). */
function indentOf(text: string, at: number, end: number): number {
  let i = at;
  while (i < end && text.charCodeAt(i) === 32) i++;
  return i - at;
}

/** The end of the plain text in [from, eol) before a ` #` comment and trailing spaces, and whether a comment follows; null when nothing is left. */
function plainLine(text: string, from: number, eol: number): { end: number; comment: boolean } | null {
  const hash = text.slice(from, eol).search(/(^|[ ])#/);
  let e = hash >= 0 ? from + hash : eol;
  while (e > from && text.charCodeAt(e - 1) === 32) e--;
  return e > from ? { end: e, comment: hash >= 0 } : null;
}

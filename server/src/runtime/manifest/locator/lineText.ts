// The locator's answers that read the text itself, line by line: for text with no parsed version
// behind it (a quick fix on a half-typed line, a completion's insertion point, a schema edit of
// another text, a string about to be written) and for the locator's own line index. They are part
// of the locator module so that no caller keeps a copy: ManifestLocator's line helpers call them, and
// test/unit/manifest/locator.test.ts fails on a line scanner written anywhere else.

/** Offset where the line holding `offset` starts (0 for the first line, even when the text starts with a line break). */
export function lineStartIn(text: string, offset: number): number {
  return offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
}

/** Offset where the line holding `offset` ends, before its line break (`\r\n` or `\n`). */
export function lineEndIn(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  const end = nl < 0 ? text.length : nl;
  return end > 0 && text[end - 1] === '\r' ? end - 1 : end;
}

/** Offset just after the line break that ends the line holding `offset` (the text's length on the last line). */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

/** The offsets where the text's lines start (a text ending in a line break has an empty last line). */
export function lineStartsIn(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Column (0-based, UTF-16) of `offset` in its line. */
export function columnIn(text: string, offset: number): number {
  return offset - lineStartIn(text, offset);
}

/** The leading whitespace of a line (as `trimStart` reads it). */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The leading spaces of a line (YAML indentation: tabs are not indentation). */
export function spaceIndentOf(line: string): number {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  return i;
}

/** Whether a line holds nothing but whitespace or a comment. */
export function isBlankOrComment(line: string): boolean {
  return line.trim() === '' || line.trimStart().startsWith('#');
}

/** A line read as a block mapping entry: its lead (indentation and any `- `), key and the text after `key:`. */
export type KeyLine = { lead: string; key: string; rest: string | undefined };

/**
 * The line read as an entry `key:` of one of `keys` (optionally after `- `), with what follows the
 * colon and its spaces; null when it is not one. The keys are plain or quoted with `quoted`.
 */
export function keyLine(line: string, keys: readonly string[], quoted = false): KeyLine | null {
  const names = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const key = quoted ? `["']?(${names})["']?` : `(${names})`;
  const m = new RegExp(`^(\\s*(?:- )?)${key}:(?:[ ]+(.*))?$`).exec(line);
  return m ? { lead: m[1], key: m[2], rest: m[3] } : null;
}

/**
 * The key of a line's start up to its value (indentation, at most one `- `, a quoted or plain key,
 * `:` and spaces), as written (quotes kept); null when the text is anything else.
 */
export function keyBeforeValue(lead: string): string | null {
  const m = KEY_BEFORE_VALUE.exec(lead);
  return m ? m[1] : null;
}
const KEY_BEFORE_VALUE = /^ *(?:- +)?("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[&*!|>%@`,\]}-](?:[^#:\n]|:(?!\s))*?)[ \t]*:[ \t]+$/;

/** The column a sequence item's content starts at when the line is `- ` followed by content; else null. */
export function itemContentColumn(line: string): number | null {
  const m = /^(\s*)- (\S)/.exec(line);
  return m ? m[1].length + 2 : null;
}

/** Whether the line ends with a key's colon (a comment may follow): its value, if any, is on the lines below. */
export function endsWithKey(line: string): boolean {
  return /:\s*(#.*)?$/.test(line);
}

/** 1-based line and column of `offset` given the text's line starts (lineStartsIn), as `file:line:col` shows them. */
export function lineColIn(starts: ArrayLike<number>, offset: number): { line: number; col: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: offset - starts[lo] + 1 };
}

/**
 * Where two versions differ: the new text is `text.slice(0, prefix)`, an edited middle, then the
 * last `suffix` characters, both shared with the old text; `delta` is the change of length.
 */
export type EditedRegion = { prefix: number; suffix: number; delta: number; oldLength: number };

/** The shared prefix and suffix of two texts (compared a chunk at a time, natively). */
export function editedRegion(before: string, after: string): EditedRegion {
  const n = Math.min(before.length, after.length);
  const CHUNK = 4096;
  let prefix = 0;
  while (prefix + CHUNK <= n && before.slice(prefix, prefix + CHUNK) === after.slice(prefix, prefix + CHUNK)) prefix += CHUNK;
  while (prefix < n && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  const room = n - prefix;
  let suffix = 0;
  const b = before.length;
  const a = after.length;
  while (suffix + CHUNK <= room && before.slice(b - suffix - CHUNK, b - suffix) === after.slice(a - suffix - CHUNK, a - suffix))
    suffix += CHUNK;
  while (suffix < room && before.charCodeAt(b - suffix - 1) === after.charCodeAt(a - suffix - 1)) suffix++;
  return { prefix, suffix, delta: a - b, oldLength: b };
}

// Reading and rewriting values as YAML text for the refactors (extract, inline, rename): where a
// value's lines are, how deep they are indented, and the same lines moved to another indentation.
// Offsets only (positions are made in convert.ts). Only what the refactors can move safely is
// described: block values on the lines below their key, and values written on one line.
import { indentOf, type Location, type ManifestLocator, type Span } from '../runtime';

/** An edit of the document text by offsets. */
export type SpanEdit = { span: Span; newText: string };

/**
 * A value as movable text: `lines` with the first line's indentation counted from the column where
 * the value starts (so an item's `- ` or a key before it is not part of it), `indent` that column.
 * `block`: the value is written below its key (or spans several lines after an item's dash); else it
 * is one line after its key or dash.
 */
export type ValueText = { block: boolean; lines: string[]; indent: number; span: Span };

/**
 * A version's text with its locator (a ManifestDocument is one): line positions come from the
 * locator, the moved text from `text` (the editor's own, overlong lines included).
 */
export type LocatedText = { readonly text: string; readonly locator: ManifestLocator };

/** The offset after the last non-space character before `end`. */
function trimmedEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1])) e--;
  return e;
}

/**
 * The text of a located value, or null when it cannot be moved as lines: an empty value, or a
 * value that starts on its key's line and continues below it (block scalars, multi-line flow).
 */
export function valueText(source: LocatedText, location: Location): ValueText | null {
  const { text, locator } = source;
  const start = location.valueSpan.start;
  const end = trimmedEnd(text, start, location.valueSpan.end);
  if (end <= start) return null;
  const body = text.slice(start, end);
  const multiLine = body.includes('\n');
  // A value on the key's line (or the item's dash line) that continues below is not a plain block.
  const sameLineAsKey = location.keySpan ? locator.lineStart(location.keySpan.start) === locator.lineStart(start) : false;
  if (multiLine && sameLineAsKey) return null;
  if (multiLine && /^[|>]/.test(body)) return null;
  const indent = locator.column(start);
  const lines = body.split('\n').map((l) => l.replace(/\r$/, ''));
  lines[0] = ' '.repeat(indent) + lines[0];
  // The block ends at the end of its last line (a trailing comment on it stays with it).
  const lastLineEnd = locator.lineEnd(end - 1);
  if (lastLineEnd > end) lines[lines.length - 1] += text.slice(end, lastLineEnd);
  // A value on the lines below its key is a block even when it is one line long (a one-entry mapping).
  const block = multiLine || (location.keySpan !== null && !sameLineAsKey);
  return { block, lines, indent, span: { start, end: Math.max(end, lastLineEnd) } };
}

/**
 * `lines` (indented from column `from`) moved to column `to`; lines less indented (comments) go to
 * `to`. A line of spaces only keeps the spaces beyond `from`: inside a block scalar they are content.
 */
export function reindent(lines: readonly string[], from: number, to: number): string[] {
  return lines.map((line) => {
    if (line.trim() === '') return line.length > from ? ' '.repeat(to + line.length - from) : '';
    const own = indentOf(line);
    return ' '.repeat(to + Math.max(0, own - from)) + line.trimStart();
  });
}

/**
 * The edit that writes `value` as the value of the located holder (a key's value or an item):
 * block lines go below a key at `childIndent`, or after an item's dash at its column; a one-line
 * value replaces the holder's value on its line.
 */
export function replaceValueEdit(source: LocatedText, holder: Location, value: ValueText, childIndent: number): SpanEdit {
  const { text, locator } = source;
  const eol = locator.eol;
  const own = valueText(source, holder);
  const onKeyLine = own
    ? !own.block && holder.keySpan !== null && locator.lineStart(holder.keySpan.start) === locator.lineStart(own.span.start)
    : true;
  const holderEnd = own ? own.span.end : holder.valueSpan.end;
  if (!value.block) {
    const oneLine = value.lines[0].trimStart();
    if (own && !onKeyLine && holder.keySpan) {
      // A block value becomes a one-line value after the key.
      const colon = text.indexOf(':', holder.keySpan.end);
      return { span: { start: colon + 1, end: holderEnd }, newText: ` ${oneLine}` };
    }
    return { span: { start: holder.valueSpan.start, end: holderEnd }, newText: oneLine };
  }
  if (!holder.keySpan) {
    // An item: the value's first line follows the dash, the others line up under it.
    const column = locator.column(holder.valueSpan.start);
    const moved = reindent(value.lines, value.indent, column);
    return { span: { start: holder.valueSpan.start, end: holderEnd }, newText: [moved[0].trimStart(), ...moved.slice(1)].join(eol) };
  }
  if (own && !onKeyLine) {
    const column = locator.column(own.span.start);
    const moved = reindent(value.lines, value.indent, column);
    return { span: { start: own.span.start, end: holderEnd }, newText: [moved[0].trimStart(), ...moved.slice(1)].join(eol) };
  }
  // A one-line (or empty) value after the key becomes a block below it.
  const colon = text.indexOf(':', holder.keySpan.end);
  const moved = reindent(value.lines, value.indent, childIndent);
  return { span: { start: colon + 1, end: Math.max(colon + 1, holderEnd) }, newText: eol + moved.join(eol) };
}

/** The indentation step a holder uses: its value's column minus its key's, or 2. */
export function indentStep(source: LocatedText, holder: Location): number {
  if (!holder.keySpan) return 2;
  const { locator } = source;
  const own = valueText(source, holder);
  if (!own?.block) return 2;
  const step = own.indent - locator.column(holder.keySpan.start);
  return step > 0 ? step : 2;
}

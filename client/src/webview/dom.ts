// Tiny DOM helpers shared by the webview scripts: an element builder that only ever creates text
// nodes from data, plus the header table, pretty body and records table of the results view.

type Attr = string | null | ((e: Event) => void);
type Child = Node | string;

/** Creates an element; `null` attributes are omitted, functions become listeners (`onclick` → click). */
export function el(tag: string, attrs: Record<string, Attr> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null) continue;
    if (typeof v === 'function') node.addEventListener(k.replace(/^on/, ''), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return node;
}

/** JSON bodies pretty-printed; anything else as text, cut at 200 kB so huge bodies stay usable. */
export function prettyBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined) return '';
  const limit = 200_000;
  let out = text;
  try {
    out = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: shown as sent.
  }
  return out.length > limit ? `${out.slice(0, limit)}\n… (${out.length - limit} more characters)` : out;
}

/** A two-column table of headers (already masked by the runtime). */
export function headerTable(headers: Record<string, unknown> | null | undefined): HTMLElement {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return el('p', { class: 'muted' }, 'No headers.');
  return el('table', { class: 'headers' }, ...entries.map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, String(v)))));
}

/** Characters shown in one cell; the rest is cut with an ellipsis (a cell is not the place for a huge value). */
const CELL_CHARS = 500;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS)}…` : text;
}

/** Columns and rows a records table shows at first; each "Show more" adds as many again. */
export const TABLE_COLUMNS = 60;
export const TABLE_ROWS = 200;

/**
 * Records as a table: one column per top-level field, in first-seen order. A very wide or long page is
 * shown a part at a time (TABLE_COLUMNS × TABLE_ROWS first, more on request), so 100 records of 2,000
 * fields appear at once instead of building 200,000 cells.
 */
export function recordsTable(
  records: unknown[],
  shown: { columns: number; rows: number } = { columns: TABLE_COLUMNS, rows: TABLE_ROWS },
): HTMLElement {
  const seen = new Set<string>();
  for (const r of records) {
    if (r && typeof r === 'object') for (const k of Object.keys(r)) seen.add(k);
  }
  const allColumns = [...seen];
  const columns = allColumns.slice(0, shown.columns);
  const rows = records.slice(0, shown.rows);
  const head = el('tr', {}, el('th', { class: 'idx' }, '#'), ...columns.map((c) => el('th', {}, c)));
  const body = rows.map((r, i) =>
    el('tr', {}, el('td', { class: 'idx' }, String(i + 1)), ...columns.map((c) => el('td', {}, cell((r as Record<string, unknown>)?.[c])))),
  );
  const wrap = el(
    'div',
    { class: 'records-part' },
    el('div', { class: 'table-wrap' }, el('table', { class: 'records' }, el('thead', {}, head), el('tbody', {}, ...body))),
  );
  const more = (next: { columns: number; rows: number }) => (e: Event) => {
    e.preventDefault();
    wrap.replaceWith(recordsTable(records, next));
  };
  const hiddenColumns = allColumns.length - columns.length;
  const hiddenRows = records.length - rows.length;
  if (hiddenColumns > 0 || hiddenRows > 0) {
    const notes: Child[] = [`Showing ${columns.length} of ${allColumns.length} fields and ${rows.length} of ${records.length} records. `];
    if (hiddenColumns > 0)
      notes.push(
        el(
          'button',
          { class: 'secondary more-columns', onclick: more({ columns: shown.columns + TABLE_COLUMNS, rows: shown.rows }) },
          `Show ${Math.min(TABLE_COLUMNS, hiddenColumns)} more fields`,
        ),
        ' ',
      );
    if (hiddenRows > 0)
      notes.push(
        el(
          'button',
          { class: 'secondary more-rows', onclick: more({ columns: shown.columns, rows: shown.rows + TABLE_ROWS }) },
          `Show ${Math.min(TABLE_ROWS, hiddenRows)} more records`,
        ),
        ' ',
      );
    // Above the table: below a tall one it would be out of sight.
    wrap.prepend(el('p', { class: 'muted table-more' }, ...notes));
  }
  return wrap;
}

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

export function recordsTable(records: unknown[]): HTMLElement {
  const columns: string[] = [];
  for (const r of records) {
    if (r && typeof r === 'object') for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  }
  const head = el('tr', {}, el('th', { class: 'idx' }, '#'), ...columns.map((c) => el('th', {}, c)));
  const rows = records.map((r, i) => el('tr', {}, el('td', { class: 'idx' }, String(i + 1)),
    ...columns.map((c) => el('td', {}, cell((r as Record<string, unknown>)?.[c])))));
  return el('div', { class: 'table-wrap' }, el('table', { class: 'records' }, el('thead', {}, head), el('tbody', {}, ...rows)));
}

// Script of the results webview (bundled for the browser into out/webview/results.js). Renders a test
// read — records, pages, auxiliary requests, logs, inferred schema — from messages the extension posts,
// using DOM text nodes only (never innerHTML with data), so response bodies cannot inject markup.
import { el, prettyBody, headerTable, recordsTable } from './dom';
import type { ReadRequest, ReadResponse, ResultsViewMessage, TestReadProgress } from '../../../server/src/protocol';

type Json = Record<string, unknown>;
// Pages and auxiliary requests of a finished read, or as far as progress events describe them while it runs.
type Page = { request?: Partial<ReadRequest> | null; response?: Partial<ReadResponse> | null; records?: unknown[]; recordCount?: number };
type Slice = { pages?: Page[]; slice_descriptor?: unknown; auxiliary_requests?: Aux[] };
type LogEntry = { level?: string; message?: string; line?: number; internal_message?: string | null; stacktrace?: string | null };
type Aux = { title?: string; type?: string; description?: string; request?: Partial<ReadRequest>; response?: Partial<ReadResponse> | null };
type State = {
  stream: string; running: boolean; slices: Slice[]; livePages: Page[]; aux: Aux[]; logs: LogEntry[];
  schema: unknown; limitReached: boolean; error: LogEntry | null; recordsView: 'table' | 'json'; tab: string;
};

declare function acquireVsCodeApi(): { postMessage(m: unknown): void };
const vscode = acquireVsCodeApi();
const TABS = ['Records', 'Pages', 'Auxiliary requests', 'Logs', 'Inferred schema'];
const state: State = { stream: '', running: false, slices: [], livePages: [], aux: [], logs: [], schema: null, limitReached: false, error: null, recordsView: 'table', tab: 'Records' };

function allPages(): Page[] {
  return state.slices.length > 0 ? state.slices.flatMap((s) => s.pages ?? []) : state.livePages;
}
function records(): unknown[] {
  return allPages().flatMap((p) => p.records ?? []);
}
/** Records so far: while running, the pages' counts (progress events carry counts, not records). */
function recordCount(): number {
  return state.running ? allPages().reduce((n, p) => n + (p.recordCount ?? (p.records ?? []).length), 0) : records().length;
}

function render(): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  const header = el('header', { class: 'header' },
    el('h1', {}, `Stream “${state.stream}”`),
    el('span', { class: 'status', id: 'status' }, `${state.running ? 'Reading… ' : ''}${allPages().length} page(s), ${recordCount()} record(s)`),
    el('button', { id: 'rerun', disabled: state.running ? '' : null, onclick: () => vscode.postMessage({ type: 'rerun' }) }, 'Run again'));
  root.append(header);
  if (state.limitReached) {
    root.append(el('div', { class: 'banner warn', role: 'status' }, 'A test-read limit was reached (records, pages per slice or slices): the stream may have more data. Raise the limits with “Run with limits…” or the airbyte.testRead.* settings.'));
  }
  if (state.error) root.append(errorBox(state.error));
  const counts: Record<string, number> = { Records: recordCount(), Pages: allPages().length, 'Auxiliary requests': state.aux.length, Logs: state.logs.length, 'Inferred schema': state.schema ? 1 : 0 };
  const tabs = el('div', { class: 'tabs', role: 'tablist' }, ...TABS.map((t) => el('button', {
    role: 'tab', class: t === state.tab ? 'tab active' : 'tab', 'aria-selected': String(t === state.tab), 'data-tab': t,
    onclick: () => { state.tab = t; render(); },
  }, `${t} (${counts[t]})`)));
  root.append(tabs);
  const body = el('section', { class: 'panel', role: 'tabpanel' });
  if (state.tab === 'Records') renderRecords(body);
  else if (state.tab === 'Pages') renderPages(body);
  else if (state.tab === 'Auxiliary requests') renderAux(body);
  else if (state.tab === 'Logs') renderLogs(body);
  else renderSchema(body);
  root.append(body);
}

function errorBox(entry: LogEntry): HTMLElement {
  return el('div', { class: 'banner error', role: 'alert' },
    el('strong', {}, 'The read failed: '), entry.message ?? 'unknown error',
    entry.line !== undefined ? el('a', { href: '#', class: 'goto', onclick: (e: Event) => { e.preventDefault(); vscode.postMessage({ type: 'openLine', line: entry.line }); } }, ` (manifest line ${entry.line + 1})`) : '');
}

function renderRecords(body: HTMLElement): void {
  const list = records();
  body.append(el('div', { class: 'toolbar' },
    el('button', { class: state.recordsView === 'table' ? 'seg active' : 'seg', onclick: () => { state.recordsView = 'table'; render(); } }, 'Table'),
    el('button', { class: state.recordsView === 'json' ? 'seg active' : 'seg', onclick: () => { state.recordsView = 'json'; render(); } }, 'JSON')));
  if (list.length === 0) { body.append(el('p', { class: 'empty' }, state.running ? 'Waiting for the first page…' : 'No records.')); return; }
  body.append(state.recordsView === 'table' ? recordsTable(list) : el('pre', { class: 'json' }, JSON.stringify(list, null, 2)));
}

function exchange(request: Json | null | undefined, response: Json | null | undefined): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (request) {
    out.push(el('h3', {}, 'Request'), el('div', { class: 'reqline' }, `${String(request.http_method ?? request.method ?? 'GET')} ${String(request.url ?? '')}`));
    out.push(headerTable(request.headers as Json | null));
    if (request.body !== null && request.body !== undefined && request.body !== '') out.push(el('pre', { class: 'body' }, prettyBody(request.body)));
  }
  if (response) {
    out.push(el('h3', {}, `Response ${String(response.status ?? '')}`), headerTable(response.headers as Json | null), el('pre', { class: 'body' }, prettyBody(response.body)));
  }
  return out;
}

function renderPages(body: HTMLElement): void {
  const list = state.slices.length > 0 ? state.slices : [{ pages: state.livePages, slice_descriptor: undefined }];
  if (list.every((s) => (s.pages ?? []).length === 0)) { body.append(el('p', { class: 'empty' }, state.running ? 'Waiting for the first page…' : 'No pages.')); return; }
  list.forEach((slice, si) => {
    const desc = slice.slice_descriptor;
    if (list.length > 1 || (desc && desc !== '{}')) body.append(el('h2', {}, `Slice ${si + 1}${desc !== undefined && desc !== null ? `: ${typeof desc === 'string' ? desc : JSON.stringify(desc)}` : ''}`));
    (slice.pages ?? []).forEach((page, pi) => {
      const req = page.request as Json | null | undefined;
      const summary = `Page ${pi + 1} — ${String(req?.http_method ?? req?.method ?? '')} ${String(req?.url ?? '')} → ${String((page.response as Json | null | undefined)?.status ?? '…')} · ${page.recordCount ?? (page.records ?? []).length} record(s)`;
      body.append(el('details', { class: 'page', open: pi === 0 ? '' : null }, el('summary', {}, summary), ...exchange(page.request, page.response)));
    });
  });
}

function renderAux(body: HTMLElement): void {
  if (state.aux.length === 0) { body.append(el('p', { class: 'empty' }, 'No auxiliary requests (token refreshes, logins, parent streams).')); return; }
  for (const a of state.aux) {
    body.append(el('details', { class: 'page' }, el('summary', {}, `${a.title ?? 'Request'} [${a.type ?? ''}] ${a.description ? '— ' + a.description : ''}`), ...exchange(a.request, a.response)));
  }
}

function renderLogs(body: HTMLElement): void {
  if (state.logs.length === 0) { body.append(el('p', { class: 'empty' }, 'No log messages.')); return; }
  const list = el('ul', { class: 'logs' });
  for (const l of state.logs) {
    list.append(el('li', { class: `log ${String(l.level ?? 'INFO').toLowerCase()}` },
      el('span', { class: 'level' }, String(l.level ?? 'INFO')), ' ', l.message ?? '',
      l.line !== undefined ? el('a', { href: '#', class: 'goto', onclick: (e: Event) => { e.preventDefault(); vscode.postMessage({ type: 'openLine', line: l.line }); } }, ` manifest line ${l.line + 1}`) : '',
      l.stacktrace ? el('details', {}, el('summary', {}, 'Stack trace'), el('pre', {}, l.stacktrace)) : ''));
  }
  body.append(list);
}

function renderSchema(body: HTMLElement): void {
  if (!state.schema) { body.append(el('p', { class: 'empty' }, state.running ? 'The schema is inferred when the read ends.' : 'No records, so no schema was inferred.')); return; }
  body.append(el('div', { class: 'toolbar' }, el('button', { id: 'write-schema', onclick: () => vscode.postMessage({ type: 'writeSchema', schema: state.schema }) }, 'Write schema to the manifest')));
  body.append(el('pre', { class: 'json' }, JSON.stringify(state.schema, null, 2)));
}

/** Applies one progress event of the runtime (page summaries, auxiliary requests, logs) to the live view. */
function applyProgress(event: TestReadProgress): void {
  if (event.type === 'page') {
    state.livePages.push({
      request: { http_method: event.method, url: event.url },
      response: event.status === null ? null : { status: event.status },
      records: [], recordCount: event.records,
    });
  } else if (event.type === 'auxiliary_request') {
    state.aux.push({ title: event.title, type: event.requestType, response: event.status === null ? undefined : { status: event.status } });
  } else if (event.type === 'log') {
    state.logs.push({ level: event.level, message: event.message });
  } else if (event.type === 'done') {
    state.limitReached = event.limitReached;
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  // Only the extension posts to this page (ResultsPanel), with these messages.
  const m = e.data as ResultsViewMessage;
  if (m.type === 'start') {
    Object.assign(state, { stream: m.stream, running: true, slices: [], livePages: [], aux: [], logs: [], schema: null, limitReached: false, error: null });
  } else if (m.type === 'progress') {
    applyProgress(m.event);
  } else if (m.type === 'result') {
    const r = m.result;
    state.running = false;
    state.slices = r.slices ?? [];
    state.aux = [...(r.auxiliary_requests ?? []), ...state.slices.flatMap((s) => s.auxiliary_requests ?? [])];
    state.logs = r.logs ?? [];
    state.schema = r.inferred_schema ?? null;
    state.limitReached = r.test_read_limit_reached === true;
    const firstError = state.logs.find((l) => String(l.level).toUpperCase() === 'ERROR');
    if (firstError) state.error = firstError;
  } else if (m.type === 'failed') {
    state.running = false;
    state.error = m.error;
  }
  render();
});
render();
vscode.postMessage({ type: 'ready' });

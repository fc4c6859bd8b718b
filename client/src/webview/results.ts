// Script of the results webview (bundled for the browser into out/webview/results.js). Renders a test
// read the way the Connector Builder does — choose a slice and a page, see that page's records, request
// and response; the state after each slice; declared vs inferred schema; auxiliary requests; logs —
// from messages the extension posts, using DOM text nodes only (never innerHTML with data), so
// response bodies cannot inject markup.
import { el, prettyBody, headerTable, recordsTable } from './dom';
import type { ResultsViewMessage, ResultsViewRequest, WebviewApi } from '../webviewMessages';
import { plural } from '../plural';
import { cassetteButtons, replayBanner } from './cassetteControls';
import { stateButtons } from './stateButtons';

/** Tells the extension which page is shown: the editor's inlay hints evaluate templates on it. */
const selectedPage = () => vscode.postMessage({ type: 'selectPage', slice: state.slice, page: state.page });
import {
  describeSlice,
  limitBanner,
  limitsReached,
  paginationTraceView,
  readProgressText,
  sliceStateView,
  type Limits,
  type PaginationTraceLike,
} from '../streamReadView';

type Json = Record<string, unknown>;
type Range = { start: { line: number; character: number }; end: { line: number; character: number } };
type Page = {
  request?: Json | null;
  response?: Json | null;
  records?: unknown[];
  recordCount?: number;
  pagination_trace?: PaginationTraceLike;
};
type Slice = { pages: Page[]; slice_descriptor?: unknown; state?: unknown[]; auxiliary_requests?: Aux[] };
type LogEntry = {
  level?: string;
  message?: string;
  line?: number;
  internal_message?: string | null;
  stacktrace?: string | null;
  stack_note?: string | null;
  component?: { kind: string; label: string; type: string | null; range: Range };
  /** CDK engine failures: traceback places in components.py, and the pip command that fixes a missing CDK. */
  files?: { path: string; line: number }[];
  installCommand?: string | null;
};
type Aux = { title?: string; type?: string; description?: string; request?: Json; response?: Json };
type SchemaDifference = { path: string; kind: string; declared: string | null; inferred: string; message: string };
type SchemaCheck = { declared: string; differences: SchemaDifference[] };
type Tab = 'Pages' | 'State' | 'Schema' | 'Auxiliary requests' | 'Logs';
type PageTab = 'Records' | 'Request' | 'Response';
type State = {
  stream: string;
  running: boolean;
  limits: Limits;
  slices: Slice[];
  aux: Aux[];
  logs: LogEntry[];
  schema: unknown;
  schemaCheck: SchemaCheck | null;
  /** Field → detected datetime format (the StreamRead's inferred_datetime_formats), as the Builder shows them. */
  datetimeFormats: Record<string, string>;
  limitReached: boolean;
  error: LogEntry | null;
  recordsView: 'table' | 'json';
  tab: Tab;
  pageTab: PageTab;
  slice: number;
  page: number;
  /** The cassette the read was replayed from (null for a read from the API). */
  replayedFrom: string | null;
  /** Set while the view shows a connection check instead of a read. */
  check: { running: boolean; status: string | null; message: string | null } | null;
};

declare function acquireVsCodeApi(): WebviewApi<ResultsViewRequest>;
const vscode = acquireVsCodeApi();
const TABS: Tab[] = ['Pages', 'State', 'Schema', 'Auxiliary requests', 'Logs'];
const PAGE_TABS: PageTab[] = ['Records', 'Request', 'Response'];
const state: State = {
  stream: '',
  running: false,
  limits: {},
  slices: [],
  aux: [],
  logs: [],
  schema: null,
  schemaCheck: null,
  datetimeFormats: {},
  limitReached: false,
  error: null,
  recordsView: 'table',
  tab: 'Pages',
  pageTab: 'Records',
  slice: 0,
  page: 0,
  replayedFrom: null,
  check: null,
};

/** How many reads this view has started: tests and people can tell a new read from the last one. */
let readNumber = 0;

const pagesOf = (s: Slice | undefined) => s?.pages ?? [];
const pageRecords = (p: Page | undefined) => p?.recordCount ?? (p?.records ?? []).length;
function totals(): { pages: number; records: number } {
  const pages = state.slices.flatMap(pagesOf);
  return { pages: pages.length, records: pages.reduce((n, p) => n + pageRecords(p), 0) };
}

function goto(e: Event, message: ResultsViewRequest): void {
  e.preventDefault();
  vscode.postMessage(message);
}

function render(): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  if (state.check) {
    renderCheck(root, state.check);
    return;
  }
  const t = totals();
  const status = state.running
    ? `Reading… ${readProgressText(t.pages, t.records)}`
    : `${plural(t.pages, 'page')}, ${plural(t.records, 'record')} in ${plural(state.slices.length, 'slice')}`;
  root.append(
    el(
      'header',
      { class: 'header' },
      el('h1', {}, `Stream “${state.stream}”`),
      el('span', { class: 'status', id: 'status', 'data-read': String(readNumber), 'data-running': String(state.running) }, status),
      el('button', { id: 'rerun', disabled: state.running ? '' : null, onclick: () => vscode.postMessage({ type: 'rerun' }) }, 'Run again'),
      el(
        'button',
        {
          id: 'run-with-limits',
          class: 'secondary',
          disabled: state.running ? '' : null,
          onclick: () => vscode.postMessage({ type: 'runWithLimits' }),
        },
        'Run with limits…',
      ),
      ...cassetteButtons(state.running, state.replayedFrom, (m) => vscode.postMessage(m)),
      ...stateButtons(state.running, state.slices, (m) => vscode.postMessage(m)),
    ),
  );
  const replayed = replayBanner(state.replayedFrom);
  if (replayed) root.append(replayed);
  if (state.limitReached)
    root.append(
      el('div', { class: 'banner warn', role: 'status', id: 'limit-banner' }, limitBanner(limitsReached(state.slices, state.limits))),
    );
  if (state.error) root.append(errorBox(state.error));
  const diffs = state.schemaCheck?.differences.length ?? 0;
  const label: Record<Tab, string> = {
    Pages: `Pages (${t.pages})`,
    State: `State (${state.slices.length})`,
    Schema: diffs ? `Schema ⚠ ${diffs}` : 'Schema',
    'Auxiliary requests': `Auxiliary requests (${state.aux.length})`,
    Logs: `Logs (${state.logs.length})`,
  };
  root.append(
    tabBar('tabs', TABS, state.tab, label, (tab) => {
      state.tab = tab;
    }),
  );
  const body = el('section', { class: 'panel', role: 'tabpanel', 'aria-label': state.tab });
  if (state.tab === 'Pages') renderPages(body);
  else if (state.tab === 'State') renderState(body);
  else if (state.tab === 'Schema') renderSchema(body);
  else if (state.tab === 'Auxiliary requests') renderAux(body);
  else renderLogs(body);
  root.append(body);
}

function tabBar<T extends string>(cls: string, tabs: T[], current: T, label: Record<T, string>, choose: (t: T) => void): HTMLElement {
  return el(
    'div',
    { class: cls, role: 'tablist' },
    ...tabs.map((t) =>
      el(
        'button',
        {
          role: 'tab',
          class: t === current ? 'tab active' : 'tab',
          'aria-selected': String(t === current),
          'data-tab': t,
          onclick: () => {
            choose(t);
            render();
          },
        },
        label[t],
      ),
    ),
  );
}

function errorBox(entry: LogEntry): HTMLElement {
  const box = el(
    'div',
    { class: 'banner error', role: 'alert', id: 'read-error' },
    el('strong', {}, 'The read failed: '),
    entry.message ?? 'unknown error',
  );
  const c = entry.component;
  if (c) {
    box.append(
      ' ',
      el(
        'a',
        {
          href: '#',
          class: 'goto component',
          id: 'failed-component',
          onclick: (e: Event) => goto(e, { type: 'revealRange', range: c.range }),
        },
        `Show the ${c.label}${c.type ? ` (${c.type})` : ''} in the manifest, line ${c.range.start.line + 1}`,
      ),
    );
  } else if (entry.line !== undefined) {
    box.append(
      ' ',
      el(
        'a',
        { href: '#', class: 'goto', onclick: (e: Event) => goto(e, { type: 'openLine', line: entry.line! }) },
        `(stream at manifest line ${entry.line + 1})`,
      ),
    );
  }
  for (const f of entry.files ?? []) {
    box.append(
      ' ',
      el(
        'a',
        { href: '#', class: 'goto file-link', onclick: (e: Event) => goto(e, { type: 'openFile', path: f.path, line: f.line }) },
        `${f.path.split(/[\\/]/).pop()}:${f.line}`,
      ),
    );
  }
  if (entry.installCommand) {
    box.append(el('div', { class: 'install-command' }, 'Run: ', el('code', { id: 'install-command' }, entry.installCommand)));
  }
  if (entry.stacktrace || entry.stack_note) {
    box.append(
      el(
        'details',
        { class: 'stack' },
        el('summary', {}, 'Details'),
        entry.stacktrace ? el('pre', {}, entry.stacktrace) : el('p', { class: 'muted' }, entry.stack_note ?? ''),
      ),
    );
  }
  return box;
}

/** Keeps the chosen slice and page inside what exists (pages arrive while the read runs). */
function clampSelection(): void {
  state.slice = Math.min(Math.max(0, state.slice), Math.max(0, state.slices.length - 1));
  state.page = Math.min(Math.max(0, state.page), Math.max(0, pagesOf(state.slices[state.slice]).length - 1));
}

function renderPages(body: HTMLElement): void {
  clampSelection();
  if (state.slices.every((s) => pagesOf(s).length === 0)) {
    body.append(el('p', { class: 'empty' }, state.running ? 'Waiting for the first page…' : 'No pages were read.'));
    return;
  }
  const nav = el('div', { class: 'navigator' });
  if (state.slices.length > 1 || describeSlice(state.slices[0]?.slice_descriptor)) {
    const select = el(
      'select',
      { id: 'slice-select', 'aria-label': 'Slice' },
      ...state.slices.map((s, i) =>
        el(
          'option',
          { value: String(i), selected: i === state.slice ? '' : null },
          `Slice ${i + 1}${describeSlice(s.slice_descriptor) ? `: ${describeSlice(s.slice_descriptor)}` : ''} (${plural(pagesOf(s).length, 'page')})`,
        ),
      ),
    ) as HTMLSelectElement;
    select.addEventListener('change', () => {
      state.slice = Number(select.value);
      state.page = 0;
      render();
      selectedPage();
    });
    nav.append(el('label', { class: 'nav-label', for: 'slice-select' }, 'Slice'), select);
  }
  const pages = pagesOf(state.slices[state.slice]);
  nav.append(
    el('span', { class: 'nav-label' }, 'Page'),
    el(
      'div',
      { class: 'pager', role: 'group', 'aria-label': 'Pages' },
      ...pages.map((p, i) =>
        el(
          'button',
          {
            class: i === state.page ? 'seg active page-button' : 'seg page-button',
            'aria-pressed': String(i === state.page),
            'data-page': String(i + 1),
            title: `Page ${i + 1}: ${plural(pageRecords(p), 'record')}, HTTP ${String(p.response?.status ?? '…')}${p.pagination_trace ? `, ${paginationTraceView(p.pagination_trace).next}` : ''}`,
            onclick: () => {
              state.page = i;
              render();
              selectedPage();
            },
          },
          String(i + 1),
        ),
      ),
    ),
  );
  body.append(nav);
  const page = pages[state.page];
  if (page?.pagination_trace) body.append(traceLine(page.pagination_trace));
  const label: Record<PageTab, string> = {
    Records: `Records (${pageRecords(page)})`,
    Request: 'Request',
    Response: `Response${page?.response?.status !== undefined ? ` ${String(page.response.status)}` : ''}`,
  };
  body.append(
    tabBar('tabs subtabs', PAGE_TABS, state.pageTab, label, (t) => {
      state.pageTab = t;
    }),
  );
  const inner = el('div', {
    class: 'subpanel',
    id: 'page-panel',
    'data-slice': String(state.slice + 1),
    'data-page': String(state.page + 1),
  });
  if (state.pageTab === 'Records') renderRecords(inner, page);
  else if (state.pageTab === 'Request') inner.append(...requestView(page?.request));
  else inner.append(...responseView(page?.response));
  body.append(inner);
}

/** The selected page's pagination trace: tokens in and out, its records, and why pagination went on or stopped. */
function traceLine(trace: PaginationTraceLike): HTMLElement {
  const v = paginationTraceView(trace);
  return el(
    'div',
    { class: 'trace', id: 'page-trace', role: 'status', 'aria-label': 'Pagination trace' },
    el('span', { class: 'trace-tokens', title: v.title }, v.tokens),
    el('span', { class: 'trace-sep' }, ' · '),
    el('span', { class: 'trace-records' }, v.records),
    el('span', { class: 'trace-sep' }, ' · '),
    el('span', { class: v.stopped ? 'trace-next stopped' : 'trace-next requested' }, v.next),
  );
}

function renderRecords(body: HTMLElement, page: Page | undefined): void {
  const list = page?.records ?? [];
  body.append(
    el(
      'div',
      { class: 'toolbar' },
      el(
        'button',
        {
          class: state.recordsView === 'table' ? 'seg active' : 'seg',
          onclick: () => {
            state.recordsView = 'table';
            render();
          },
        },
        'Table',
      ),
      el(
        'button',
        {
          class: state.recordsView === 'json' ? 'seg active' : 'seg',
          onclick: () => {
            state.recordsView = 'json';
            render();
          },
        },
        'JSON',
      ),
    ),
  );
  if (list.length === 0) {
    const pending = state.running && pageRecords(page) > 0;
    body.append(
      el(
        'p',
        { class: 'empty' },
        pending ? `${plural(pageRecords(page), 'record')}; they are shown when the read ends.` : 'This page has no records.',
      ),
    );
    return;
  }
  // The JSON view is cut like a body (prettyBody), so a huge page stays usable there too.
  body.append(state.recordsView === 'table' ? recordsTable(list) : el('pre', { class: 'json' }, prettyBody(list)));
}

/** `withSecrets`: offer the copy with secrets (a page's request; an auxiliary request is not the stream's). */
function requestView(request: Json | null | undefined, withSecrets = true): HTMLElement[] {
  if (!request) return [el('p', { class: 'empty' }, state.running ? 'The request is shown when the read ends.' : 'No request.')];
  const copy = (secrets: boolean) => () => vscode.postMessage({ type: 'copyCurl', request, withSecrets: secrets });
  const out = [
    el(
      'div',
      { class: 'toolbar copy-curl' },
      el(
        'button',
        { class: 'secondary copy-curl-masked', title: 'Copy this request as a cURL command, secrets shown as ****', onclick: copy(false) },
        'Copy as cURL',
      ),
      ...(withSecrets
        ? [
            el(
              'button',
              {
                class: 'secondary copy-curl-secrets',
                title: 'Copy this request as a cURL command with the secrets of the testing values',
                onclick: copy(true),
              },
              'Copy as cURL with secrets',
            ),
          ]
        : []),
    ),
    el('div', { class: 'reqline' }, `${String(request.http_method ?? request.method ?? 'GET')} ${String(request.url ?? '')}`),
    el('h3', {}, 'Headers'),
    headerTable(request.headers as Json | null),
  ];
  if (request.body !== null && request.body !== undefined && request.body !== '')
    out.push(el('h3', {}, 'Body'), el('pre', { class: 'body' }, prettyBody(request.body)));
  return out;
}

function responseView(response: Json | null | undefined): HTMLElement[] {
  if (!response)
    return [
      el(
        'p',
        { class: 'empty' },
        state.running ? 'The response is shown when the read ends.' : 'No response (the request failed before an answer).',
      ),
    ];
  const out = [el('div', { class: 'reqline' }, `Status ${String(response.status ?? '')}`)];
  if (response.headers !== undefined) out.push(el('h3', {}, 'Headers'), headerTable(response.headers as Json | null));
  if (response.body !== undefined) out.push(el('h3', {}, 'Body'), el('pre', { class: 'body' }, prettyBody(response.body)));
  return out;
}

function renderState(body: HTMLElement): void {
  if (state.slices.length === 0) {
    body.append(el('p', { class: 'empty' }, state.running ? 'Waiting for the first slice…' : 'No slices were read.'));
    return;
  }
  body.append(
    el(
      'p',
      { class: 'muted' },
      'Each slice’s descriptor (its partition and cursor window) and the stream state emitted after it, as the Connector Builder shows them.',
    ),
  );
  state.slices.forEach((s, i) => {
    const view = sliceStateView(s);
    body.append(
      el(
        'section',
        { class: 'slice-state', 'data-slice': String(i + 1) },
        el(
          'h2',
          {},
          `Slice ${i + 1}`,
          el(
            'span',
            { class: 'muted' },
            ` · ${plural(pagesOf(s).length, 'page')}, ${plural(
              pagesOf(s).reduce((n, p) => n + pageRecords(p), 0),
              'record',
            )}`,
          ),
        ),
        el('h3', {}, 'Slice descriptor'),
        view.descriptor
          ? el('pre', { class: 'json descriptor' }, view.descriptor)
          : el('p', { class: 'muted' }, 'None (the stream is not partitioned).'),
        el('h3', {}, 'State after this slice'),
        view.state
          ? el('pre', { class: 'json state' }, view.state)
          : el(
              'p',
              { class: 'muted state-empty' },
              state.running ? 'Known when the read ends.' : 'No state message was emitted after this slice.',
            ),
        view.message
          ? el('details', { class: 'state-message' }, el('summary', {}, 'State message'), el('pre', { class: 'json' }, view.message))
          : '',
      ),
    );
  });
}

function renderSchema(body: HTMLElement): void {
  if (!state.schema) {
    body.append(
      el('p', { class: 'empty' }, state.running ? 'The schema is inferred when the read ends.' : 'No records, so no schema was inferred.'),
    );
    return;
  }
  const check = state.schemaCheck;
  const write = el(
    'button',
    { id: 'write-schema', onclick: () => vscode.postMessage({ type: 'writeSchema', schema: state.schema }) },
    'Write schema',
  );
  if (check && check.differences.length) {
    body.append(
      el(
        'div',
        { class: 'banner warn', id: 'schema-differences', role: 'status' },
        el(
          'strong',
          {},
          check.declared === 'none'
            ? `The stream declares no schema; the records have ${plural(check.differences.length, 'field')}.`
            : `The declared schema differs from the records in ${plural(check.differences.length, 'place')}:`,
        ),
        el(
          'ul',
          { class: 'differences' },
          ...check.differences.map((d) =>
            el(
              'li',
              { class: `difference ${d.kind}`, 'data-path': d.path },
              el('code', {}, d.path),
              ' — ',
              d.kind === 'missing'
                ? `in the records (${d.inferred}), not declared`
                : `declared ${d.declared ?? '?'}, records hold ${d.inferred}`,
            ),
          ),
        ),
        el(
          'div',
          { class: 'toolbar' },
          write,
          el('span', { class: 'muted' }, 'Replaces the stream’s declared schema with the inferred one.'),
        ),
      ),
    );
  } else {
    if (check?.declared === 'inline')
      body.append(el('div', { class: 'banner info', role: 'status' }, 'The declared schema matches the records.'));
    else if (check?.declared === 'other')
      body.append(
        el(
          'div',
          { class: 'banner info', role: 'status' },
          'The stream’s schema is loaded from a file or another loader, so it was not compared.',
        ),
      );
    body.append(el('div', { class: 'toolbar' }, write));
  }
  body.append(...datetimeFormatsView(state.datetimeFormats));
  body.append(el('h3', {}, 'Inferred schema'), el('pre', { class: 'json' }, JSON.stringify(state.schema, null, 2)));
}

/** The datetime formats detected in the records (field → format), as the Builder lists them under the schema. */
function datetimeFormatsView(formats: Record<string, string>): HTMLElement[] {
  const entries = Object.entries(formats).filter(([, f]) => typeof f === 'string');
  const heading = el('h3', {}, 'Detected datetime formats');
  if (entries.length === 0)
    return [heading, el('p', { class: 'empty', id: 'datetime-formats' }, 'No field held datetime values in a format the CDK recognises.')];
  return [
    heading,
    el(
      'table',
      { class: 'headers', id: 'datetime-formats' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Field'), el('th', {}, 'Format'))),
      el(
        'tbody',
        {},
        ...entries.map(([field, format]) =>
          el('tr', { 'data-field': field }, el('td', {}, el('code', {}, field)), el('td', {}, el('code', {}, format))),
        ),
      ),
    ),
  ];
}

function renderAux(body: HTMLElement): void {
  if (state.aux.length === 0) {
    body.append(el('p', { class: 'empty' }, 'No auxiliary requests (token refreshes, logins, parent streams).'));
    return;
  }
  for (const a of state.aux) {
    body.append(
      el(
        'details',
        { class: 'page' },
        el('summary', {}, `${a.title ?? 'Request'} [${a.type ?? ''}] ${a.description ? '— ' + a.description : ''}`),
        el('h3', {}, 'Request'),
        ...requestView(a.request, false),
        el('h3', {}, 'Response'),
        ...responseView(a.response),
      ),
    );
  }
}

function renderLogs(body: HTMLElement): void {
  if (state.logs.length === 0) {
    body.append(el('p', { class: 'empty' }, 'No log messages.'));
    return;
  }
  const list = el('ul', { class: 'logs' });
  for (const l of state.logs) {
    const c = l.component;
    list.append(
      el(
        'li',
        { class: `log ${String(l.level ?? 'INFO').toLowerCase()}` },
        el('span', { class: 'level' }, String(l.level ?? 'INFO')),
        ' ',
        l.message ?? '',
        c
          ? el(
              'a',
              { href: '#', class: 'goto', onclick: (e: Event) => goto(e, { type: 'revealRange', range: c.range }) },
              ` ${c.label}, line ${c.range.start.line + 1}`,
            )
          : l.line !== undefined
            ? el(
                'a',
                { href: '#', class: 'goto', onclick: (e: Event) => goto(e, { type: 'openLine', line: l.line! }) },
                ` manifest line ${l.line + 1}`,
              )
            : '',
        l.stacktrace ? el('details', {}, el('summary', {}, 'Details'), el('pre', {}, l.stacktrace)) : '',
      ),
    );
  }
  body.append(list);
}

/** A connection check: its status and message (the reference's words), then the logs of the check. */
function renderCheck(root: HTMLElement, check: NonNullable<State['check']>): void {
  const status = check.running ? 'Checking…' : (check.status ?? 'Error');
  root.append(
    el(
      'header',
      { class: 'header' },
      el('h1', {}, 'Check connection'),
      el('span', { class: 'status', id: 'status' }, status),
      el(
        'button',
        { id: 'rerun', disabled: check.running ? '' : null, onclick: () => vscode.postMessage({ type: 'rerun' }) },
        'Check again',
      ),
    ),
  );
  if (!check.running) {
    const ok = check.status === 'SUCCEEDED';
    root.append(
      el(
        'div',
        { class: `banner ${ok ? 'ok' : 'error'}`, role: ok ? 'status' : 'alert', id: 'check-status' },
        el(
          'strong',
          {},
          ok ? 'Connection succeeded.' : check.status === 'FAILED' ? 'Connection failed: ' : 'The check ended in an error: ',
        ),
        ok ? '' : (check.message ?? ''),
      ),
    );
  }
  const body = el('section', { class: 'panel', 'aria-label': 'Logs' });
  renderLogs(body);
  root.append(body);
}

/** Applies one progress event of the runtime (slices, page summaries, auxiliary requests, logs) to the live view. */
function applyProgress(event: Json): void {
  if (event.type === 'slice') {
    state.slices.push({ pages: [], slice_descriptor: event.descriptor, state: [] });
  } else if (event.type === 'page') {
    if (state.slices.length === 0) state.slices.push({ pages: [], slice_descriptor: '{}', state: [] });
    const slice = state.slices[typeof event.slice === 'number' && state.slices[event.slice] ? event.slice : state.slices.length - 1];
    slice.pages.push({
      request: null,
      response: event.status === null || event.status === undefined ? null : { status: event.status },
      records: [],
      recordCount: Number(event.records ?? 0),
    });
  } else if (event.type === 'auxiliary_request') {
    state.aux.push({
      title: String(event.title ?? ''),
      type: String(event.requestType ?? ''),
      response: event.status === null ? undefined : { status: event.status },
    });
  } else if (event.type === 'log') {
    state.logs.push({ level: String(event.level ?? 'INFO'), message: String(event.message ?? '') });
  } else if (event.type === 'done') {
    state.limitReached = event.limitReached === true;
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const received = performance.now();
  const m = e.data as ResultsViewMessage;
  if (m.type === 'checkStart') {
    Object.assign(state, { check: { running: true, status: null, message: null }, logs: [], error: null });
  } else if (m.type === 'check') {
    const r = m.result as Json;
    state.check = {
      running: false,
      status: typeof r.status === 'string' ? r.status : null,
      message: typeof r.message === 'string' ? r.message : null,
    };
    state.logs = (r.logs as LogEntry[]) ?? [];
  } else if (m.type === 'start') {
    readNumber++;
    // One view per manifest shows whichever stream ran last: its title follows.
    document.title = `Test read: ${String(m.stream)}`;
    Object.assign(state, {
      check: null,
      stream: String(m.stream),
      limits: (m.limits as Limits) ?? {},
      replayedFrom: typeof m.replayedFrom === 'string' ? m.replayedFrom : null,
      running: true,
      slices: [],
      aux: [],
      logs: [],
      schema: null,
      schemaCheck: null,
      datetimeFormats: {},
      limitReached: false,
      error: null,
    });
  } else if (m.type === 'progress') {
    applyProgress(m.event as Json);
  } else if (m.type === 'result') {
    const r = m.result as Json;
    state.running = false;
    state.slices = ((r.slices as Slice[]) ?? []).map((s) => ({ ...s, pages: s.pages ?? [] }));
    state.aux = [...((r.auxiliary_requests as Aux[]) ?? []), ...state.slices.flatMap((s) => s.auxiliary_requests ?? [])];
    state.logs = (r.logs as LogEntry[]) ?? [];
    state.schema = r.inferred_schema ?? null;
    const formats = r.inferred_datetime_formats;
    state.datetimeFormats = formats && typeof formats === 'object' && !Array.isArray(formats) ? (formats as Record<string, string>) : {};
    state.limitReached = r.test_read_limit_reached === true;
    const firstError = state.logs.find((l) => String(l.level).toUpperCase() === 'ERROR');
    if (firstError) state.error = firstError;
  } else if (m.type === 'schemaDifferences') {
    state.schemaCheck = m.result as SchemaCheck;
  } else if (m.type === 'failed') {
    state.running = false;
    if (state.check) state.check = { running: false, status: null, message: String((m.error as Json).message ?? '') };
    else state.error = m.error as LogEntry;
  }
  render();
  // How long the result took to appear (message to painted frame): the e2e run reads it to measure
  // the view on very wide pages. Only a number; nothing of the data.
  if (m.type === 'result') {
    const shown = () => {
      document.body.dataset.resultShownMs = String(Math.round(performance.now() - received));
    };
    // Built now; painted at the next frame (when the view is on screen), which updates the figure.
    shown();
    requestAnimationFrame(shown);
  }
});
render();
vscode.postMessage({ type: 'ready' });

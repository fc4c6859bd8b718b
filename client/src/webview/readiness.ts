// Script of the readiness table (bundled for the browser into out/webview/readiness.js): the streams of
// a manifest as they are read — a progress bar, then one row per stream; a row (click or Enter) asks the
// extension to open that stream's results.
import { el } from './dom';
import type { ReadinessMessage, ReadinessRequest, WebviewApi } from '../webviewMessages';
import type { AllStreamsEvent } from '../../../server/src/protocol';

declare function acquireVsCodeApi(): WebviewApi<ReadinessRequest>;
const vscode = acquireVsCodeApi();

type Summary = Extract<AllStreamsEvent, { type: 'finished' }>['summary'];
type Row = { stream: string; dynamic: boolean; state: 'waiting' | 'running' | 'done'; summary?: Summary };

const state = { manifest: '', concurrency: 1, rows: [] as Row[], done: 0, total: 0, finished: false, time: 0, error: '', listingError: '' };

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function statusCell(r: Row): HTMLElement {
  if (r.state === 'waiting') return el('td', { class: 'status-running' }, 'waiting');
  if (r.state === 'running') return el('td', { class: 'status-running' }, 'reading…');
  const s = r.summary!;
  const text = s.status === 'failed' ? '✗ failed' : s.status === 'empty' ? '! no records' : '✓ ok';
  return el('td', { class: `status-${s.status}` }, text, s.limit_reached ? el('span', { class: 'muted' }, ' (limit reached)') : '');
}

function render(): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.append(
    el(
      'header',
      { class: 'header' },
      el('h1', {}, `All streams of ${state.manifest}`),
      el(
        'span',
        { class: 'status', id: 'readiness-status' },
        state.finished
          ? `${state.total} streams read ${state.concurrency} at a time in ${secs(state.time)}`
          : `Reading ${state.concurrency} at a time…`,
      ),
      el(
        'button',
        { id: 'rerun-all', disabled: state.finished || state.error ? null : '', onclick: () => vscode.postMessage({ type: 'rerun' }) },
        'Run again',
      ),
    ),
  );
  root.append(
    el('progress', {
      id: 'readiness-progress',
      max: String(Math.max(1, state.total)),
      value: String(state.done),
      'aria-label': 'Streams read',
    }),
  );
  root.append(el('div', { class: 'progress-text', id: 'readiness-progress-text' }, `${state.done} of ${state.total} streams`));
  if (state.error) root.append(el('div', { class: 'banner error' }, state.error));
  if (state.listingError)
    root.append(
      el('div', { class: 'banner warn' }, `The dynamic streams could not be resolved; only the static streams ran: ${state.listingError}`),
    );
  const head = el(
    'tr',
    {},
    ...['stream', 'status', 'records', 'pages', 'slices', 'errors', 'retries', 'schema differences', 'datetime formats', 'time'].map(
      (h, i) => el('th', { class: (i >= 2 && i <= 7) || i === 9 ? 'num' : '' }, h),
    ),
  );
  const rows = state.rows.map((r) => {
    const s = r.summary;
    const open = () => vscode.postMessage({ type: 'open', stream: r.stream });
    const formats = s
      ? Object.entries(s.datetime_formats)
          .map(([k, f]) => `${k}: ${f}`)
          .join('; ')
      : '';
    const tr = el(
      'tr',
      {
        'data-stream': r.stream,
        tabindex: s ? '0' : null,
        title: s ? `Open the results of ${r.stream}` : null,
        onclick: () => {
          if (s) open();
        },
        onkeydown: (e) => {
          if (s && (e as KeyboardEvent).key === 'Enter') open();
        },
      },
      el(
        'td',
        {},
        r.stream,
        r.dynamic ? el('span', { class: 'muted' }, ' (dynamic)') : '',
        s?.errors.length ? el('div', { class: 'row-error' }, s.errors[0]) : '',
      ),
      statusCell(r),
      el('td', { class: 'num' }, s ? String(s.records) : ''),
      el('td', { class: 'num' }, s ? String(s.pages) : ''),
      el('td', { class: 'num' }, s ? String(s.slices) : ''),
      el('td', { class: 'num' }, s ? String(s.errors.length) : ''),
      el('td', { class: 'num' }, s ? String(s.retries) : ''),
      el(
        'td',
        { class: 'num', title: s?.schema_differences?.map((d) => d.message).join('\n') ?? '' },
        s ? (s.schema_differences === null ? '–' : String(s.schema_differences.length)) : '',
      ),
      el('td', { class: 'formats' }, formats || (s ? '–' : '')),
      el('td', { class: 'num' }, s ? secs(s.time_ms) : ''),
    );
    return tr;
  });
  root.append(
    el(
      'div',
      { class: 'table-wrap' },
      el('table', { class: 'readiness', id: 'readiness-table' }, el('thead', {}, head), el('tbody', {}, ...rows)),
    ),
  );
  if (state.finished) root.append(el('p', { class: 'muted' }, "Select a row to open that stream's results."));
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as ReadinessMessage;
  if (m.type === 'start') {
    Object.assign(state, {
      manifest: m.manifest,
      concurrency: m.concurrency,
      rows: [],
      done: 0,
      total: 0,
      finished: false,
      time: 0,
      error: '',
      listingError: '',
    });
  } else if (m.type === 'progress') {
    const ev = m.event;
    if (ev.type === 'listed') {
      state.rows = ev.streams.map((s) => ({ stream: s.name, dynamic: s.dynamic, state: 'waiting' as const }));
      state.total = ev.streams.length;
    } else if (ev.type === 'started') {
      const r = state.rows.find((x) => x.stream === ev.stream);
      if (r) r.state = 'running';
    } else if (ev.type === 'finished') {
      const r = state.rows.find((x) => x.stream === ev.summary.stream);
      if (r) Object.assign(r, { state: 'done', summary: ev.summary });
      state.done = ev.done;
    }
  } else if (m.type === 'done') {
    state.finished = true;
    state.time = m.result.time_ms;
    state.concurrency = m.result.concurrency;
    state.listingError = m.result.listing_error ?? '';
    for (const s of m.result.streams) {
      const r = state.rows.find((x) => x.stream === s.stream);
      if (r) Object.assign(r, { state: 'done', summary: s });
    }
    state.done = state.total = m.result.streams.length;
  } else if (m.type === 'failed') {
    state.error = m.message;
    state.finished = true;
  }
  render();
});
render();
vscode.postMessage({ type: 'ready' });

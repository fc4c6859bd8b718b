// Script of the "Compare with Previous Read" webview (bundled for the browser into out/webview/compare.js):
// the diff of `connector-manifest test` between two reads of a stream — records added, removed and
// changed (field by field) by primary key, and the inferred schema's differences — built from DOM text
// nodes only, never innerHTML, so record values cannot inject markup.
import { el } from './dom';
import type { CompareViewMessage, CompareViewRequest, WebviewApi } from '../webviewMessages';

type Field = { path: string; before?: unknown; after?: unknown };
type Side = { label: string; at: string | null; records: number };
type Comparison = {
  stream: string;
  before: Side;
  after: Side;
  primaryKey: string[][];
  diff: { added: string[]; removed: string[]; changed: { key: string; fields: Field[] }[]; schema: string[] };
  text: string;
};

declare function acquireVsCodeApi(): WebviewApi<CompareViewRequest>;
const vscode = acquireVsCodeApi();
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Keys of the keys list are shown whole up to this many; the rest is counted. */
const LIST_LIMIT = 200;

function sideText(s: Side): string {
  const at = s.at ? ` · ${new Date(s.at).toLocaleTimeString()}` : '';
  return `${s.label}${at} · ${plural(s.records, 'record')}`;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

function keyList(cls: string, sign: string, keys: string[]): HTMLElement {
  const shown = keys.slice(0, LIST_LIMIT).map((k) => el('li', { class: cls }, `${sign} record ${k}`));
  if (keys.length > LIST_LIMIT) shown.push(el('li', { class: 'muted' }, `… and ${keys.length - LIST_LIMIT} more`));
  return el('ul', { class: 'keys' }, ...shown);
}

function render(c: Comparison | null): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  if (!c) {
    root.append(el('p', { class: 'empty' }, 'Comparing…'));
    return;
  }
  const d = c.diff;
  const same = !d.added.length && !d.removed.length && !d.changed.length && !d.schema.length;
  root.append(
    el(
      'header',
      { class: 'header' },
      el('h1', {}, `Stream “${c.stream}”: what changed`),
      el(
        'span',
        { class: 'status', id: 'compare-summary' },
        `${d.added.length} added, ${d.removed.length} removed, ${plural(d.changed.length, 'changed record')}; ${plural(d.schema.length, 'schema change')}`,
      ),
      el('button', { id: 'compare-again', class: 'secondary', onclick: () => vscode.postMessage({ type: 'refresh' }) }, 'Compare again'),
    ),
  );
  root.append(
    el(
      'div',
      { class: 'sides' },
      el('span', { class: 'side-label' }, 'Before'),
      el('span', { id: 'side-before' }, sideText(c.before)),
      el('span', { class: 'side-label' }, 'After'),
      el('span', { id: 'side-after' }, sideText(c.after)),
      el('span', { class: 'side-label' }, 'Matched by'),
      el(
        'span',
        { id: 'primary-key' },
        c.primaryKey.length
          ? `primary key ${c.primaryKey.map((p) => p.join('.')).join(', ')}`
          : 'whole records (the stream has no primary key)',
      ),
    ),
  );
  if (same) {
    root.append(
      el(
        'div',
        { class: 'banner info', role: 'status', id: 'no-differences' },
        `No differences: the same ${plural(c.after.records, 'record')} and the same inferred schema.`,
      ),
    );
  }
  if (d.added.length)
    root.append(
      el('section', { class: 'diff-section', id: 'added' }, el('h2', {}, `Added (${d.added.length})`), keyList('added', '+', d.added)),
    );
  if (d.removed.length)
    root.append(
      el(
        'section',
        { class: 'diff-section', id: 'removed' },
        el('h2', {}, `Removed (${d.removed.length})`),
        keyList('removed', '−', d.removed),
      ),
    );
  if (d.changed.length) {
    const section = el('section', { class: 'diff-section', id: 'changed' }, el('h2', {}, `Changed (${d.changed.length})`));
    for (const [i, r] of d.changed.slice(0, LIST_LIMIT).entries()) {
      section.append(
        el(
          'details',
          { class: 'record-change', 'data-key': r.key, open: i < 5 ? '' : null },
          el('summary', {}, `~ record ${r.key} (${plural(r.fields.length, 'field')})`),
          el(
            'table',
            { class: 'changes' },
            el('thead', {}, el('tr', {}, el('th', {}, 'Field'), el('th', {}, 'Before'), el('th', {}, 'After'))),
            el(
              'tbody',
              {},
              ...r.fields.map((f) =>
                el(
                  'tr',
                  {},
                  el('td', {}, f.path),
                  el('td', { class: 'before' }, show(f.before)),
                  el('td', { class: 'after' }, show(f.after)),
                ),
              ),
            ),
          ),
        ),
      );
    }
    if (d.changed.length > LIST_LIMIT)
      section.append(
        el('p', { class: 'muted' }, `… and ${d.changed.length - LIST_LIMIT} more changed records (all of them are in the text below).`),
      );
    root.append(section);
  }
  if (d.schema.length) {
    root.append(
      el(
        'section',
        { class: 'diff-section', id: 'schema' },
        el('h2', {}, `Inferred schema (${d.schema.length})`),
        el(
          'ul',
          { class: 'keys' },
          ...d.schema.map((s) => el('li', { class: s.startsWith('+') ? 'added' : s.startsWith('-') ? 'removed' : '' }, `schema ${s}`)),
        ),
      ),
    );
  }
  root.append(
    el('details', { class: 'stack', id: 'diff-text' }, el('summary', {}, 'As connector-manifest test prints it'), el('pre', {}, c.text)),
  );
}

type Counts = { slices: number; pages: number; records: number; requests: number };
type EngineComparison = {
  stream: string;
  identical: boolean;
  differences: { area: string; where: string; builtin: unknown; cdk: unknown }[];
  notes: string[];
  counts: { builtin: Counts; cdk: Counts };
  text: string;
  replayedFrom: string | null;
  cdk: { python: string; cdkVersion: string };
};
const AREA_TITLES: Record<string, string> = {
  requests: 'Requests and responses',
  records: 'Records',
  slices: 'Slices and pages',
  state: 'State',
  logs: 'Warnings and errors',
  schema: 'Inferred schema',
  limits: 'Limits',
};
const countsText = (k: Counts) =>
  `${plural(k.records, 'record')}, ${plural(k.pages, 'page')}, ${plural(k.slices, 'slice')}, ${plural(k.requests, 'request')}`;

/** "Compare with the CDK": each difference by area, both values side by side. */
function renderEngines(c: EngineComparison): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.append(
    el(
      'header',
      { class: 'header' },
      el('h1', {}, `Stream “${c.stream}”: built-in runtime vs Airbyte CDK`),
      el(
        'span',
        { class: 'status', id: 'compare-summary' },
        c.identical ? 'Identical on both engines' : plural(c.differences.length, 'difference'),
      ),
      el('button', { id: 'compare-again', class: 'secondary', onclick: () => vscode.postMessage({ type: 'refresh' }) }, 'Compare again'),
    ),
  );
  root.append(
    el(
      'div',
      { class: 'sides' },
      el('span', { class: 'side-label' }, 'Built-in'),
      el('span', { id: 'side-before' }, countsText(c.counts.builtin)),
      el('span', { class: 'side-label' }, 'Airbyte CDK'),
      el('span', { id: 'side-after' }, `${countsText(c.counts.cdk)} · airbyte-cdk ${c.cdk.cdkVersion} (${c.cdk.python})`),
      el('span', { class: 'side-label' }, 'Read'),
      el('span', { id: 'read-source' }, c.replayedFrom ? `offline, both from the cassette ${c.replayedFrom}` : 'live, from the API'),
    ),
  );
  if (c.identical) {
    root.append(
      el(
        'div',
        { class: 'banner info', role: 'status', id: 'no-differences' },
        `Identical: the same requests, ${plural(c.counts.builtin.records, 'record')}, slices, state, inferred schema, warnings and errors on both engines.`,
      ),
    );
  }
  for (const n of c.notes) root.append(el('p', { class: 'muted note' }, n));
  const areas = [...new Set(c.differences.map((d) => d.area))];
  for (const area of areas) {
    const list = c.differences.filter((d) => d.area === area);
    const section = el(
      'section',
      { class: 'diff-section', id: `area-${area}` },
      el('h2', {}, `${AREA_TITLES[area] ?? area} (${list.length})`),
    );
    for (const d of list.slice(0, LIST_LIMIT)) {
      section.append(
        el(
          'details',
          { class: 'record-change', open: '' },
          el('summary', {}, d.where),
          el(
            'table',
            { class: 'changes' },
            el('thead', {}, el('tr', {}, el('th', {}, 'Built-in runtime'), el('th', {}, 'Airbyte CDK'))),
            el('tbody', {}, el('tr', {}, el('td', { class: 'before' }, show(d.builtin)), el('td', { class: 'after' }, show(d.cdk)))),
          ),
        ),
      );
    }
    root.append(section);
  }
  root.append(
    el(
      'details',
      { class: 'stack', id: 'diff-text' },
      el('summary', {}, 'As connector-manifest read --compare-engines prints it'),
      el('pre', {}, c.text),
    ),
  );
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as CompareViewMessage;
  if (m.type === 'comparison' && m.result) render(m.result as Comparison);
  else if (m.type === 'engines' && m.result) renderEngines(m.result as EngineComparison);
});
render(null);
vscode.postMessage({ type: 'ready' });

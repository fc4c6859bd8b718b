// Script of the "Input state" form (bundled for the browser into out/webview/stateForm.js): a form built
// from the stream's cursor — a date/time value written in the cursor's own format (typed, or picked and
// formatted), a number for a count cursor, one row per partition, the global state, the parents' states —
// or the raw JSON; then the chain of reads with the records each added.
import { el } from './dom';
import { cursorValueProblem, exampleOf, formatDatetime, stateFromForm, type StateFormValues } from '../incremental/stateFormModel';
import type { StatePanelMessage, StatePanelRequest, WebviewApi } from '../webviewMessages';
import type { IncrementalStream } from '../../../server/src/protocol';

declare function acquireVsCodeApi(): WebviewApi<StatePanelRequest>;
const vscode = acquireVsCodeApi();

let view: 'form' | 'raw' = 'form';

function cursorLine(c: IncrementalStream): string {
  const what =
    c.kind === 'count'
      ? `IncrementingCountCursor on ${c.cursorField}`
      : `DatetimeBasedCursor on ${c.cursorField}, format ${c.datetimeFormat}`;
  const layout = c.layout === 'per_partition' ? ' · state per partition' : c.layout === 'global' ? ' · global state' : '';
  return `${what}${c.lookbackWindow ? ` · lookback ${c.lookbackWindow}` : ''}${layout}${c.start !== null ? ` · starts at ${c.start}` : ''}`;
}

/** A cursor value input: text in the cursor's format, plus a date/time picker that writes into it. */
function valueInput(c: IncrementalStream, id: string, value: string, label: string): { node: HTMLElement; input: HTMLInputElement } {
  const input = el('input', {
    id,
    type: c.kind === 'count' ? 'number' : 'text',
    value,
    placeholder: exampleOf(c),
    'aria-label': label,
    spellcheck: 'false',
  }) as HTMLInputElement;
  const error = el('div', { class: 'error', role: 'alert', id: `${id}_error` });
  input.addEventListener('input', () => {
    error.textContent = input.value.trim() ? (cursorValueProblem(c, input.value.trim()) ?? '') : '';
  });
  const row = el('div', { class: 'value-row' }, input);
  if (c.kind === 'datetime') {
    const picker = el('input', {
      type: 'datetime-local',
      step: '1',
      'aria-label': `${label}: pick a date and time (UTC)`,
      id: `${id}_picker`,
    }) as HTMLInputElement;
    picker.addEventListener('change', () => {
      if (!picker.value) return;
      const d = new Date(`${picker.value.length === 16 ? `${picker.value}:00` : picker.value}Z`);
      if (!Number.isNaN(d.getTime())) {
        input.value = formatDatetime(d, c.datetimeFormat ?? '%Y-%m-%dT%H:%M:%SZ');
        error.textContent = '';
      }
    });
    row.append(picker, el('span', { class: 'muted' }, 'UTC'));
  }
  return { node: el('div', {}, row, error), input };
}

function render(m: StatePanelMessage): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.append(
    el(
      'header',
      { class: 'header' },
      el('h1', {}, `Input state: ${m.stream}`),
      el(
        'div',
        { class: 'toolbar' },
        el(
          'button',
          {
            id: 'view-form',
            class: view === 'form' ? 'seg active' : 'seg',
            onclick: () => {
              view = 'form';
              render(m);
            },
          },
          'Form',
        ),
        el(
          'button',
          {
            id: 'view-raw',
            class: view === 'raw' ? 'seg active' : 'seg',
            onclick: () => {
              view = 'raw';
              render(m);
            },
          },
          'Raw JSON',
        ),
      ),
    ),
  );
  if (m.error) root.append(el('div', { class: 'banner error' }, m.error));
  const c = m.cursor;
  if (c) root.append(el('p', { class: 'cursor-line', id: 'cursor-line' }, cursorLine(c)));
  if (c && c.kind === 'none')
    root.append(
      el(
        'div',
        { class: 'banner info' },
        `Stream '${m.stream}' has no incremental_sync: its reads start from nothing and end with {"__ab_no_cursor_state_message": true}.`,
      ),
    );

  let collect: () => { form?: StateFormValues; raw?: string };
  if (view === 'raw' || !c || !m.form) {
    const area = el('textarea', {
      id: 'raw-state',
      class: 'raw',
      spellcheck: 'false',
      'aria-label': 'Input state as JSON',
    }) as HTMLTextAreaElement;
    area.value = m.raw;
    root.append(el('h2', {}, "Raw JSON (the stream's state, as the CDK writes it; null for none)"), area);
    collect = () => ({ raw: area.value });
  } else {
    const form = structuredClone(m.form);
    const body = el('div', { id: 'state-form' });
    const inputs: Array<() => void> = [];
    if (c.layout === 'single') {
      const v = valueInput(c, 'cursor-value', form.value, c.cursorField);
      inputs.push(() => {
        form.value = v.input.value;
      });
      body.append(
        el(
          'div',
          { class: 'field' },
          el('label', { class: 'label', for: 'cursor-value' }, c.cursorField),
          v.node,
          el(
            'div',
            { class: 'hint' },
            c.kind === 'count'
              ? 'The highest value already read; the read asks for values from here on.'
              : `Written in the cursor's format ${c.datetimeFormat}; empty = no state (the read starts at ${c.start ?? 'start_datetime'}).`,
          ),
        ),
      );
    } else {
      if (c.layout === 'per_partition') {
        const rows = form.rows.map((row, i) => {
          const v = valueInput(c, `partition-${i}`, row.value, `${c.cursorField} of partition ${row.partition}`);
          inputs.push(() => {
            form.rows[i].value = v.input.value;
          });
          return el('tr', {}, el('td', {}, el('code', {}, row.partition)), el('td', {}, v.node));
        });
        body.append(
          el('h2', {}, 'Per partition'),
          rows.length
            ? el(
                'table',
                { class: 'partitions', id: 'partition-rows' },
                el('thead', {}, el('tr', {}, el('th', {}, 'partition'), el('th', {}, c.cursorField))),
                el('tbody', {}, ...rows),
              )
            : el(
                'p',
                { class: 'muted' },
                'No partition known yet: run the stream once and its partitions appear here, or use the raw JSON view.',
              ),
          el('p', { class: 'hint' }, 'A partition left empty starts from the global state below (less its lookback), else from the start.'),
        );
      }
      const g = valueInput(c, 'global-value', form.value, `global ${c.cursorField}`);
      inputs.push(() => {
        form.value = g.input.value;
      });
      const lookback = el('input', {
        id: 'lookback-seconds',
        type: 'number',
        min: '0',
        step: '1',
        value: String(form.lookbackSeconds),
      }) as HTMLInputElement;
      inputs.push(() => {
        form.lookbackSeconds = Number(lookback.value || 0);
      });
      body.append(
        el('h2', {}, c.layout === 'global' ? 'Global state' : 'Global state (for new partitions)'),
        el('div', { class: 'field' }, el('label', { class: 'label', for: 'global-value' }, `state.${c.cursorField}`), g.node),
        el(
          'div',
          { class: 'field' },
          el('label', { class: 'label', for: 'lookback-seconds' }, 'lookback_window (seconds)'),
          lookback,
          el(
            'div',
            { class: 'hint' },
            "Subtracted from the global state for partitions without their own (the CDK writes the last read's duration here).",
          ),
        ),
      );
    }
    if (c.parents.length) {
      body.append(el('h2', {}, 'Parent state (incremental_dependency)'));
      for (const p of c.parents) {
        const area = el('textarea', { id: `parent-${p.stream}`, class: 'raw', rows: '3', spellcheck: 'false' }) as HTMLTextAreaElement;
        area.value = form.parents[p.stream] ?? '';
        area.placeholder = p.cursorField ? `{"${p.cursorField}": "…"}` : '{}';
        inputs.push(() => {
          form.parents[p.stream] = area.value;
        });
        body.append(
          el(
            'div',
            { class: 'field' },
            el('label', { class: 'label', for: `parent-${p.stream}` }, `parent_state.${p.stream}`),
            area,
            el('div', { class: 'hint' }, `The state of parent stream '${p.stream}': it is read from there on.`),
          ),
        );
      }
    }
    root.append(body);
    collect = () => {
      for (const f of inputs) f();
      return { form };
    };
  }
  const problems = el('div', { id: 'state-problems', role: 'alert' }, ...m.problems.map((p) => el('div', { class: 'banner error' }, p)));
  root.append(problems);
  const send = (type: 'run' | 'save' | 'check') => {
    const payload = collect();
    // Checked here first so a typo is named before anything runs; the extension checks again.
    if (payload.form && c) {
      const parsed = stateFromForm(c, payload.form);
      if ('problems' in parsed) {
        problems.replaceChildren(...parsed.problems.map((p) => el('div', { class: 'banner error' }, p)));
        return;
      }
    }
    vscode.postMessage({ type, ...payload });
  };
  root.append(
    el(
      'div',
      { class: 'toolbar actions' },
      el('button', { id: 'run-from-state', onclick: () => send('run') }, 'Run from state'),
      el('button', { id: 'save-state', class: 'secondary', onclick: () => send('save') }, 'Save'),
      el(
        'button',
        {
          id: 'continue',
          class: 'secondary',
          disabled: m.continueFrom ? null : '',
          title: m.continueFrom ? `From ${JSON.stringify(m.continueFrom)}` : 'Run the stream first',
          onclick: () => vscode.postMessage({ type: 'continue' }),
        },
        'Continue from final state',
      ),
      el('button', { id: 'incremental-check', class: 'secondary', onclick: () => send('check') }, 'Incremental check'),
      el('button', { id: 'clear-state', class: 'secondary', onclick: () => vscode.postMessage({ type: 'clear' }) }, 'Clear'),
      m.saved ? el('span', { class: 'muted', id: 'saved-note' }, 'Saved for this workspace.') : el('span', {}),
    ),
  );
  root.append(chainView(m));
}

function chainView(m: StatePanelMessage): HTMLElement {
  const section = el('section', { id: 'chain' }, el('h2', {}, 'Reads'));
  if (!m.chain.length) {
    section.append(
      el(
        'p',
        { class: 'muted' },
        'No read yet in this session. Run from state, then Continue from final state: each read starts where the last ended.',
      ),
    );
    return section;
  }
  const from = (r: StatePanelMessage['chain'][number]) =>
    r.from === 'previous'
      ? `read ${r.n - 1}'s final state`
      : r.from === 'input'
        ? r.inputState
          ? 'the input state'
          : 'no state'
        : 'no state';
  section.append(
    el(
      'ol',
      { class: 'chain' },
      ...m.chain.map((r) =>
        el(
          'li',
          { class: 'chain-read', 'data-read': String(r.n) },
          el('strong', {}, `Read ${r.n}`),
          ` from ${from(r)}`,
          r.inputState && r.from !== 'previous' ? el('code', {}, ` ${JSON.stringify(r.inputState)}`) : '',
          ' → ',
          el('span', { class: 'added' }, `${r.added} new record${r.added === 1 ? '' : 's'}`),
          ` of ${r.records}`,
          r.failed ? el('div', { class: 'banner error' }, r.failed) : '',
          el('div', {}, '→ state ', el('code', {}, r.finalState ? JSON.stringify(r.finalState) : 'none')),
        ),
      ),
    ),
  );
  return section;
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as StatePanelMessage;
  if (m.type === 'init') render(m);
});
vscode.postMessage({ type: 'ready' });

// Script of the "Run with limits…" form (bundled for the browser into out/webview/limits.js): the three
// test-read limits in one small form, pre-filled with their current values; Run sends them back.
import { el } from './dom';
import type { LimitsMessage, LimitsRequest, WebviewApi } from '../webviewMessages';
import { LIMIT_FIELDS, checkLimit } from '../limitFields';

declare function acquireVsCodeApi(): WebviewApi<LimitsRequest>;
const vscode = acquireVsCodeApi();

type Init = { stream: string; limits: Record<string, number>; sources: Record<string, string> };

function render(init: Init): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.append(el('header', { class: 'header' }, el('h1', {}, `Run “${init.stream}” with limits`)));
  const inputs = new Map<string, HTMLInputElement>();
  const form = el('form', { id: 'limits-form', class: 'limits' });
  for (const f of LIMIT_FIELDS) {
    const id = `limit_${f.key}`;
    const input = el('input', {
      id,
      type: 'number',
      min: '1',
      step: '1',
      value: String(init.limits[f.key] ?? f.fallback),
      required: '',
    }) as HTMLInputElement;
    inputs.set(f.key, input);
    form.append(
      el(
        'div',
        { class: 'field' },
        el('label', { for: id, class: 'label' }, f.label),
        input,
        el('div', { class: 'hint' }, `${f.help} Current value: ${init.limits[f.key] ?? f.fallback} (${init.sources[f.key] ?? 'default'}).`),
        el('div', { class: 'error', role: 'alert', id: `${id}_error` }),
      ),
    );
  }
  const submit = () => {
    const limits: Record<string, number> = {};
    let ok = true;
    for (const f of LIMIT_FIELDS) {
      const input = inputs.get(f.key)!;
      const problem = checkLimit(input.value);
      document.getElementById(`limit_${f.key}_error`)!.textContent = problem ?? '';
      if (problem) ok = false;
      else limits[f.key] = Number(input.value.trim());
    }
    if (ok) vscode.postMessage({ type: 'run', limits });
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit();
  });
  const run = el('button', { id: 'run', type: 'submit' }, 'Run');
  const cancel = el(
    'button',
    { id: 'cancel', type: 'button', class: 'secondary', onclick: () => vscode.postMessage({ type: 'cancel' }) },
    'Cancel',
  );
  form.append(el('div', { class: 'toolbar actions' }, run, cancel));
  root.append(form);
  inputs.get(LIMIT_FIELDS[0].key)?.focus();
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as LimitsMessage;
  if (m.type === 'init') render(m);
});
vscode.postMessage({ type: 'ready' });

// Script of the testing-values form (bundled for the browser into out/webview/form.js). Builds a form
// from spec.connection_specification — types, enums, defaults, oneOf groups, nested objects, arrays,
// `order`, required fields, patterns, masked airbyte_secret fields — over one value model.
import { el } from './dom';
import type { TestingValuesMessage, TestingValuesRequest, WebviewApi } from '../webviewMessages';
import { changedPaths, mergeEdits } from '../configMerge';
import { getOwn, setOwn } from '../../../server/src/runtime/shared/safeObject';
import { fieldTitle } from '../specTitles';
import { parseRichText, type RichNode } from './richText';
import { plural } from '../plural';

type Schema = {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  order?: number;
  airbyte_secret?: boolean;
  pattern?: string;
  pattern_descriptor?: string;
  format?: string;
  examples?: unknown[];
  multiline?: boolean;
  minimum?: number;
  maximum?: number;
};
type Json = Record<string, unknown>;
type FieldError = { path: string; message: string; title?: string };

declare function acquireVsCodeApi(): WebviewApi<TestingValuesRequest>;
const vscode = acquireVsCodeApi();
let spec: Schema = {};
let model: Json = {};
/** The stored values the form started from (the last `init` or `stored`): the base of the three-way merge on save. */
let stored: Json = {};
let oauth = false;
let errors: FieldError[] = [];
let notice = '';
let manifestName = '';

function typeOf(s: Schema): string {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? 'string';
  if (s.type) return s.type;
  if (s.properties || s.oneOf) return 'object';
  return 'string';
}

/** Fields in display order: by `order`, then as declared. */
function orderedProps(s: Schema): Array<[string, Schema]> {
  const entries = Object.entries(s.properties ?? {});
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e[1].order ?? 1e9) - (b.e[1].order ?? 1e9) || a.i - b.i)
    .map((x) => x.e);
}

/** The property whose `const` (or single enum value) tells oneOf options apart, with each option's value. */
function discriminator(options: Schema[]): { key: string; values: unknown[] } | undefined {
  const first = options[0]?.properties ?? {};
  for (const key of Object.keys(first)) {
    const values = options.map((o) => {
      const p = o.properties?.[key];
      return p?.const ?? (p?.enum?.length === 1 ? p.enum[0] : p?.default);
    });
    if (values.every((v) => v !== undefined) && new Set(values.map(String)).size === values.length) return { key, values };
  }
  return undefined;
}

function optionIndex(options: Schema[], value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  const d = discriminator(options);
  if (d) {
    const i = d.values.findIndex((v) => String(v) === String((value as Json)[d.key]));
    if (i >= 0) return i;
  }
  const keys = Object.keys(value as Json);
  const scored = options.map((o) => keys.filter((k) => k in (o.properties ?? {})).length);
  return scored.indexOf(Math.max(...scored));
}

/** Default value of a schema: its default, the oneOf first option's defaults, or an object of nested defaults. */
function defaults(s: Schema): unknown {
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.const !== undefined) return s.const;
  const options = s.oneOf ?? s.anyOf;
  if (options?.length) return defaults({ ...options[0], type: 'object' });
  if (typeOf(s) === 'object' && s.properties) {
    const out: Json = {};
    for (const [k, p] of Object.entries(s.properties)) {
      const d = defaults(p);
      if (d !== undefined) setOwn(out, k, d);
    }
    return out;
  }
  return undefined;
}

function withDefaults(s: Schema, value: unknown): unknown {
  if (value === undefined) return defaults(s);
  if (typeOf(s) !== 'object' || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const options = s.oneOf ?? s.anyOf;
  const shape = options?.length ? options[optionIndex(options, value)] : s;
  const out: Json = { ...(value as Json) };
  for (const [k, p] of Object.entries(shape.properties ?? {})) {
    const v = withDefaults(p, getOwn(out, k));
    if (v !== undefined) setOwn(out, k, v);
  }
  return out;
}

/** A spec description as formatted text: only the elements parseRichText allows, built as DOM nodes. */
function richText(nodes: RichNode[]): Node[] {
  return nodes.map((n) => {
    if (typeof n === 'string') return document.createTextNode(n);
    if (n.tag === 'a')
      return n.href ? el('a', { href: n.href, title: n.href }, ...richText(n.children)) : el('span', {}, ...richText(n.children));
    return el(n.tag, {}, ...richText(n.children));
  });
}

function errorFor(path: string): string | undefined {
  return errors.find((e) => e.path === path)?.message;
}

/** Renders one field; `get`/`set` read and write its value in the model. */
function field(key: string, s: Schema, path: string, required: boolean, get: () => unknown, set: (v: unknown) => void): HTMLElement {
  const label = s.title ?? key;
  const id = `f${path.replace(/[^a-zA-Z0-9]/g, '_')}`;
  const wrap = el('div', { class: 'field', 'data-path': path });
  const t = typeOf(s);
  const options = s.oneOf ?? s.anyOf;
  const head = el('label', { for: id, class: 'label' }, label, required ? el('span', { class: 'req', title: 'required' }, ' *') : '');
  const help = s.description ? el('div', { class: 'help' }, ...richText(parseRichText(s.description))) : null;
  if (t === 'object' && (options?.length || s.properties)) {
    const box = el('fieldset', { class: 'group' }, el('legend', {}, label, required ? el('span', { class: 'req' }, ' *') : ''));
    if (help) box.append(help);
    let current = (get() as Json) ?? {};
    if (typeof current !== 'object' || Array.isArray(current)) current = {};
    if (options?.length) {
      const idx = optionIndex(options, current);
      const select = el(
        'select',
        { id, 'aria-label': `${label} type` },
        ...options.map((o, i) => el('option', { value: String(i), selected: i === idx ? '' : null }, o.title ?? `Option ${i + 1}`)),
      ) as HTMLSelectElement;
      select.addEventListener('change', () => {
        set(defaults({ ...options[Number(select.value)], type: 'object' }) ?? {});
        render();
      });
      box.append(select);
      box.append(objectFields(options[idx], path, () => (get() as Json) ?? {}, set));
    } else {
      box.append(objectFields(s, path, () => (get() as Json) ?? {}, set));
    }
    const err = errorFor(path);
    if (err) box.append(el('div', { class: 'error' }, err));
    return box;
  }
  wrap.append(head);
  if (help) wrap.append(help);
  wrap.append(input(s, id, label, get, set));
  const hint = s.pattern_descriptor
    ? `Format: ${s.pattern_descriptor}`
    : s.pattern
      ? `Pattern: ${s.pattern}`
      : s.examples?.length
        ? `Example: ${String(s.examples[0])}`
        : '';
  if (hint) wrap.append(el('div', { class: 'hint' }, hint));
  const err = errorFor(path);
  if (err) wrap.append(el('div', { class: 'error', role: 'alert' }, err));
  return wrap;
}

function input(s: Schema, id: string, label: string, get: () => unknown, set: (v: unknown) => void): HTMLElement {
  const t = typeOf(s);
  const v = get();
  if (s.enum) {
    const sel = el(
      'select',
      { id },
      el('option', { value: '' }, '—'),
      ...s.enum.map((o, i) =>
        el('option', { value: String(i), selected: v !== undefined && String(o) === String(v) ? '' : null }, String(o)),
      ),
    ) as HTMLSelectElement;
    sel.addEventListener('change', () => set(sel.value === '' ? undefined : s.enum![Number(sel.value)]));
    return sel;
  }
  if (t === 'boolean') {
    const cb = el('input', { id, type: 'checkbox', checked: v === true ? '' : null }) as HTMLInputElement;
    cb.addEventListener('change', () => set(cb.checked));
    return cb;
  }
  if (t === 'integer' || t === 'number') {
    const n = el('input', {
      id,
      type: 'number',
      step: t === 'integer' ? '1' : 'any',
      value: v === undefined || v === null ? '' : String(v),
    }) as HTMLInputElement;
    n.addEventListener('input', () => set(n.value.trim() === '' ? undefined : Number(n.value)));
    return n;
  }
  if (t === 'array') return arrayInput(s, id, label, get, set);
  if (s.airbyte_secret) {
    const pw = el('input', {
      id,
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      value: typeof v === 'string' ? v : '',
    }) as HTMLInputElement;
    pw.addEventListener('input', () => set(pw.value === '' ? undefined : pw.value));
    const toggle = el('button', { type: 'button', class: 'secondary reveal', 'aria-label': `Show ${label}` }, 'Show');
    toggle.addEventListener('click', () => {
      const hidden = pw.type === 'password';
      pw.type = hidden ? 'text' : 'password';
      toggle.textContent = hidden ? 'Hide' : 'Show';
    });
    return el('div', { class: 'secret' }, pw, toggle);
  }
  const attrs: Record<string, string | null> = {
    id,
    type: 'text',
    value: typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v),
    spellcheck: 'false',
  };
  if (s.format === 'date') attrs.placeholder = 'YYYY-MM-DD';
  else if (s.format === 'date-time') attrs.placeholder = 'YYYY-MM-DDTHH:mm:ssZ';
  else if (s.examples?.length) attrs.placeholder = String(s.examples[0]);
  const text = (
    s.multiline ? el('textarea', { ...attrs, rows: '4' }, typeof v === 'string' ? v : '') : el('input', attrs)
  ) as HTMLInputElement;
  text.addEventListener('input', () => set(text.value === '' ? undefined : text.value));
  return text;
}

function arrayInput(s: Schema, id: string, label: string, get: () => unknown, set: (v: unknown) => void): HTMLElement {
  const items = s.items ?? { type: 'string' };
  const list = () => (Array.isArray(get()) ? (get() as unknown[]) : []);
  if (items.enum) {
    return el(
      'div',
      { id, class: 'checks' },
      ...items.enum.map((o) => {
        const cb = el('input', { type: 'checkbox', checked: list().some((x) => String(x) === String(o)) ? '' : null }) as HTMLInputElement;
        cb.addEventListener('change', () => set(cb.checked ? [...list(), o] : list().filter((x) => String(x) !== String(o))));
        return el('label', { class: 'check' }, cb, ` ${String(o)}`);
      }),
    );
  }
  const box = el('div', { id, class: 'array' });
  list().forEach((_, i) => {
    const row = el(
      'div',
      { class: 'array-item' },
      field(
        `${label} ${i + 1}`,
        items,
        `${id}/${i}`,
        false,
        () => list()[i],
        (v) => {
          const next = [...list()];
          next[i] = v;
          set(next);
        },
      ),
    );
    const remove = el('button', { type: 'button', class: 'secondary', 'aria-label': `Remove item ${i + 1}` }, 'Remove');
    remove.addEventListener('click', () => {
      set(list().filter((__, j) => j !== i));
      render();
    });
    row.append(remove);
    box.append(row);
  });
  const add = el('button', { type: 'button', class: 'secondary' }, `Add ${items.title ?? 'item'}`);
  add.addEventListener('click', () => {
    set([...list(), defaults(items) ?? (typeOf(items) === 'object' ? {} : '')]);
    render();
  });
  box.append(add);
  return box;
}

function objectFields(s: Schema, path: string, get: () => Json, set: (v: unknown) => void): HTMLElement {
  const box = el('div', { class: 'fields' });
  for (const [key, p] of orderedProps(s)) {
    if (p.const !== undefined || (p.enum?.length === 1 && (s.required ?? []).includes(key) && p.default !== undefined)) continue; // discriminators are set by the option select
    box.append(
      field(
        key,
        p,
        `${path}/${key}`,
        (s.required ?? []).includes(key),
        () => getOwn(get(), key),
        (v) => {
          // Spec keys are other people's data: `__proto__` is a field here, never the object's prototype.
          const next = { ...get() };
          if (v === undefined) delete next[key];
          else setOwn(next, key, v);
          set(next);
        },
      ),
    );
  }
  return box;
}

/** Rebuilds the form; the focused field and its caret survive (values can change under the user's eyes). */
function render(): void {
  const root = document.getElementById('root')!;
  const scroll = window.scrollY;
  const active = document.activeElement as HTMLInputElement | null;
  const focusId = active?.id || null;
  const caret = active && typeof active.selectionStart === 'number' ? [active.selectionStart, active.selectionEnd] : null;
  root.replaceChildren();
  root.append(el('header', { class: 'header' }, el('h1', {}, `Testing values — ${manifestName}`)));
  root.append(
    el('p', { class: 'muted' }, 'Stored only in VS Code’s secret storage, never in settings or files. Fields marked * are required.'),
  );
  if (notice) root.append(el('div', { class: errors.length ? 'banner error' : 'banner info', role: 'status' }, notice));
  if (!spec.properties && !spec.oneOf)
    root.append(el('p', { class: 'empty' }, 'This manifest has no spec.connection_specification with properties.'));
  else
    root.append(
      el(
        'form',
        { id: 'values-form' },
        objectFields(
          spec,
          '',
          () => model,
          (v) => {
            model = v as Json;
          },
        ),
      ),
    );
  const save = el('button', { id: 'save', type: 'button' }, 'Save');
  save.addEventListener('click', () => vscode.postMessage({ type: 'save', values: model, base: stored }));
  const actions = (
    [
      ['import', 'Import config.json…'],
      ['export', 'Export without secrets…'],
      ['clear', 'Clear'],
    ] as const
  ).map(([type, text]) => {
    const b = el('button', { id: type, type: 'button', class: 'secondary' }, text);
    b.addEventListener('click', () => vscode.postMessage({ type }));
    return b;
  });
  const authenticate = oauth
    ? el(
        'button',
        {
          id: 'authenticate',
          type: 'button',
          class: 'secondary',
          title: 'Run the manifest’s OAuth consent flow (spec.advanced_auth) and store the tokens',
        },
        'Authenticate',
      )
    : null;
  authenticate?.addEventListener('click', () => vscode.postMessage({ type: 'authenticate', values: model, base: stored }));
  root.append(el('div', { class: 'toolbar actions' }, save, ...(authenticate ? [authenticate] : []), ...actions));
  window.scrollTo(0, scroll);
  const again = focusId ? (document.getElementById(focusId) as HTMLInputElement | null) : null;
  if (again) {
    again.focus();
    if (caret)
      try {
        again.setSelectionRange(caret[0], caret[1]);
      } catch {
        /* not a text field */
      }
  }
}

/** New stored values arrived (rotation, OAuth, import, another window): keep the user's edits, take the rest. */
function applyStored(values: Json): void {
  const before = model;
  model = (withDefaults({ ...spec, type: 'object' }, mergeEdits(stored, model, values)) as Json) ?? {};
  stored = values;
  const changed = changedPaths(before, model);
  if (changed.length > 0) {
    errors = [];
    notice = `Updated from secret storage: ${changed.map((p) => fieldTitle(spec, p)).join(', ')} changed.`;
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as TestingValuesMessage;
  if (m.type === 'init') {
    spec = (m.spec as Schema) ?? {};
    manifestName = String(m.manifest ?? '');
    oauth = m.oauth === true;
    stored = (m.values as Json) ?? {};
    model = (withDefaults({ ...spec, type: 'object' }, stored) as Json) ?? {};
    errors = [];
    notice = '';
  } else if (m.type === 'stored') {
    applyStored((m.values as Json) ?? {});
  } else if (m.type === 'errors') {
    errors = (m.errors as FieldError[]) ?? [];
    notice = `Not saved: ${plural(errors.length, 'problem')}. ${errors.map((x) => `${x.title ?? fieldTitle(spec, x.path)} ${x.message}`).join(' ')}`;
  } else if (m.type === 'saved') {
    errors = [];
    notice = String(m.message ?? 'Saved.');
  }
  render();
});
render();
vscode.postMessage({ type: 'ready' });

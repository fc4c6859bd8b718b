// LSP glue of the template features: the templates of a document version (cached per version),
// and completion, hover and definition inside them as LSP results. Completion/hover/definition call
// these when the cursor is in a template; the rules behind them live in runtime/rules/template*.ts.
import type { CompletionItem, CompletionList, Hover, LocationLink } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { documentResolved, validationIfDone } from '../documentValidation';
import {
  CATALOG_TEMPLATES,
  connectionSpecOf,
  findTemplates,
  hasTemplateMarkup,
  keyBeforeValue,
  lineEndIn,
  lineStartIn,
  type ConfigSpec,
  type FoundTemplate,
} from '../runtime';
import { templateCompletions } from './jinjaCompletion';
import { templateAt, wordAt, type TemplateAt } from './jinjaCursor';
import { isScalar } from 'yaml';
import { configDefinitionPath, templateHover } from './jinjaHover';
import type { CapturedReads } from '../captured/capturedReads';
import { capturedTemplateItems } from './capturedCompletion';

type DocTemplates = { templates: FoundTemplate[]; spec: ConfigSpec | null; root: unknown };
const cache = new WeakMap<ManifestDocument, DocTemplates>();

/** Templates of a document version with their fields' contexts, and the connection spec. Never throws. */
export function documentTemplates(doc: ManifestDocument): DocTemplates {
  let hit = cache.get(doc);
  if (!hit) {
    // Validation, when it has run for this version, found every template already: reuse them
    // instead of resolving the manifest again on the first completion or hover.
    const validated = validationIfDone(doc);
    if (validated?.resolved && validated.templates) {
      hit = { templates: validated.templates, spec: connectionSpecOf(validated.resolved.value), root: doc.parsed.value };
      cache.set(doc, hit);
      return hit;
    }
    try {
      const parsed = doc.parsed;
      const resolved = documentResolved(doc);
      hit = {
        templates: findTemplates(parsed.locator, doc.text, resolved, CATALOG_TEMPLATES),
        spec: connectionSpecOf(resolved.value),
        root: parsed.value,
      };
    } catch {
      hit = { templates: [], spec: null, root: null };
    }
    cache.set(doc, hit);
  }
  return hit;
}

/** `$parameters` keys written on the enclosing components of the template's source path. */
function parameterKeys(root: unknown, t: FoundTemplate): string[] {
  const keys = new Set<string>();
  let node: unknown = root;
  for (const seg of t.path) {
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      const params = (node as Record<string, unknown>).$parameters;
      if (params && typeof params === 'object') for (const k of Object.keys(params)) keys.add(k);
    }
    node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[seg] : undefined;
  }
  return [...keys];
}

/**
 * The template under `offset`: one the rules placed in its field, else (a template in a field the
 * catalog does not describe, in an unreferenced definition, or a templated mapping key) the string
 * scalar under the cursor with only `config` and `parameters` assumed (context kind `static`).
 */
export function templateAtOffset(doc: ManifestDocument, offset: number): TemplateAt | null {
  // Validation located every template of the version (string values only, never keys): a cursor
  // in one of their scalars is answered from that list, as the node under the cursor would be that
  // scalar, without reading the block into a `yaml` Document (the first template request in a large
  // block spent ~5-10 ms there on quickbooks). On its quotes, the answer is no template either way.
  if (mayBeInTemplate(doc.text, offset) && validationIfDone(doc)) {
    const templates = documentTemplates(doc).templates;
    if (templates.some((t) => offset >= t.start && offset <= t.end)) return templateAt(templates, offset);
    // Before such a scalar on its line, behind nothing but `key: ` (a hover on the key): the node
    // there is that key, and a key without template markup holds no template.
    if (onPlainKeyBefore(doc.text, offset, templates)) return null;
  }
  // Cheap test first (the fast model's node under the cursor): only template scalars pay for resolution.
  const at = doc.locator.nodeAt(offset);
  if (!at || !isScalar(at.node) || typeof at.node.value !== 'string' || !hasTemplateMarkup(at.node.value) || !at.node.range) return null;
  // Keys of interpolated mappings (request_parameters, request_body_json…) are templates too.
  const known = at.onKey ? null : templateAt(documentTemplates(doc).templates, offset);
  if (known) return known;
  const offsets = doc.locator.scalarOffsets(at.node, at.span.start - at.node.range[0]);
  if (!offsets) return null;
  const field = String(at.path[at.path.length - 1] ?? '');
  return templateAt(
    [
      {
        text: at.node.value,
        kind: 'static',
        offsets,
        start: at.span.start,
        end: at.span.end,
        component: 'this component',
        field,
        path: at.path,
      },
    ],
    offset,
  );
}

/**
 * Whether `offset` lies before a located template's scalar that starts on the same line, with only
 * indentation, one `- ` and a key without template markup (then `:` and spaces) before that scalar.
 */
function onPlainKeyBefore(text: string, offset: number, templates: readonly FoundTemplate[]): boolean {
  const lineEnd = lineEndIn(text, offset);
  const value = templates.find((t) => t.start > offset && t.start <= lineEnd);
  if (!value) return false;
  const key = keyBeforeValue(text.slice(lineStartIn(text, offset), value.start));
  return key !== null && !hasTemplateMarkup(key);
}

/** Cheap text test: the cursor's line shows template delimiters (so a template may be under the cursor). */
export function mayBeInTemplate(text: string, offset: number): boolean {
  const line = text.slice(lineStartIn(text, offset), lineEndIn(text, offset));
  return line.includes('{{') || line.includes('}}') || line.includes('{%') || line.includes('%}');
}

/** Whether `offset` lies inside a template (multi-line templates included). */
export function inTemplate(doc: ManifestDocument, offset: number): boolean {
  return templateAtOffset(doc, offset) !== null;
}

/** Completion inside a template at `offset`, or null when the cursor is in no known template. */
export function provideTemplateCompletion(doc: ManifestDocument, offset: number, captured?: CapturedReads): CompletionList | null {
  const { spec, root } = documentTemplates(doc);
  const at = templateAtOffset(doc, offset);
  if (!at) return null;
  // Keys of the captured read come first (`response.` → the keys of the captured bodies there).
  const fromRead = captured?.has(doc.uri)
    ? capturedTemplateItems(doc, captured, at, doc.locator.nodeAt(offset)?.path ?? at.template.path)
    : [];
  const items: CompletionItem[] = [...fromRead, ...templateCompletions(at, { spec, parameterKeys: parameterKeys(root, at.template) })];
  if (!items.length) return null;
  // Replace the identifier typed so far.
  const word = wordAt(at.template.text, at.index);
  const start = word && word.start < at.index ? at.template.offsets[word.start] : offset;
  const range = spanToRange(doc.textDocument, { start, end: offset });
  // A key that needs subscript syntax replaces the dot typed before it (`config.` → `config['my-key']`).
  const dotRange = spanToRange(doc.textDocument, { start: start - 1, end: offset });
  const afterDot = doc.text[start - 1] === '.';
  for (const item of items) {
    const subscript = afterDot && item.insertText?.startsWith('[');
    item.textEdit = { range: subscript ? dotRange : range, newText: item.insertText ?? item.label };
    if (subscript) item.filterText = `.${item.label}`;
  }
  return { isIncomplete: false, items };
}

/** Hover inside a template at `offset`, or null. */
export function provideTemplateHover(doc: ManifestDocument, offset: number): Hover | null {
  const { spec } = documentTemplates(doc);
  const at = templateAtOffset(doc, offset);
  if (!at) return null;
  const h = templateHover(at, spec);
  return h
    ? { contents: { kind: 'markdown', value: h.markdown }, range: spanToRange(doc.textDocument, { start: h.start, end: h.end }) }
    : null;
}

/** Go to definition from a config key in a template to its spec property, or null. */
export function provideTemplateDefinition(doc: ManifestDocument, offset: number): LocationLink[] | null {
  const { spec } = documentTemplates(doc);
  const at = templateAtOffset(doc, offset);
  if (!at) return null;
  const path = configDefinitionPath(at, spec);
  if (!path) return null;
  // The fast model locates the property; no whole-document parse for a jump.
  const target = doc.locator.locate(path);
  if (!target) return null;
  const word = wordAt(at.template.text, at.index);
  const origin = word ? { start: at.template.offsets[word.start], end: at.template.offsets[word.end] } : { start: offset, end: offset };
  const selection = target.keySpan ?? target.valueSpan;
  const whole = { start: selection.start, end: Math.max(selection.end, target.valueSpan.end) };
  return [
    {
      originSelectionRange: spanToRange(doc.textDocument, origin),
      targetUri: doc.uri,
      targetRange: spanToRange(doc.textDocument, whole),
      targetSelectionRange: spanToRange(doc.textDocument, selection),
    },
  ];
}

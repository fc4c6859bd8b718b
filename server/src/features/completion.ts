// Completion: field names of the component under the cursor (required first, deprecated last),
// `type` values valid for the slot, enum values, "complete" components (componentSnippets.ts), the
// manifest skeleton and `version:` values in an empty file (manifestSkeleton.ts), and `#/...` paths
// in reference strings. Everything is derived from the catalog via FormatIndex; multi-line items are
// laid out for the client by completionLayout.ts.
import {
  CompletionItemKind,
  InsertTextFormat,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
  type Range,
} from 'vscode-languageserver';
import { positionToOffset, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { componentAt } from './componentPath';
import type { CursorContext } from '../runtime';
import { inTemplate, mayBeInTemplate, provideTemplateCompletion } from './jinjaDocument';
import { componentMarkdown, fieldMarkdown, fieldSummary } from './formatDocs';
import type { FieldInfo, FormatIndex } from './formatIndex';
import { findReferenceTarget, valueAt } from './references';
import { nestedSchemaAt, schemaProperties } from './nestedSchema';
import type { CapturedReads } from '../captured/capturedReads';
import { capturedFieldItems, fieldCursorOf } from './capturedCompletion';
import { layOut, type InsertionSupport } from './completionLayout';
import { choiceSnippet, completeComponentLines, TabStops, VARIANT_SLOTS } from './componentSnippets';
import { isEmptyManifest, skeletonItem, versionItems } from './manifestSkeleton';

/**
 * What completion and hover need besides the document: the catalog, the captured test reads (when
 * any), and how the client inserts multi-line items (absent: it adjusts their indentation, VS Code's default).
 */
export type FeatureContext = { index: FormatIndex; captured?: CapturedReads; insertion?: InsertionSupport };

/** Characters after which the client should ask for completion again. */
export const COMPLETION_TRIGGER_CHARACTERS = [':', ' ', '/', '#', '"', "'", '-', '.', '|', '['];

/** Completion items at the cursor; null when nothing fits. Never throws. */
export function provideCompletion(ctx: FeatureContext, doc: ManifestDocument, params: CompletionParams): CompletionList | null {
  const offset = positionToOffset(doc.textDocument, params.position);
  const cursor = doc.locator.contextAt(offset);
  // Inside `{{ … }}` the template feature answers (variables, macros, filters); YAML items do not fit there.
  if (cursor?.template || (mayBeInTemplate(doc.text, offset) && inTemplate(doc, offset))) return completeInTemplate(ctx, doc, offset);
  if (!cursor) return null;
  const root = doc.featureValue;
  // Keys of the captured read first (field_path, cursor_field, primary_key…), then the catalog's items.
  const captured = ctx.captured?.has(doc.uri) ? completeFromCapturedRead(ctx, doc, root, cursor) : [];
  const items = cursor.position === 'value' ? completeValue(ctx, doc, root, cursor) : completeKey(ctx, doc, root, cursor);
  const all = [...captured, ...(captured.length && cursor.position === 'key' ? [] : items)];
  return all.length ? { isIncomplete: false, items: all } : null;
}

/** Items from the captured read for a field whose values are its keys; [] elsewhere. */
function completeFromCapturedRead(ctx: FeatureContext, doc: ManifestDocument, root: unknown, cursor: CursorContext): CompletionItem[] {
  const at = fieldCursorOf(cursor, (path) => componentAt(ctx.index, root, path).type);
  return at ? capturedFieldItems(doc, ctx.captured, at, valueAt(root, [...at.componentPath, at.field])) : [];
}

/**
 * Completion inside a template: answered by the template feature (features/jinjaDocument.ts);
 * never YAML keys, which cannot be typed there.
 */
function completeInTemplate(ctx: FeatureContext, doc: ManifestDocument, offset: number): CompletionList | null {
  return provideTemplateCompletion(doc, offset, ctx.captured);
}

function completeKey(ctx: FeatureContext, doc: ManifestDocument, root: unknown, cursor: CursorContext): CompletionItem[] {
  const { index } = ctx;
  const at = componentAt(index, root, cursor.mapPath);
  const written = valueAt(root, cursor.mapPath);
  const present = new Set(written && typeof written === 'object' && !Array.isArray(written) ? Object.keys(written) : []);
  if (cursor.word) present.delete(cursor.word.text);
  const range = spanToRange(doc.textDocument, cursor.prefix);
  const support = ctx.insertion ?? { asIs: false };
  const place = (lines: string[]) => layOut(lines, doc.text, cursor.prefix.start, cursor.keyColumn, support);
  const items: CompletionItem[] = [];
  // An empty file: the whole skeleton of a manifest first.
  if (cursor.mapPath.length === 0 && isEmptyManifest(doc.text, cursor.prefix)) items.push(skeletonItem(index, range, place));
  const allowed = at.slot?.info?.components;
  if (!present.has('type') && (allowed?.length || at.type)) {
    const choices = allowed?.length ? allowed : [at.type!];
    items.push({
      label: 'type',
      kind: CompletionItemKind.Property,
      detail: choices.length > 3 ? `${choices.slice(0, 3).join(' | ')} | …` : choices.join(' | '),
      sortText: '00',
      textEdit: { range, newText: `type: ${choiceSnippet(1, choices)}` },
      insertTextFormat: InsertTextFormat.Snippet,
    });
  }
  // A mapping inside a field written as plain JSON schema (refresh_token_updater, jwt_headers…) lists that schema's properties.
  const nested = at.type === undefined ? nestedSchemaAt(index, root, cursor.mapPath) : null;
  const fields = nested ? schemaProperties(nested) : index.fields(at.type);
  const owner = nested ? `${at.slot?.parentType ?? 'component'}.${at.slot?.field ?? ''}` : at.type!;
  fields.forEach(({ name, info }, i) => {
    if (present.has(name) || name === 'type') return;
    const old = !!(info.deprecated || info.removedIn);
    const { newText, mode } = place(fieldSnippet(name, info));
    items.push({
      label: name,
      kind: info.components?.length ? CompletionItemKind.Module : CompletionItemKind.Property,
      // A deprecated field says so where the list shows it, and comes after the current ones.
      detail: old ? `deprecated${info.deprecated ? `: ${info.deprecated}` : ''} · ${fieldSummary(info)}` : fieldSummary(info),
      documentation: { kind: 'markdown', value: fieldMarkdown(owner, name, info) },
      sortText: `${old ? '3' : info.required ? '1' : '2'}${String(i).padStart(3, '0')}`,
      tags: old ? [1] : undefined,
      textEdit: { range, newText },
      insertTextFormat: InsertTextFormat.Snippet,
      ...mode,
    });
  });
  // In an empty mapping of a component slot, offer each allowed component whole.
  if (allowed?.length && [...present].length === 0) {
    for (const type of allowed) items.push(...componentSnippets(index, type, range, place));
  }
  return items;
}

function completeValue(ctx: FeatureContext, doc: ManifestDocument, root: unknown, cursor: CursorContext): CompletionItem[] {
  const { index } = ctx;
  const range = spanToRange(doc.textDocument, cursor.prefix);
  const typed = cursor.prefix.text;
  const quote = typed.startsWith('"') || typed.startsWith("'") ? typed[0] : '';
  if (cursor.field === '$ref' || typed.slice(quote.length).startsWith('#')) return completeReference(doc, root, cursor, quote);
  const at = componentAt(index, root, cursor.mapPath);
  if (cursor.field === 'type') {
    const allowed = at.slot?.info?.components?.length ? at.slot.info.components : index.allTypes();
    return allowed.map((type, i) => {
      const info = index.component(type);
      return {
        label: type,
        kind: CompletionItemKind.Class,
        detail: info?.label,
        documentation: info ? { kind: 'markdown' as const, value: componentMarkdown(info) } : undefined,
        sortText: String(i).padStart(4, '0'),
        textEdit: { range, newText: type },
      };
    });
  }
  if (cursor.mapPath.length === 0 && cursor.field === 'version') return versionItems(range);
  const info = fieldInfoAt(index, root, cursor, at.type);
  if (!info) return [];
  if (info.enum?.length || (info.types?.length === 1 && info.types[0] === 'boolean')) {
    const values = info.enum ?? [true, false];
    return values.map((v, i) => ({
      label: String(v),
      kind: CompletionItemKind.EnumMember,
      detail: info.default === v ? 'default' : undefined,
      sortText: String(i).padStart(3, '0'),
      textEdit: { range, newText: String(v) },
    }));
  }
  // No fixed values: the default and the typical values the schema gives as examples.
  const values: (string | number | boolean)[] = [];
  for (const v of [info.default, ...(info.examples ?? [])]) {
    if ((typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && !values.includes(v)) values.push(v);
  }
  const closing = quote && doc.text[cursor.prefix.end] !== quote ? quote : '';
  return values.map((v, i) => {
    const text = quote && typeof v === 'string' ? `${quote}${quoteInside(v, quote)}${closing}` : yamlScalar(v, info.types);
    return {
      label: typeof v === 'string' && v === '' ? '""' : String(v),
      kind: CompletionItemKind.Value,
      detail: info.default === v ? 'default' : 'example',
      sortText: String(i).padStart(3, '0'),
      filterText: text,
      textEdit: { range, newText: text },
    };
  });
}

/** The catalog field under a value cursor, also inside plain-JSON-schema fields. */
function fieldInfoAt(index: FormatIndex, root: unknown, cursor: CursorContext, type: string | undefined): FieldInfo | undefined {
  const name = cursor.field ?? '';
  if (type !== undefined) return index.field(type, name);
  const nested = nestedSchemaAt(index, root, cursor.mapPath);
  return nested ? schemaProperties(nested).find((f) => f.name === name)?.info : undefined;
}

/** A value as YAML text: plain when YAML reads it back as the same string, else double-quoted. */
function yamlScalar(v: string | number | boolean, types: readonly string[] | undefined): string {
  if (typeof v !== 'string') return String(v);
  const plain = /^[A-Za-z_/][^:#{}[\],&*!|>'"%@`]*$/.test(v) && !/\s$/.test(v);
  const readsAsOther = /^(true|false|null|yes|no|on|off|~)$/i.test(v) || (!!types && !types.includes('string'));
  return plain && !readsAsOther ? v : JSON.stringify(v);
}

/** `v` escaped for the inside of a quoted YAML scalar the user has opened. */
function quoteInside(v: string, quote: string): string {
  return quote === "'" ? v.replace(/'/g, "''") : JSON.stringify(v).slice(1, -1);
}

/**
 * Reference completion, one path segment at a time: after `#/definitions/streams/` the children of
 * `definitions.streams` (not its siblings), each inserted as the whole path so far plus the child.
 */
function completeReference(doc: ManifestDocument, root: unknown, cursor: CursorContext, quote: string): CompletionItem[] {
  const range = spanToRange(doc.textDocument, cursor.prefix);
  const typed = cursor.prefix.text.slice(quote.length);
  const path = typed.startsWith('#/') ? typed.slice(2) : '';
  const slash = path.lastIndexOf('/');
  const parent = slash < 0 ? '' : path.slice(0, slash);
  let node: unknown = root;
  if (parent !== '') {
    const target = findReferenceTarget(root, parent);
    node = target ? valueAt(root, target) : undefined;
  }
  const followed = referenceTargetOf(root, node);
  if (followed === null || typeof followed !== 'object') return [];
  const closing = quote && doc.text[cursor.prefix.end] !== quote ? quote : '';
  const wrap = quote || (cursor.field === '$ref' ? '"' : '');
  const entries: [string, unknown][] = Array.isArray(followed) ? followed.map((v, i) => [String(i), v]) : Object.entries(followed);
  // At the top, the sections that hold reusable pieces come first.
  const rank = (key: string) => (parent === '' ? (key === 'definitions' ? 0 : key === 'schemas' ? 1 : 2) : 0);
  return entries.map(([key, value], i) => {
    const full = `#/${parent === '' ? '' : `${parent}/`}${key}`;
    return {
      label: key,
      kind: isComponent(value)
        ? CompletionItemKind.Class
        : value !== null && typeof value === 'object'
          ? CompletionItemKind.Module
          : CompletionItemKind.Value,
      detail: referenceDetail(value, full),
      sortText: `${rank(key)}${String(i).padStart(5, '0')}`,
      filterText: `${quote}${full}`,
      textEdit: { range, newText: `${wrap}${full}${quote ? closing : wrap}` },
    };
  });
}

/** A `$ref` mapping or reference string stands for its target when listing children. */
function referenceTargetOf(root: unknown, node: unknown): unknown {
  const viaString = typeof node === 'string' && node.startsWith('#/') ? node.slice(2) : null;
  const via =
    viaString ??
    (node && typeof node === 'object' && !Array.isArray(node) && typeof (node as Record<string, unknown>).$ref === 'string'
      ? String((node as Record<string, unknown>).$ref).replace(/^#\//, '')
      : null);
  if (via === null) return node;
  const target = findReferenceTarget(root, via);
  const value = target ? valueAt(root, target) : undefined;
  // Local keys of a `$ref` mapping stay visible next to the target's.
  if (viaString === null && value && typeof value === 'object' && !Array.isArray(value))
    return { ...(value as object), ...(node as object) };
  return value ?? node;
}

function isComponent(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).type === 'string';
}

function referenceDetail(v: unknown, full: string): string {
  if (isComponent(v)) return `${String((v as Record<string, unknown>).type)} · ${full}`;
  if (Array.isArray(v)) return `list of ${v.length} · ${full}`;
  if (v !== null && typeof v === 'object') {
    const n = Object.keys(v).length;
    return `${n} ${n === 1 ? 'key' : 'keys'} · ${full}`;
  }
  return full;
}

/** A field item's lines (relative to the key's column): a component slot opens a nested mapping with its `type`. */
function fieldSnippet(name: string, info: FieldInfo): string[] {
  if (info.components?.length) {
    // A list that also takes a single component is usually written as the single one.
    const dash = info.list && !info.alsoSingle ? '- ' : '';
    return [`${name}:`, `  ${dash}type: ${choiceSnippet(1, info.components)}`];
  }
  if (info.enum?.length) return [`${name}: ${choiceSnippet(1, info.enum)}`];
  return [`${name}: $0`];
}

type Place = (lines: string[]) => ReturnType<typeof layOut>;

/**
 * A whole component: `type` plus each field it requires and the ones almost always written, nested
 * components expanded (componentSnippets.ts). A paginator comes once per pagination strategy.
 */
function componentSnippets(index: FormatIndex, type: string, range: Range, place: Place): CompletionItem[] {
  const info = index.component(type);
  const slot = VARIANT_SLOTS[type];
  const variants = slot ? (index.field(type, slot)?.components ?? []).filter((c) => !c.startsWith('Custom')) : [];
  return (variants.length ? variants : [undefined]).map((variant, i) => {
    const { newText, mode } = place(completeComponentLines(index, type, new TabStops(), 4, variant));
    return {
      label: variant ? `${type} with ${variant} (complete)` : `${type} (complete)`,
      kind: CompletionItemKind.Snippet,
      detail: info?.label ?? 'component with its required fields',
      documentation: info ? { kind: 'markdown', value: componentMarkdown(info) } : undefined,
      sortText: `0${type}${i}`,
      // The strategy filters too: typing `Cursor` finds the cursor paginator.
      filterText: variant ? `${type} ${variant}` : type,
      textEdit: { range, newText },
      insertTextFormat: InsertTextFormat.Snippet,
      ...mode,
    };
  });
}

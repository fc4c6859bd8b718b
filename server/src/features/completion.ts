// Completion: field names of the component under the cursor (required first), `type` values valid
// for the slot, enum values, snippets inserting a whole component with its required fields, and
// `#/...` paths in reference strings. Everything is derived from the catalog via FormatIndex.
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type CompletionList, type CompletionParams, type Range } from 'vscode-languageserver';
import { positionToOffset, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { componentAt } from './componentPath';
import { cursorContextAt, type CursorContext } from './cursorContext';
import { inTemplate, mayBeInTemplate, provideTemplateCompletion } from './jinjaDocument';
import { componentMarkdown, fieldMarkdown, fieldSummary } from './formatDocs';
import type { FieldInfo, FormatIndex } from './formatIndex';
import { valueAt } from './references';
import { referenceCandidates } from './referenceCandidates';

/** What completion and hover need besides the document. */
export type FeatureContext = { index: FormatIndex };

/** Characters after which the client should ask for completion again. */
export const COMPLETION_TRIGGER_CHARACTERS = [':', ' ', '/', '#', '"', "'", '-', '.', '|', '['];

/** Completion items at the cursor; null when nothing fits. Never throws. */
export function provideCompletion(ctx: FeatureContext, doc: ManifestDocument, params: CompletionParams): CompletionList | null {
  const offset = positionToOffset(doc.textDocument, params.position);
  const cursor = cursorContextAt(doc.text, offset);
  // Inside `{{ … }}` the template feature answers (variables, macros, filters); YAML items do not fit there.
  if (cursor?.template || (mayBeInTemplate(doc.text, offset) && inTemplate(doc, offset))) return completeInTemplate(ctx, doc, offset);
  if (!cursor) return null;
  const root = doc.featureValue;
  const items = cursor.position === 'value' ? completeValue(ctx, doc, root, cursor) : completeKey(ctx, doc, root, cursor);
  return items.length ? { isIncomplete: false, items } : null;
}

/**
 * Completion inside a template: answered by the template feature (features/jinjaDocument.ts);
 * never YAML keys, which cannot be typed there.
 */
function completeInTemplate(_ctx: FeatureContext, doc: ManifestDocument, offset: number): CompletionList | null {
  return provideTemplateCompletion(doc, offset);
}

function completeKey(ctx: FeatureContext, doc: ManifestDocument, root: unknown, cursor: CursorContext): CompletionItem[] {
  const { index } = ctx;
  const at = componentAt(index, root, cursor.mapPath);
  const written = valueAt(root, cursor.mapPath);
  const present = new Set(written && typeof written === 'object' && !Array.isArray(written) ? Object.keys(written) : []);
  if (cursor.word) present.delete(cursor.word.text);
  const range = spanToRange(doc.textDocument, cursor.prefix);
  const indent = ' '.repeat(cursor.keyColumn);
  const items: CompletionItem[] = [];
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
  index.fields(at.type).forEach(({ name, info }, i) => {
    if (present.has(name) || name === 'type') return;
    items.push({
      label: name,
      kind: info.components?.length ? CompletionItemKind.Module : CompletionItemKind.Property,
      detail: fieldSummary(info),
      documentation: { kind: 'markdown', value: fieldMarkdown(at.type!, name, info) },
      sortText: `${info.required ? '1' : '2'}${String(i).padStart(3, '0')}`,
      tags: info.deprecated || info.removedIn ? [1] : undefined,
      textEdit: { range, newText: fieldSnippet(name, info, indent) },
      insertTextFormat: InsertTextFormat.Snippet,
    });
  });
  // In an empty mapping of a component slot, offer each allowed component whole.
  if (allowed?.length && [...present].length === 0) {
    for (const type of allowed) items.push(componentSnippet(index, type, range, indent));
  }
  return items;
}

function completeValue(ctx: FeatureContext, doc: ManifestDocument, root: unknown, cursor: CursorContext): CompletionItem[] {
  const { index } = ctx;
  const range = spanToRange(doc.textDocument, cursor.prefix);
  const typed = cursor.prefix.text;
  const quote = typed.startsWith('"') || typed.startsWith("'") ? typed[0] : '';
  if (cursor.field === '$ref' || typed.slice(quote.length).startsWith('#')) {
    const closing = quote && doc.text[cursor.prefix.end] !== quote ? quote : '';
    const wrap = quote || (cursor.field === '$ref' ? '"' : '');
    return referenceCandidates(root).map((path, i) => ({
      label: path,
      kind: CompletionItemKind.Reference,
      sortText: String(i).padStart(5, '0'),
      filterText: `${quote}${path}`,
      textEdit: { range, newText: `${wrap}${path}${quote ? closing : wrap}` },
    }));
  }
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
  const info = index.field(at.type, cursor.field ?? '');
  if (!info) return [];
  const values = info.enum ?? (info.types?.length === 1 && info.types[0] === 'boolean' ? [true, false] : []);
  return values.map((v, i) => ({
    label: String(v),
    kind: CompletionItemKind.EnumMember,
    detail: info.default === v ? 'default' : undefined,
    sortText: String(i).padStart(3, '0'),
    textEdit: { range, newText: String(v) },
  }));
}

/** `${n|a,b|}` snippet choice (escaped), or a plain tab stop when there is nothing to choose. */
function choiceSnippet(n: number, choices: readonly (string | number | boolean)[]): string {
  if (choices.length === 0) return `$${n}`;
  return `\${${n}|${choices.map((c) => String(c).replace(/[,|\\$}]/g, (m) => `\\${m}`)).join(',')}|}`;
}

function fieldSnippet(name: string, info: FieldInfo, indent: string): string {
  if (info.components?.length) {
    // A list that also takes a single component is usually written as the single one.
    const dash = info.list && !info.alsoSingle ? '- ' : '';
    return `${name}:\n${indent}  ${dash}type: ${choiceSnippet(1, info.components)}`;
  }
  if (info.enum?.length) return `${name}: ${choiceSnippet(1, info.enum)}`;
  return `${name}: $0`;
}

/** A whole component: `type` plus each required field with a tab stop (nested required components too). */
function componentSnippet(index: FormatIndex, type: string, range: Range, indent: string): CompletionItem {
  const info = index.component(type);
  let stop = 1;
  const lines = [`type: ${type}`];
  for (const { name, info: field } of index.fields(type)) {
    if (!field.required || name === 'type') continue;
    if (field.components?.length) {
      lines.push(`${name}:`, `  ${field.list && !field.alsoSingle ? '- ' : ''}type: ${choiceSnippet(stop++, field.components)}`);
    } else if (field.enum?.length) lines.push(`${name}: ${choiceSnippet(stop++, field.enum)}`);
    else lines.push(`${name}: $${stop++}`);
  }
  return {
    label: `${type} (complete)`,
    kind: CompletionItemKind.Snippet,
    detail: info?.label ?? 'component with its required fields',
    documentation: info ? { kind: 'markdown', value: componentMarkdown(info) } : undefined,
    sortText: `0${type}`,
    filterText: type,
    textEdit: { range, newText: lines.join(`\n${indent}`) },
    insertTextFormat: InsertTextFormat.Snippet,
  };
}

// Hover: on a key, what the field does (default, allowed values, example, Connector Builder label);
// on a `type` key or value, the component; on a reference, the text of its target.
import { isScalar } from 'yaml';
import type { Hover, HoverParams } from 'vscode-languageserver';
import { lineNumberAt, positionToOffset, spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import { componentAt, type ComponentAtPath } from './componentPath';
import type { FieldInfo } from './formatIndex';
import { nestedSchemaAt, schemaProperties } from './nestedSchema';
import { spaceIndentOf, type CursorContext } from '../runtime';
import { componentMarkdown, fieldMarkdown } from './formatDocs';
import type { FeatureContext } from './completion';
import { findReferenceTarget, referencePath } from './references';
import { inTemplate, mayBeInTemplate, provideTemplateHover, templateAtOffset } from './jinjaDocument';
import { capturedFieldPathHover, capturedTemplateHover } from './capturedHover';
import type { Segment } from '../model/manifestModel';

/** Lines of a reference target shown in its hover. */
const TARGET_PREVIEW_LINES = 20;

/** The hover at the cursor, or null when there is nothing to say. Never throws. */
export function provideHover(ctx: FeatureContext, doc: ManifestDocument, params: HoverParams): Hover | null {
  const offset = positionToOffset(doc.textDocument, params.position);
  const hover = catalogHover(ctx, doc, offset);
  if (!ctx.captured?.has(doc.uri)) return hover;
  // With a captured read, what the API answered is added below what the catalog says.
  const fromRead = capturedHoverAt(ctx, doc, offset);
  if (!fromRead) return hover;
  const before = hover && typeof hover.contents === 'object' && 'kind' in hover.contents ? `${hover.contents.value}\n\n---\n\n` : '';
  return {
    contents: { kind: 'markdown', value: before + fromRead.markdown },
    range: hover?.range ?? spanToRange(doc.textDocument, fromRead.span),
  };
}

/** The captured read's part of a hover: a template evaluated per page, or what a field_path selects. */
function capturedHoverAt(
  ctx: FeatureContext,
  doc: ManifestDocument,
  offset: number,
): { markdown: string; span: { start: number; end: number } } | null {
  let at = mayBeInTemplate(doc.text, offset) ? templateAtOffset(doc, offset) : null;
  let sourcePath = at ? doc.locator.nodeAt(offset)?.path : undefined;
  const cursor = doc.locator.contextAt(offset);
  if (!at && cursor?.position === 'key' && cursor.word && !cursor.inNewItem) {
    // On the key of a templated field (`cursor_value:`), its value's template.
    const path = [...cursor.mapPath, cursor.word.text];
    const value = doc.locator.locate(path);
    if (value && mayBeInTemplate(doc.text, value.valueSpan.start + 1)) {
      at = templateAtOffset(doc, value.valueSpan.start + 1);
      sourcePath = path;
    }
  }
  if (at) {
    const markdown = capturedTemplateHover(doc, ctx.captured, at, sourcePath ?? at.template.path);
    const o = at.template.offsets;
    return markdown ? { markdown, span: { start: o[0], end: o[o.length - 1] } } : null;
  }
  // One-line flow mappings (`extractor: {type: DpathExtractor, field_path: [data]}`) are read from the model.
  const extractor = (cursor ? fieldPathExtractor(cursor) : null) ?? fieldPathInModel(doc, offset);
  if (!extractor || componentAt(ctx.index, doc.featureValue, extractor).type !== 'DpathExtractor') return null;
  const markdown = capturedFieldPathHover(doc, ctx.captured, extractor);
  return markdown ? { markdown, span: cursor?.word ?? cursor?.scalar ?? { start: offset, end: offset } } : null;
}

/** The source path of the extractor when the cursor is on its `field_path` key, value or one of its items. */
function fieldPathExtractor(cursor: CursorContext): Segment[] | null {
  const p = cursor.mapPath;
  if (cursor.position === 'key' && !cursor.inNewItem && cursor.word?.text === 'field_path') return p;
  if (cursor.position === 'value' && cursor.field === 'field_path') return p;
  if (cursor.inNewItem && p.length >= 2 && p[p.length - 2] === 'field_path' && typeof p[p.length - 1] === 'number') return p.slice(0, -2);
  return null;
}

/** The same, from the parsed node under the cursor (for flow mappings the line reader does not enter). */
function fieldPathInModel(doc: ManifestDocument, offset: number): Segment[] | null {
  const p = doc.locator.nodeAt(offset)?.path ?? [];
  if (p[p.length - 1] === 'field_path') return p.slice(0, -1);
  if (p.length >= 2 && p[p.length - 2] === 'field_path' && typeof p[p.length - 1] === 'number') return p.slice(0, -2);
  return null;
}

/** The hover of the catalog, the references and the templates, or null. */
function catalogHover(ctx: FeatureContext, doc: ManifestDocument, offset: number): Hover | null {
  const cursor = doc.locator.contextAt(offset);
  if (cursor?.template || (mayBeInTemplate(doc.text, offset) && inTemplate(doc, offset))) return hoverInTemplate(ctx, doc, offset);
  if (!cursor) return referenceHoverFromTree(doc, offset);
  // Everything below reads the cursor's line: no YAML Document is built for a hover.
  if (cursor.scalar && referencePath(cursor.scalar.text) !== null) {
    const reference = referenceHover(doc, cursor.scalar.text);
    if (reference) return { contents: { kind: 'markdown', value: reference }, range: spanToRange(doc.textDocument, cursor.scalar) };
  }
  const root = doc.featureValue;
  const component = componentAt(ctx.index, root, cursor.mapPath);
  if (cursor.position === 'key') {
    if (!cursor.word) return null;
    const range = spanToRange(doc.textDocument, cursor.word);
    const name = cursor.word.text;
    if (name === 'type') {
      const info = ctx.index.component(component.type);
      return info ? { contents: { kind: 'markdown', value: componentMarkdown(info) }, range } : null;
    }
    const info = ctx.index.field(component.type, name) ?? nestedField(ctx, root, cursor, name);
    return info
      ? { contents: { kind: 'markdown', value: fieldMarkdown(component.type ?? nestedOwner(component), name, info) }, range }
      : null;
  }
  const range = cursor.scalar ? spanToRange(doc.textDocument, cursor.scalar) : undefined;
  if (cursor.field === 'type' && cursor.scalar) {
    const info = ctx.index.component(cursor.scalar.text);
    return info ? { contents: { kind: 'markdown', value: componentMarkdown(info) }, range } : null;
  }
  const info = ctx.index.field(component.type, cursor.field ?? '') ?? nestedField(ctx, root, cursor, cursor.field ?? '');
  return info
    ? { contents: { kind: 'markdown', value: fieldMarkdown(component.type ?? nestedOwner(component), cursor.field!, info) }, range }
    : null;
}

/** A property of a field written as plain JSON schema (`refresh_token_updater.refresh_token_name`…), or undefined. */
function nestedField(ctx: FeatureContext, root: unknown, cursor: CursorContext, name: string): FieldInfo | undefined {
  const schema = nestedSchemaAt(ctx.index, root, cursor.mapPath);
  return schema ? schemaProperties(schema).find((f) => f.name === name)?.info : undefined;
}

function nestedOwner(component: ComponentAtPath): string {
  return component.slot ? `${component.slot.parentType}.${component.slot.field}` : 'component';
}

/** Where the line alone says nothing (multi-line values), a reference is found in the parsed block. */
function referenceHoverFromTree(doc: ManifestDocument, offset: number): Hover | null {
  const at = doc.locator.nodeAt(offset);
  if (!at || at.onKey || !isScalar(at.node)) return null;
  const reference = referenceHover(doc, at.node.value);
  return reference ? { contents: { kind: 'markdown', value: reference }, range: spanToRange(doc.textDocument, at.span) } : null;
}

/**
 * Hover inside a template: answered by the template feature (features/jinjaDocument.ts), never
 * with the field's hover.
 */
function hoverInTemplate(_ctx: FeatureContext, doc: ManifestDocument, offset: number): Hover | null {
  return provideTemplateHover(doc, offset);
}

/** Markdown showing the text a reference points at, or null when `value` is not a reference. */
function referenceHover(doc: ManifestDocument, value: unknown): string | null {
  const path = referencePath(value);
  if (path === null) return null;
  const target = findReferenceTarget(doc.model.value, path);
  if (!target) return `\`${String(value)}\` — **no such target** in this manifest.`;
  const location = doc.locator.locate(target);
  if (!location) return null;
  const start = location.keySpan?.start ?? location.valueSpan.start;
  const lineStart = doc.locator.lineStart(start);
  const lines = doc.text.slice(lineStart, location.valueSpan.end).trimEnd().split('\n');
  const shown = lines.slice(0, TARGET_PREVIEW_LINES);
  const line = lineNumberAt(doc.textDocument, start);
  const more = lines.length > shown.length ? `\n\n… ${lines.length - shown.length} more lines` : '';
  return `Reference to \`#/${path}\` (line ${line}):\n\n\`\`\`yaml\n${dedent(shown).join('\n')}\n\`\`\`${more}`;
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map(spaceIndentOf));
  return Number.isFinite(indent) ? lines.map((l) => l.slice(indent)) : lines;
}

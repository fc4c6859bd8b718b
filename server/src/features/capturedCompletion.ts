// Completion from the captured read (the last test read of the stream): inside templates the keys
// of `response.…`, `last_record.…` / `record.…`, `headers.…` and `stream_slice.…` /
// `stream_partition.…` at the path typed so far; in fields the keys a DpathExtractor's field_path can
// take at its depth (`*` over arrays), the record keys for cursor_field, primary_key,
// RemoveFields.field_pointers and AddFields paths, and the parent stream's record keys for a
// ParentStreamConfig. Each item's detail is the key's type and a sample value (masked values stay
// masked). Without a captured read nothing is added.
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver';
import { spanToRange } from '../convert';
import type { ManifestDocument } from '../documents';
import type { CapturedReads } from '../captured/capturedReads';
import {
  capturedPlacesAt,
  decodedElements,
  decodedResponse,
  paginationHeaders,
  streamNameOf,
  valueBelow,
  type CapturedPlace,
} from '../captured/capturedContext';
import { keysAt, shortValue, type CapturedKey, type KeyStep } from '../captured/capturedKeys';
import { variablesOf } from '../runtime';
import { openTagPrefix, type TemplateAt } from './jinjaCursor';
import type { CursorContext } from '../runtime';
import type { Segment } from '../model/manifestModel';
import { codeSpan } from './markdownText';

/** Sort prefix that puts captured keys before every other item. */
const FIRST = '!';

const TEMPLATE_ROOTS = [
  'response',
  'last_record',
  'record',
  'last_records',
  'headers',
  'stream_slice',
  'stream_partition',
  'stream_interval',
] as const;
type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

/** The access chain written before the cursor: `response.data[0].` → root `response`, path ['data', 0]. */
export function accessChainBefore(prefix: string): { root: TemplateRoot; path: KeyStep[]; quoted: boolean } | null {
  const m = new RegExp(
    `(?:^|[^\\w.'"\\]])(${TEMPLATE_ROOTS.join('|')})((?:\\.[A-Za-z_]\\w*|\\[\\s*(?:'[^']*'|"[^"]*"|-?\\d+)\\s*\\]|\\.get\\(\\s*(?:'[^']*'|"[^"]*")[^)]*\\))*)(\\.|\\[\\s*['"]|\\.get\\(\\s*['"])[\\w-]*$`,
  ).exec(prefix);
  if (!m) return null;
  const path: KeyStep[] = [];
  for (const part of m[2].matchAll(
    /\.get\(\s*(?:'([^']*)'|"([^"]*)")[^)]*\)|\.([A-Za-z_]\w*)|\[\s*(?:'([^']*)'|"([^"]*)"|(-?\d+))\s*\]/g,
  )) {
    const index = part[6];
    path.push(index !== undefined ? Number(index) : (part[1] ?? part[2] ?? part[3] ?? part[4] ?? part[5]));
  }
  return { root: m[1] as TemplateRoot, path, quoted: m[3] !== '.' };
}

/** The captured values a template variable takes, latest page first. */
function rootValues(place: CapturedPlace, root: TemplateRoot, kind: string): unknown[] {
  const pages = [...place.read.pages].reverse();
  switch (root) {
    case 'response':
      return pages.map((p) => decodedResponse(place.stream, p));
    case 'headers':
      return pages.map((p) => (kind === 'pagination_cursor' ? paginationHeaders(p) : p.headers));
    case 'last_record':
      return pages.map((p) => p.records[p.records.length - 1]).filter((r) => r !== undefined);
    case 'record':
      return pages.flatMap((p) => [...p.records].reverse());
    case 'last_records':
      return pages.map((p) => p.records);
    default:
      return pages.map((p) => p.sliceDescriptor);
  }
}

function keyItem(k: CapturedKey, i: number, where: string, insertText?: string): CompletionItem {
  return {
    label: k.key,
    kind: CompletionItemKind.Field,
    detail: `${k.type} · ${shortValue(k.sample)}`,
    documentation: {
      kind: 'markdown',
      value: `From the last read of stream ${codeSpan(where)}: ${codeSpan(k.key)} is ${k.type === 'null' ? 'null' : `a ${k.type}`} (last page: ${codeSpan(shortValue(k.sample, 80))}).`,
    },
    sortText: `${FIRST}${String(i).padStart(4, '0')}`,
    ...(insertText !== undefined ? { insertText } : {}),
  };
}

/**
 * Items for a template at `at` whose access chain before the cursor starts at a variable the
 * captured read knows; [] otherwise. `insertText` is set for keys that need subscript syntax.
 */
export function capturedTemplateItems(
  doc: ManifestDocument,
  captured: CapturedReads | undefined,
  at: TemplateAt,
  sourcePath: readonly Segment[],
): CompletionItem[] {
  if (!captured?.has(doc.uri)) return [];
  const prefix = openTagPrefix(at.template.text, at.index);
  if (prefix === null) return [];
  const chain = accessChainBefore(prefix);
  if (!chain) return [];
  // Only variables the field really gets (the diagnostics flag the others).
  if (!variablesOf(at.template.kind).some((v) => v.name === chain.root)) return [];
  const place = capturedPlacesAt(doc, captured, sourcePath)[0];
  if (!place) return [];
  const { keys } = keysAt(rootValues(place, chain.root, at.template.kind), chain.path);
  return keys.map((k, i) =>
    keyItem(k, i, place.streamName, chain.quoted || /^[A-Za-z_]\w*$/.test(k.key) ? undefined : `['${k.key.replace(/'/g, "\\'")}']`),
  );
}

/** Which record keys a field completes from, by component type and field. */
type FieldSource = { from: 'response' | 'records' | 'parent_records' | 'partition'; nested: boolean; listOfLists?: boolean };

function fieldSource(type: string | undefined, field: string): FieldSource | null {
  if (type === 'DpathExtractor' && field === 'field_path') return { from: 'response', nested: true };
  if (type === 'DeclarativeStream' && field === 'primary_key') return { from: 'records', nested: true };
  if (
    (type === 'DatetimeBasedCursor' || type === 'IncrementingCountCursor' || type === 'CustomIncrementalSync') &&
    field === 'cursor_field'
  )
    return { from: 'records', nested: false };
  if (type === 'RemoveFields' && field === 'field_pointers') return { from: 'records', nested: true, listOfLists: true };
  if (type === 'AddedFieldDefinition' && field === 'path') return { from: 'records', nested: true };
  if (type === 'ParentStreamConfig' && field === 'parent_key') return { from: 'parent_records', nested: false };
  if (type === 'ParentStreamConfig' && field === 'partition_field') return { from: 'partition', nested: false };
  return null;
}

/**
 * Reads a flow list typed so far (`[data, it`, `[[a, b], [c`): the items written before the cursor
 * in the innermost open list, the partial item and whether a list is open. Quotes are removed.
 */
export function flowListBefore(text: string): { items: string[]; partial: string; partialLength: number; open: boolean } {
  const stack: string[][] = [];
  let current = '';
  let quote = '';
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[') {
      stack.push([]);
      current = '';
    } else if (ch === ']') {
      stack.pop();
      current = '';
    } else if (ch === ',') {
      stack[stack.length - 1]?.push(current.trim());
      current = '';
    } else current += ch;
  }
  const rawTail = /[^,[\]]*$/.exec(text)![0];
  const partialLength = rawTail.replace(/^\s+/, '').length;
  return { items: stack[stack.length - 1] ?? [], partial: current.trim(), partialLength, open: stack.length > 0 };
}

/** A key as a YAML flow-list item or plain scalar: plain when YAML reads it back as that string. */
function yamlKey(key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(key) ? key : JSON.stringify(key);
}

/**
 * What completion at a YAML cursor needs to know: the component and the field whose value is under
 * the cursor, the text typed so far as the value (`prefix`), and whether it is the field's value or
 * one of its block list items (`item`, with its index).
 */
export type FieldCursor = {
  componentPath: Segment[];
  componentType: string | undefined;
  field: string;
  prefix: { start: number; end: number; text: string };
  item: number | null;
};

/**
 * The last `key: value` of a one-level flow mapping open before the cursor
 * (`{type: DpathExtractor, field_path: [da` → field_path, `[da`), or null.
 */
export function flowFieldBefore(text: string): { field: string; value: string } | null {
  let open = -1;
  let depth = 0;
  for (let i = text.length - 1; i >= 0 && open < 0; i--) {
    const ch = text[i];
    if (ch === '}' || ch === ']') depth++;
    else if (ch === '[' && depth > 0) depth--;
    else if (ch === '{') {
      if (depth === 0) open = i;
      else depth--;
    }
  }
  if (open < 0 || text.slice(0, open).includes('{')) return null;
  // The entry after the last comma outside brackets.
  let entryStart = open + 1;
  let brackets = 0;
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '[') brackets++;
    else if (text[i] === ']') brackets--;
    else if (text[i] === ',' && brackets === 0) entryStart = i + 1;
  }
  const m = /^\s*([A-Za-z_$][\w-]*)\s*:\s+(.*)$/s.exec(text.slice(entryStart));
  return m ? { field: m[1], value: m[2] } : null;
}

/**
 * Where a field completion from the captured read applies: the value (or block list item) of a
 * field, also inside a one-level flow mapping (`extractor: {type: DpathExtractor, field_path: [`).
 * `typeAt` gives a component type for a source path.
 */
export function fieldCursorOf(cursor: CursorContext, typeAt: (path: Segment[]) => string | undefined): FieldCursor | null {
  const p = cursor.mapPath;
  if (cursor.position === 'value' && cursor.field) {
    const flow = cursor.prefix.text.startsWith('{') ? flowFieldBefore(cursor.prefix.text) : null;
    if (flow) {
      const componentPath = [...p, cursor.field];
      const prefix = { start: cursor.prefix.end - flow.value.length, end: cursor.prefix.end, text: flow.value };
      return { componentPath, componentType: typeAt(componentPath), field: flow.field, prefix, item: null };
    }
    return { componentPath: p, componentType: typeAt(p), field: cursor.field, prefix: cursor.prefix, item: null };
  }
  // A block list item: `- ` under the field (mapPath ends with the field and the item's index).
  if (
    cursor.position === 'key' &&
    cursor.inNewItem &&
    p.length >= 2 &&
    typeof p[p.length - 1] === 'number' &&
    typeof p[p.length - 2] === 'string'
  ) {
    const componentPath = p.slice(0, -2);
    return {
      componentPath,
      componentType: typeAt(componentPath),
      field: String(p[p.length - 2]),
      prefix: cursor.prefix,
      item: Number(p[p.length - 1]),
    };
  }
  return null;
}

/**
 * Items for a field whose values are keys of the captured read (field_path, cursor_field,
 * primary_key…); [] elsewhere or without a captured read. `written` is the field's current value.
 */
export function capturedFieldItems(
  doc: ManifestDocument,
  captured: CapturedReads | undefined,
  at: FieldCursor,
  written: unknown,
): CompletionItem[] {
  if (!captured?.has(doc.uri)) return [];
  const source = fieldSource(at.componentType, at.field);
  if (!source) return [];
  const place = capturedPlacesAt(doc, captured, at.componentPath)[0];
  if (!place) return [];
  const list = flowListBefore(at.prefix.text);
  // The steps written before the cursor: flow-list items, or the block items above this one.
  let path: string[] = list.items;
  if (at.item !== null && !list.open && Array.isArray(written) && !source.listOfLists) path = written.slice(0, at.item).map(String);
  if (!source.nested) path = [];
  const values = keySourceValues(doc, captured, place, source);
  const { keys, arrays } = keysAt(values, path, { wildcard: source.from === 'response' });
  const shown = [...keys];
  // Where the response holds a list, `*` selects every element (field_path only).
  if (source.from === 'response' && arrays > 0) shown.unshift({ key: '*', type: 'every element of the list', sample: null });
  // Inside a flow list only the partial item is replaced; otherwise the whole value typed so far, and
  // a list field written without its brackets yet gets them.
  let brackets = 0;
  if (!list.open)
    brackets =
      at.item === null ? (source.listOfLists ? 2 : source.nested && at.field !== 'primary_key' ? 1 : 0) : source.listOfLists ? 1 : 0;
  const range = spanToRange(doc.textDocument, list.open ? { start: at.prefix.end - list.partialLength, end: at.prefix.end } : at.prefix);
  return shown.map((k, i) => {
    const item = keyItem(k, i, place.streamName);
    if (k.key === '*') item.detail = `every element · ${arrays} list${arrays > 1 ? 's' : ''} in the last read`;
    item.filterText = k.key;
    item.textEdit = { range, newText: `${'['.repeat(brackets)}${yamlKey(k.key)}${']'.repeat(brackets)}` };
    return item;
  });
}

/** The captured values whose keys a field offers, latest first. */
function keySourceValues(doc: ManifestDocument, captured: CapturedReads, place: CapturedPlace, source: FieldSource): unknown[] {
  const pages = [...place.read.pages].reverse();
  if (source.from === 'response') return pages.flatMap((p) => decodedElements(place.stream, p));
  if (source.from === 'records') return pages.flatMap((p) => [...p.records].reverse());
  const parent = valueBelow(place.stream, [...place.path, 'stream']);
  const parentName =
    parent && typeof parent === 'object' && !Array.isArray(parent) ? streamNameOf(parent as Record<string, unknown>) : null;
  const parentRead = parentName ? captured.get(doc.uri, parentName) : undefined;
  const parentRecords = parentRead ? [...parentRead.pages].reverse().flatMap((p) => [...p.records].reverse()) : [];
  // partition_field names a key of the child's slices: the captured slices' keys first, then the parent's record keys.
  return source.from === 'partition' ? [...pages.map((p) => p.sliceDescriptor), ...parentRecords] : parentRecords;
}

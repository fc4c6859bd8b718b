// Computes the text edit that writes a test read's inferred schema into a stream's schema in the
// manifest: the InlineSchemaLoader's `schema` (following a "#/schemas/..." or "#/definitions/..."
// reference to the entry it names), or a new InlineSchemaLoader when the stream has none. Only the
// target node's text changes, so the rest of the file keeps its formatting and comments.
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { columnIn, lineEndIn, lineStartIn, spaceIndentOf } from './runtime';

/** An offset-based replacement (UTF-16 offsets into the text). */
export type OffsetEdit = { start: number; end: number; newText: string };

/** Thrown when the manifest shape leaves no safe place to write; the message says what to do. */
export class SchemaEditError extends Error {}

function refTarget(doc: Document.Parsed, node: unknown): unknown {
  // A "#/a/b" string or a { $ref: "#/a/b" } map points at another node of the same file.
  let ref: unknown;
  if (isScalar(node) && typeof node.value === 'string' && node.value.startsWith('#/')) ref = node.value;
  else if (isMap(node) && node.items.length === 1 && isScalar(node.items[0].key) && node.items[0].key.value === '$ref')
    ref = (node.items[0].value as { value?: unknown })?.value;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  return doc.getIn(ref.slice(2).split('/'), true);
}

function deref(doc: Document.Parsed, node: unknown): unknown {
  for (let hops = 0; hops < 10; hops++) {
    const next = refTarget(doc, node);
    if (next === undefined) return node;
    node = next;
  }
  return node;
}

function pairOf(map: YAMLMap, key: string): Pair<unknown, unknown> | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key) as Pair<unknown, unknown> | undefined;
}

function lineIndent(text: string, offset: number): number {
  const lineStart = lineStartIn(text, offset);
  return spaceIndentOf(text.slice(lineStart, lineEndIn(text, lineStart)));
}

function block(value: unknown, indent: number): string {
  const pad = ' '.repeat(indent);
  return stringify(value, { indent: 2, lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}

/** Replaces a value node by the schema: JSON inside a flow mapping, in place for a block collection, on new lines otherwise. */
function replaceValue(text: string, node: Node, keyOffset: number, schema: unknown, parentFlow: boolean): OffsetEdit {
  const start = node.range![0];
  // Block collections own their trailing line break; the replacement keeps it.
  const end = start + text.slice(start, node.range![1]).trimEnd().length;
  if (parentFlow) return { start, end, newText: JSON.stringify(schema) };
  const flow = (node as { flow?: boolean }).flow === true || isScalar(node);
  if (!flow && (isMap(node) || isSeq(node))) {
    const col = columnIn(text, start);
    return { start, end, newText: block(schema, col).slice(col) };
  }
  // The block starts on the next line; drop the spaces after the colon so no trailing blank remains.
  const from = text.slice(0, start).replace(/[ \t]+$/, '').length;
  return { start: from, end, newText: `\n${block(schema, lineIndent(text, keyOffset) + 2)}` };
}

/** The edit writing `schema` as the schema of stream `streamName`; throws SchemaEditError when it cannot. */
export function inferredSchemaEdit(text: string, streamName: string, schema: unknown): OffsetEdit {
  const doc = parseDocument(text, { keepSourceTokens: true });
  if (doc.errors.length > 0) throw new SchemaEditError('Fix the YAML errors in the manifest first.');
  const streams = doc.get('streams', true);
  if (!isSeq(streams)) throw new SchemaEditError('The manifest has no top-level streams list.');
  const stream = streams.items
    .map((s) => deref(doc, s))
    .find((s) => isMap(s) && (pairOf(s, 'name')?.value as { value?: unknown })?.value === streamName);
  if (!isMap(stream)) throw new SchemaEditError(`No stream named '${streamName}' in the manifest's streams list.`);
  const loaderPair = pairOf(stream, 'schema_loader');
  if (loaderPair) {
    const loader = deref(doc, loaderPair.value);
    if (!isMap(loader))
      throw new SchemaEditError(`The schema_loader of '${streamName}' is not a mapping; replace it with an InlineSchemaLoader first.`);
    const type = (pairOf(loader, 'type')?.value as { value?: unknown })?.value;
    if (type !== undefined && type !== 'InlineSchemaLoader')
      throw new SchemaEditError(`The stream '${streamName}' uses a ${String(type)}; only an InlineSchemaLoader's schema can be written.`);
    const schemaPair = pairOf(loader, 'schema');
    if (schemaPair) {
      const target = deref(doc, schemaPair.value) as Node;
      const owner = target === schemaPair.value ? { key: schemaPair.key as Node, map: loader } : findOwner(doc, target);
      return replaceValue(text, target, owner?.key.range?.[0] ?? target.range![0], schema, owner?.map.flow === true);
    }
    return insertPair(text, loader, 'schema', schema);
  }
  return insertPair(text, stream, 'schema_loader', { type: 'InlineSchemaLoader', schema });
}

/** The key and mapping that hold `target` (for the indentation and style of a referenced entry). */
function findOwner(doc: Document.Parsed, target: Node): { key: Node; map: YAMLMap } | undefined {
  let found: { key: Node; map: YAMLMap } | undefined;
  const visit = (n: unknown) => {
    if (found || !isMap(n)) {
      if (isSeq(n)) n.items.forEach(visit);
      return;
    }
    for (const p of n.items) {
      if (p.value === target) {
        found = { key: p.key as Node, map: n };
        return;
      }
      visit(p.value);
    }
  };
  visit(doc.contents);
  return found;
}

function insertPair(text: string, map: YAMLMap, key: string, value: unknown): OffsetEdit {
  if (map.flow || map.items.length === 0)
    throw new SchemaEditError(`Cannot add ${key} to a flow-style mapping; write the stream as a block mapping first.`);
  const firstKey = map.items[0].key as Node;
  const col = columnIn(text, firstKey.range![0]);
  const end = map.range![1];
  // Insert after the mapping's last value, before any trailing newline it owns.
  const at = text.slice(0, end).trimEnd().length;
  const pad = ' '.repeat(col);
  return { start: at, end: at, newText: `\n${pad}${key}:\n${block(value, col + 2)}` };
}

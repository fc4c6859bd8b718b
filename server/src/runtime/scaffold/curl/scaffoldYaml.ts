// Writes derived streams as YAML: a whole new manifest, or offset edits that add them to an existing
// manifest's text (streams appended under `streams:`, inputs under the spec's `properties`) without
// reformatting a line the author wrote. Comments from deriveStream.ts are written beside the values.
import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, type Node, type Pair } from 'yaml';
import { columnIn, nextLineStart } from '../../manifest/locator/lineText';
import { getComponent } from '../../schema/catalog';
import type { SpecInput } from './credentials';
import type { Comments, ScaffoldContext, StreamDraft } from './deriveStream';

/** Replace [start, end) (UTF-16 offsets) with newText. */
export type OffsetEdit = { start: number; end: number; newText: string };

const STRINGIFY = { lineWidth: 0, indent: 2, indentSeq: true } as const;

/** What an existing manifest already has that a new stream can reuse. Never throws. */
export function scaffoldContextOf(text: string | undefined): ScaffoldContext {
  const context: ScaffoldContext = { urlBases: [], inputs: new Set(), streamNames: new Set() };
  if (!text) return context;
  const value = parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: 100 }) as unknown;
  const walk = (v: unknown, path: string[]) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, String(i)]));
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.url_base === 'string' && !o.url_base.includes('{'))
        context.urlBases.push({ value: o.url_base, where: path.join('.') || 'the manifest' });
      if (o.type === 'DeclarativeStream' && typeof o.name === 'string') context.streamNames.add(o.name);
      for (const [k, x] of Object.entries(o)) walk(x, [...path, k]);
    }
  };
  walk(value, []);
  const properties = (value as { spec?: { connection_specification?: { properties?: unknown } } } | null)?.spec?.connection_specification
    ?.properties;
  if (properties && typeof properties === 'object') for (const k of Object.keys(properties)) context.inputs.add(k);
  return context;
}

/** A whole manifest holding the streams (the first one is the check stream). */
export function newManifestText(drafts: StreamDraft[], origin: string): string {
  const version = String(getComponent('DeclarativeSource')?.fields.version?.example ?? '6.44.0');
  const inputs = drafts.flatMap((d) => d.inputs);
  const doc = new Document({
    version,
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: [drafts[0].name] },
    streams: drafts.map((d) => d.stream),
    spec: { type: 'Spec', connection_specification: specSchema(inputs) },
  });
  doc.commentBefore = ` Started from ${origin}. Each value says what it was inferred from; check them against the API's documentation.`;
  drafts.forEach((d, i) => applyComments(doc, d.comments, ['streams', i]));
  applyComments(doc, inputComments(inputs), ['spec', 'connection_specification', 'properties']);
  return doc.toString(STRINGIFY);
}

/** Edits adding the streams and their inputs to `text`; the result keeps every existing line. */
export function addStreamsEdits(text: string, drafts: StreamDraft[]): OffsetEdit[] {
  const doc = parseDocument(text, { uniqueKeys: false });
  const edits: OffsetEdit[] = [];
  const streamsText = (indent: number) =>
    indentLines(
      render(
        drafts.map((d) => d.stream),
        drafts.flatMap((d, i) => prefix(d.comments, [i])),
      ),
      indent,
    );
  const streams = doc.get('streams', true) as Node | undefined;
  if (isSeq(streams) && streams.items.length > 0 && !streams.flow) {
    const first = streams.items[0] as Node;
    const start = first.range![0];
    edits.push(insertAfter(text, streams.range![1], streamsText(dashColumn(text, start))));
  } else if (streams && streams.range) {
    edits.push(replaceValue(text, streams.range, streamsText(2)));
  } else {
    edits.push(appendAtEnd(text, `streams:\n${streamsText(2)}`));
  }

  const inputs = drafts.flatMap((d) => d.inputs);
  if (inputs.length) edits.push(...inputEdits(text, doc, inputs));
  return edits.sort((a, b) => a.start - b.start);
}

/** Applies non-overlapping edits (sorted or not). */
export function applyOffsetEdits(text: string, edits: OffsetEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

function inputEdits(text: string, doc: Document, inputs: SpecInput[]): OffsetEdit[] {
  const spec = doc.getIn(['spec', 'connection_specification'], true) as Node | undefined;
  const propertiesText = (indent: number) => indentLines(render(specProperties(inputs), inputComments(inputs)), indent);
  if (!isMap(spec) || spec.flow)
    return isMap(doc.get('spec', true))
      ? []
      : [
          appendAtEnd(
            text,
            render(
              { spec: { type: 'Spec', connection_specification: specSchema(inputs) } },
              prefix(inputComments(inputs), ['spec', 'connection_specification', 'properties']),
            ),
          ),
        ];
  const edits: OffsetEdit[] = [];
  const properties = spec.get('properties', true) as Node | undefined;
  const keyColumn = columnOf(text, (spec.items[0].key as Node).range![0]);
  if (isMap(properties) && !properties.flow && properties.items.length > 0) {
    edits.push(insertAfter(text, properties.range![1], propertiesText(columnOf(text, (properties.items[0].key as Node).range![0]))));
  } else if (properties?.range) {
    edits.push(replaceValue(text, properties.range, propertiesText(keyColumn + 2)));
  } else {
    edits.push(insertAfter(text, spec.range![1], indentLines(`properties:\n${propertiesText(2)}`, keyColumn)));
  }
  // A flow `required: [...]` list is rewritten with the new inputs at its end; a block list gets lines.
  const required = spec.get('required', true) as Node | undefined;
  const names = inputs.map((i) => i.key);
  if (isSeq(required) && required.flow) {
    const old = required.items.map((n) => (isScalar(n) ? String(n.value) : '')).filter(Boolean);
    edits.push({ start: required.range![0], end: required.range![1], newText: `[${[...old, ...names].join(', ')}]` });
  } else if (isSeq(required) && required.items.length > 0) {
    const dash = dashColumn(text, (required.items[0] as Node).range![0]);
    edits.push(insertAfter(text, required.range![1], names.map((n) => `${' '.repeat(dash)}- ${n}\n`).join('')));
  }
  return edits;
}

function specSchema(inputs: SpecInput[]): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: inputs.map((i) => i.key),
    properties: specProperties(inputs),
    additionalProperties: true,
  };
}

function specProperties(inputs: SpecInput[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  inputs.forEach((i, order) => {
    out[i.key] = { type: 'string', title: i.title, order, ...(i.secret ? { airbyte_secret: true } : {}) };
  });
  return out;
}

const inputComments = (inputs: SpecInput[]): Comments => inputs.map((i) => ({ path: [i.key], text: `from ${i.comment}` }));
const prefix = (comments: Comments, head: (string | number)[]): Comments =>
  comments.map((c) => ({ path: [...head, ...c.path], text: c.text }));

function render(value: unknown, comments: Comments): string {
  const doc = new Document(value);
  applyComments(doc, comments, []);
  return doc.toString(STRINGIFY);
}

/** Puts each comment after a scalar value, or above the key of a collection value. */
function applyComments(doc: Document, comments: Comments, head: (string | number)[]): void {
  for (const c of comments) {
    const path = [...head, ...c.path];
    const parent = doc.getIn(path.slice(0, -1), true);
    if (!isMap(parent)) continue;
    const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === path[path.length - 1]) as
      | Pair<unknown, unknown>
      | undefined;
    if (!pair) continue;
    if (isScalar(pair.value) && !pair.value.comment) pair.value.comment = ` ${c.text}`;
    else {
      const key = isScalar(pair.key) ? pair.key : new Scalar(pair.key);
      key.commentBefore = key.commentBefore ? `${key.commentBefore}\n ${c.text}` : ` ${c.text}`;
      pair.key = key;
    }
  }
}

function indentLines(block: string, indent: number): string {
  const pad = ' '.repeat(indent);
  return block
    .split('\n')
    .map((l) => (l ? pad + l : l))
    .join('\n')
    .replace(/\n*$/, '\n');
}

/** Replaces a flow value (`[]`, `{}`) by a block that starts on the next line. */
function replaceValue(text: string, range: [number, number, number], block: string): OffsetEdit {
  let start = range[0];
  while (start > 0 && text[start - 1] === ' ') start--;
  return { start, end: range[1], newText: `\n${block.replace(/\n$/, '')}` };
}

/** Inserts a block of lines after the line where a node ends (a newline first at the end of a file without one). */
function insertAfter(text: string, end: number, block: string): OffsetEdit {
  const at = afterLine(text, end);
  return { start: at, end: at, newText: at === text.length && text !== '' && !text.endsWith('\n') ? `\n${block}` : block };
}

/** The offset just after the line holding offset-1 (a node's end). */
function afterLine(text: string, end: number): number {
  if (end > 0 && text[end - 1] === '\n') return end;
  return nextLineStart(text, end);
}

function columnOf(text: string, offset: number): number {
  return columnIn(text, offset);
}

function dashColumn(text: string, itemStart: number): number {
  const dash = text.lastIndexOf('-', itemStart);
  return dash === -1 ? 2 : columnOf(text, dash);
}

function appendAtEnd(text: string, block: string): OffsetEdit {
  return { start: text.length, end: text.length, newText: `${text.endsWith('\n') || text === '' ? '' : '\n'}${block}` };
}

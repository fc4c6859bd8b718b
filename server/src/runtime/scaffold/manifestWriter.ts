// Writes a ConnectorDraft as manifest YAML in the Connector Builder's layout (streams under
// `definitions.streams`, one shared requester, record schemas under `schemas`), with each guess's
// reason as a comment above the key it explains. Shared by every scaffolder; never throws on a draft.
import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import { allComponents } from '../schema/catalog';
import { compareVersions, parseVersion } from '../schema/versions';
import type { ConnectorDraft, SpecInput, StreamDraft } from './connectorDraft';

/** The reference a component uses to name a stream of the draft (a parent stream, say). */
export function streamRef(name: string): { $ref: string } {
  return { $ref: `#/definitions/streams/${name}` };
}

type Note = { path: (string | number)[]; why: string };

/** The manifest text for `draft`. */
export function writeManifest(draft: ConnectorDraft): string {
  const notes: Note[] = [];
  const note = (path: (string | number)[], why: string | undefined) => {
    if (why) notes.push({ path, why });
  };
  // Each stream's requester has the full `url` (`url_base` + `path` is deprecated); the base URL's
  // reason is said once, in the header.
  const requester: Record<string, unknown> = { type: 'HttpRequester' };
  if (draft.authenticator) {
    requester.authenticator = draft.authenticator.value;
    note(['definitions', 'base_requester', 'authenticator'], draft.authenticator.why);
  }
  if (draft.requestHeaders) {
    requester.request_headers = draft.requestHeaders.value;
    note(['definitions', 'base_requester', 'request_headers'], draft.requestHeaders.why);
  }
  if (draft.requestParameters) {
    requester.request_parameters = draft.requestParameters.value;
    note(['definitions', 'base_requester', 'request_parameters'], draft.requestParameters.why);
  }
  const streams: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const s of draft.streams) {
    streams[s.name] = streamComponent(s, draft.urlBase.value, (path, why) => note(['definitions', 'streams', s.name, ...path], why));
    note(['definitions', 'streams', s.name], s.origin);
    if (s.schema) {
      schemas[s.name] = s.schema.value;
      note(['schemas', s.name], s.schema.why);
    }
  }
  const manifest: Record<string, unknown> = {
    version: latestCdkVersion(),
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: draft.checkStreams ?? draft.streams.slice(0, 1).map((s) => s.name) },
    definitions: { base_requester: requester, streams },
    streams: draft.streams.map((s) => streamRef(s.name)),
    spec: specComponent(draft.inputs, note),
  };
  if (Object.keys(schemas).length > 0) manifest.schemas = schemas;
  const doc = new Document(manifest);
  for (const n of notes) attachComment(doc, n.path, n.why);
  const header = [...draft.header, `Base URL ${draft.urlBase.value}: from ${draft.urlBase.why}.`];
  doc.commentBefore = header.map((l) => ` ${oneLine(l)}`).join('\n');
  return doc.toString({ lineWidth: 0 });
}

function streamComponent(
  s: StreamDraft,
  urlBase: string,
  note: (path: (string | number)[], why: string | undefined) => void,
): Record<string, unknown> {
  const url = `${urlBase.replace(/\/+$/, '')}/${s.path.replace(/^\/+/, '')}`;
  const requester: Record<string, unknown> = { $ref: '#/definitions/base_requester', url, http_method: s.httpMethod };
  if (s.requestParameters && Object.keys(s.requestParameters.value).length > 0) {
    requester.request_parameters = s.requestParameters.value;
    note(['retriever', 'requester', 'request_parameters'], s.requestParameters.why);
  }
  const retriever: Record<string, unknown> = {
    type: 'SimpleRetriever',
    requester,
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: s.fieldPath.value } },
  };
  note(['retriever', 'record_selector', 'extractor', 'field_path'], s.fieldPath.why);
  if (s.paginator) {
    retriever.paginator = s.paginator.value;
    note(['retriever', 'paginator'], s.paginator.why);
  }
  if (s.partitionRouter) {
    retriever.partition_router = s.partitionRouter.value;
    note(['retriever', 'partition_router'], s.partitionRouter.why);
  }
  const stream: Record<string, unknown> = { type: 'DeclarativeStream', name: s.name };
  if (s.primaryKey) {
    stream.primary_key = s.primaryKey.value;
    note(['primary_key'], s.primaryKey.why);
  }
  stream.retriever = retriever;
  if (s.incrementalSync) {
    stream.incremental_sync = s.incrementalSync.value;
    note(['incremental_sync'], s.incrementalSync.why);
  }
  if (s.schema) stream.schema_loader = { type: 'InlineSchemaLoader', schema: { $ref: `#/schemas/${s.name}` } };
  return stream;
}

function specComponent(inputs: SpecInput[], note: (path: (string | number)[], why: string | undefined) => void): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  inputs.forEach((input, order) => {
    const p: Record<string, unknown> = { type: input.type, title: input.title };
    if (input.description) p.description = input.description;
    if (input.format) p.format = input.format;
    if (input.enum) p.enum = input.enum;
    if (input.default !== undefined) p.default = input.default;
    if (input.secret) p.airbyte_secret = true;
    p.order = order;
    properties[input.name] = p;
    note(['spec', 'connection_specification', 'properties', input.name], input.why);
  });
  return {
    type: 'Spec',
    connection_specification: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: inputs.filter((i) => i.required).map((i) => i.name),
      properties,
      additionalProperties: true,
    },
  };
}

/** Puts `why` as a comment above the key (or list item) at `path`; a path not in the document is skipped. */
function attachComment(doc: Document, path: (string | number)[], why: string): void {
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  let target: Node | null = null;
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
    if (pair && isScalar(pair.key)) target = pair.key;
  } else if (isSeq(parent) && typeof last === 'number') {
    target = (parent.items[last] as Node | undefined) ?? null;
  }
  if (!target) return;
  const line = ` ${oneLine(why)}`;
  target.commentBefore = target.commentBefore ? `${target.commentBefore}\n${line}` : line;
}

/** Text from a document (a summary, a parameter name) on one comment line. */
function oneLine(text: string): string {
  const flat = text
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

let latest: string | undefined;
/** The newest CDK version the component catalog knows, written as the manifest's `version`. */
export function latestCdkVersion(): string {
  if (latest) return latest;
  let best: string | undefined;
  const consider = (v: unknown) => {
    const parsed = typeof v === 'string' ? parseVersion(v) : undefined;
    if (parsed && (!best || compareVersions(parsed, parseVersion(best)!) > 0)) best = v as string;
  };
  for (const c of allComponents()) {
    consider(c.addedIn);
    for (const f of Object.values(c.fields)) consider(f.addedIn);
  }
  latest = best ?? '6.44.0';
  return latest;
}

// From an OpenAPI document and the operations the author picked to a manifest: one stream per
// operation, the connector-wide parts from inferConnection.ts, each stream's parts from the infer*
// modules, parents for path parameters another picked operation lists. Never throws.
import { basename } from 'node:path';
import { addInput, configRef, type ConnectorDraft, type SpecInput, type StreamDraft } from '../connectorDraft';
import { streamRef, writeManifest } from '../manifestWriter';
import { inferAuthentication, inferBaseUrl, safeKey } from './inferConnection';
import { inferIncremental } from './inferIncremental';
import { inferPaginator } from './inferPaginator';
import { dereferenceOpenApi, loadOpenApi, type OpenApiDocument, type OpenApiLoadError } from './loadOpenApi';
import { listOperations, obj, operationKey, type ApiOperation } from './operations';
import { primaryKeyOf, properties, recordShape, toRecordSchema, type RecordShape } from './recordSchema';

export type ScaffoldOptions = {
  /** `GET /users` as written under `paths`; none: every GET whose response is a list. */
  operations?: string[];
};

export type ScaffoldResult = { ok: true; manifest: string; streams: string[]; inputs: string[] } | { ok: false; error: OpenApiLoadError };

/** Reads, dereferences and scaffolds `text` (the content of `fileName`). Never throws. */
export async function scaffoldOpenApi(text: string, fileName: string, options: ScaffoldOptions = {}): Promise<ScaffoldResult> {
  const loaded = await loadOpenApi(text, fileName);
  if (!loaded.ok) return loaded;
  return scaffoldDocument(loaded.doc, fileName, options);
}

/** Scaffolds an already parsed (not yet dereferenced) document object. Never throws. */
export async function scaffoldOpenApiObject(value: unknown, fileName: string, options: ScaffoldOptions = {}): Promise<ScaffoldResult> {
  const loaded = await dereferenceOpenApi(value, fileName);
  if (!loaded.ok) return loaded;
  return scaffoldDocument(loaded.doc, fileName, options);
}

/** An operation as the editor's picker lists it. */
export type OperationChoice = { key: string; method: string; path: string; summary?: string; tags: string[]; returnsList: boolean };

/** The operations of a dereferenced document, for a picker. */
export function operationChoices(doc: OpenApiDocument): OperationChoice[] {
  return listOperations(doc).map((op) => ({
    key: operationKey(op),
    method: op.method,
    path: op.path,
    summary: op.summary,
    tags: op.tags,
    returnsList: op.method === 'GET' && recordShape(op.responseSchema, resourceOf(op.path), endsWithParam(op.path)).isList,
  }));
}

type Planned = {
  op: ApiOperation;
  name: string;
  resource: string;
  shape: RecordShape;
  primaryKey?: { key: string; why: string };
  parent?: Parent;
};
type Parent = { param: string; of: Planned; key: string };

/** Scaffolds a dereferenced document. Never throws. */
export function scaffoldDocument(doc: OpenApiDocument, fileName: string, options: ScaffoldOptions = {}): ScaffoldResult {
  const file = basename(fileName);
  const all = listOperations(doc);
  let picked: ApiOperation[];
  if (options.operations && options.operations.length > 0) {
    picked = [];
    for (const wanted of options.operations) {
      const m = /^\s*([A-Za-z]+)\s+(\S.*?)\s*$/.exec(wanted);
      const op = m ? all.find((o) => o.method === m[1].toUpperCase() && o.path === m[2]) : undefined;
      if (!op) {
        const known = all.map(operationKey);
        const hint = known.length
          ? ` The document has: ${known.slice(0, 8).join(', ')}${known.length > 8 ? ` and ${known.length - 8} more` : ''}.`
          : '';
        return {
          ok: false,
          error: {
            where: file,
            message: `no operation "${wanted}" under \`paths\`: name it as METHOD and the path exactly as written (e.g. "GET /users").${hint}`,
          },
        };
      }
      if (op.method !== 'GET' && op.method !== 'POST') {
        return {
          ok: false,
          error: {
            where: file,
            message: `"${wanted}" is a ${op.method}: a stream reads records with GET (or POST, for search endpoints).`,
          },
        };
      }
      if (!picked.includes(op)) picked.push(op);
    }
  } else {
    picked = all.filter((op) => op.method === 'GET' && recordShape(op.responseSchema, resourceOf(op.path), endsWithParam(op.path)).isList);
    if (picked.length === 0) {
      return {
        ok: false,
        error: { where: file, message: `no GET operation of the document returns a list: pick operations with --operation "GET /path".` },
      };
    }
  }

  const inputs: SpecInput[] = [];
  const urlBase = inferBaseUrl(doc, inputs);
  const auth = inferAuthentication(doc, picked, urlBase.value, inputs);
  const taken = new Set<string>();
  const planned: Planned[] = picked.map((op) => {
    const resource = resourceOf(op.path);
    const shape = recordShape(op.responseSchema, resource, endsWithParam(op.path));
    return { op, resource, shape, name: '', primaryKey: primaryKeyOf(shape.item, resource) };
  });
  // Top-level collections name themselves first: `/podcasts` is "podcasts", `/categories/{id}/podcasts` then "categories_podcasts".
  const byDepth = [...planned].sort((a, b) => paramCount(a.op.path) - paramCount(b.op.path));
  for (const p of byDepth) p.name = uniqueName(streamNameCandidates(p.op), taken);
  // The validator resolves at most 300,000 values (a parent stream is resolved again inside each
  // child): schemas of a document with hundreds of streams share a budget well under that.
  for (const p of planned) p.parent = findParent(p, planned);
  const weight = planned.reduce((sum, p) => sum + 1 + ancestors(p), 0);
  if (weight * STREAM_VALUES > MAX_VALUES) {
    return {
      ok: false,
      error: {
        where: file,
        message: `${planned.length} operations picked (${weight} streams to resolve, counting parents): more than a manifest can hold. Pick fewer with --operation "GET /path".`,
      },
    };
  }
  const schemaNodes = Math.floor((MAX_VALUES / weight - STREAM_VALUES) / VALUES_PER_NODE);
  const streams = planned.map((p) => streamDraft(p, planned, inputs, schemaNodes));
  const info = obj(doc.api.info);
  const title = typeof info.title === 'string' ? info.title : 'an API';
  const declared = doc.version === 2 ? 'Swagger 2.0' : `OpenAPI ${String(doc.api.openapi)}`;
  const draft: ConnectorDraft = {
    header: [
      `Scaffolded from ${file}: ${title}${typeof info.version === 'string' && info.version ? ` ${info.version}` : ''} (${declared}).`,
      "The comment above a key says what it was inferred from: check each against the API's documentation",
      '(docs/scaffold.md lists what is inferred and what to check).',
    ],
    urlBase,
    authenticator: auth.authenticator,
    requestHeaders: auth.headers,
    requestParameters: auth.parameters,
    inputs,
    streams,
    checkStreams: [(streams.find((s) => !s.partitionRouter) ?? streams[0]).name],
  };
  return { ok: true, manifest: writeManifest(draft), streams: streams.map((s) => s.name), inputs: inputs.map((i) => i.name) };
}

// Budget of the values the validator resolves (its cap is 300,000): about 60 per stream without its
// schema, about 3 per schema node; a parent is resolved again inside each child.
const MAX_VALUES = 240_000;
const STREAM_VALUES = 60;
const VALUES_PER_NODE = 3;

function ancestors(p: Planned): number {
  let n = 0;
  for (let q = p.parent?.of; q && n < 50; q = q.parent?.of) n++;
  return n;
}

/** The last path parameter another picked operation lists: that operation becomes the parent. */
function findParent(p: Planned, planned: Planned[]): Parent | undefined {
  const { op } = p;
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  for (const param of [...pathParams].reverse()) {
    const prefix = op.path.slice(0, op.path.indexOf(`{${param}}`)).replace(/\/+$/, '');
    const of = planned.find((q) => q !== p && q.op.method === 'GET' && q.op.path === prefix && q.shape.isList);
    if (!of) continue;
    const itemProps = Object.keys(properties(of.shape.item ?? {}));
    const key = of.primaryKey?.key ?? (itemProps.includes(param) ? param : undefined);
    if (key) return { param, of, key };
  }
  return undefined;
}

function streamDraft(p: Planned, planned: Planned[], inputs: SpecInput[], schemaNodes: number): StreamDraft {
  const { op, shape } = p;
  const { paginator, consumed } = inferPaginator(op, shape.isList, p.primaryKey?.key);
  const incremental = shape.isList ? inferIncremental(op, shape.item, inputs) : { consumed: [] };
  const parent = p.parent;
  const path = op.path.replace(/\{([^}]+)\}/g, (_, param: string) => {
    if (parent && param === parent.param) return `{{ stream_partition.${safeKey(param)} }}`;
    return configRef(
      addInput(inputs, {
        name: safeKey(param),
        title: param,
        type: 'string',
        required: true,
        why: `path parameter {${param}} of ${operationKey(op)}${planned.length > 1 ? ' (no picked operation lists it)' : ''}`,
      }),
    );
  });
  // Required query parameters nothing else sets: their default (or first allowed value), else an input.
  const params: Record<string, string> = {};
  const reasons: string[] = [];
  for (const q of op.parameters) {
    if (q.in !== 'query' || !q.required || consumed.includes(q.name) || incremental.consumed.includes(q.name)) continue;
    const fixed = q.schema.default ?? (Array.isArray(q.schema.enum) ? q.schema.enum[0] : undefined);
    if (fixed !== undefined && fixed !== null && typeof fixed !== 'object') {
      params[q.name] = String(fixed).replace(/\{\{|\{%/g, '{ {');
      reasons.push(`${q.name}: its ${q.schema.default !== undefined ? 'default' : 'first allowed value'}`);
    } else {
      params[q.name] = configRef(
        addInput(inputs, {
          name: safeKey(q.name),
          title: q.name,
          type: 'string',
          required: true,
          why: `required query parameter "${q.name}" of ${operationKey(op)}`,
        }),
      );
      reasons.push(`${q.name}: an input`);
    }
  }
  const draft: StreamDraft = {
    name: p.name,
    origin: `${operationKey(op)}${op.operationId ? ` (${op.operationId})` : ''}${op.summary ? `: ${op.summary}` : ''}`,
    path,
    httpMethod: op.method === 'POST' ? 'POST' : 'GET',
    fieldPath: { value: shape.fieldPath, why: `${shape.fieldPathWhy}${op.responseWhere ? ` (response ${op.responseWhere})` : ''}` },
    paginator,
    incrementalSync: incremental.cursor,
  };
  if (Object.keys(params).length > 0) draft.requestParameters = { value: params, why: `required query parameters (${reasons.join('; ')})` };
  if (p.primaryKey) draft.primaryKey = { value: [p.primaryKey.key], why: p.primaryKey.why };
  if (shape.item && Object.keys(shape.item).length > 0 && schemaNodes >= 1) {
    draft.schema = {
      value: toRecordSchema(shape.item, schemaNodes),
      why: `${p.name}: the record schema of ${operationKey(op)}, dereferenced (check which fields can be null)`,
    };
  }
  if (parent) {
    draft.partitionRouter = {
      why: `path parameter {${parent.param}} takes the "${parent.key}" of each ${parent.of.name} record (${operationKey(parent.of.op)} is picked too)`,
      value: {
        type: 'SubstreamPartitionRouter',
        parent_stream_configs: [
          { type: 'ParentStreamConfig', stream: streamRef(parent.of.name), parent_key: parent.key, partition_field: safeKey(parent.param) },
        ],
      },
    };
  }
  return draft;
}

function paramCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}

function endsWithParam(path: string): boolean {
  return /\{[^}]+\}\/?$/.test(path);
}

/** The path's last fixed word: `users` for `/orgs/{org}/users/{id}`. */
function resourceOf(path: string): string {
  const words = path.split('/').filter((s) => s && !s.includes('{'));
  return words[words.length - 1] ?? 'records';
}

const NOISE = /^(api|rest|v\d+(\.\d+)*|\d+(\.\d+)*)$/i;

/**
 * Names for the stream of `op`, shortest first: the path's last fixed word (`activity_log_alerts`),
 * then with the words before it, for when an earlier operation took the shorter name.
 */
function streamNameCandidates(op: ApiOperation): string[] {
  const segments = op.path.split('/').filter(Boolean);
  const words = segments.filter((s) => !s.includes('{') && !NOISE.test(s)).map((s) => safeKey(s.replace(/\.json$/i, '')));
  const last = segments[segments.length - 1];
  const suffix =
    (last && /^\{[^}]+\}$/.test(last) ? `_by_${safeKey(last.slice(1, -1))}` : '') +
    (op.method !== 'GET' ? `_${op.method.toLowerCase()}` : '');
  const out: string[] = [];
  for (let n = 1; n <= Math.max(1, words.length); n++) {
    const base = words.slice(-n).join('_') || (op.operationId ? safeKey(op.operationId) : 'records');
    out.push(`${base}${suffix}`.slice(0, 64).replace(/_+$/, ''));
  }
  if (op.operationId) out.push(safeKey(op.operationId).slice(0, 64));
  return out;
}

function uniqueName(candidates: string[], taken: Set<string>): string {
  let name = candidates.find((c) => !taken.has(c));
  if (!name) for (let i = 2; taken.has((name = `${candidates[0]}_${i}`)); i++);
  taken.add(name);
  return name;
}

// The operations of a dereferenced OpenAPI 3 or Swagger 2 document in one shape: method, path,
// parameters with a JSON schema each, the JSON schema of the success response and its headers.
// Swagger 2's and OpenAPI 3's differences end here.
import type { OpenApiDocument } from './loadOpenApi';

export type ApiParameter = {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie' | 'body' | 'formData';
  required: boolean;
  schema: Record<string, unknown>;
};

export type ApiOperation = {
  /** Upper case: `GET`. */
  method: string;
  /** As written under `paths`. */
  path: string;
  operationId?: string;
  summary?: string;
  tags: string[];
  parameters: ApiParameter[];
  /** The JSON schema of the first 2xx JSON response; undefined when there is none. */
  responseSchema?: Record<string, unknown>;
  /** Which response the schema came from (`200 application/json`). */
  responseWhere?: string;
  /** Lower-cased names of the success response's headers. */
  responseHeaders: string[];
  /** The security requirements in force (the operation's or the document's). */
  security?: Record<string, string[]>[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation, in document order. Never throws on a malformed path item (skips what is not an object). */
export function listOperations(doc: OpenApiDocument): ApiOperation[] {
  const api = doc.api;
  const paths = obj(api.paths);
  const out: ApiOperation[] = [];
  const globalSecurity = Array.isArray(api.security) ? (api.security as Record<string, string[]>[]) : undefined;
  for (const [path, itemValue] of Object.entries(paths)) {
    const item = obj(itemValue);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op !== 'object') continue;
      const o = op as Record<string, unknown>;
      const own = Array.isArray(o.parameters) ? o.parameters : [];
      const parameters = mergeParameters(shared, own, doc.version);
      const response = successResponse(obj(o.responses), doc.version, obj(api).produces, o.produces);
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: typeof o.operationId === 'string' ? o.operationId : undefined,
        summary: typeof o.summary === 'string' ? o.summary : undefined,
        tags: Array.isArray(o.tags) ? o.tags.filter((t): t is string => typeof t === 'string') : [],
        parameters,
        responseSchema: response?.schema,
        responseWhere: response?.where,
        responseHeaders: response?.headers ?? [],
        security: Array.isArray(o.security) ? (o.security as Record<string, string[]>[]) : globalSecurity,
      });
    }
  }
  return out;
}

/** `GET /users`: how the CLI's `--operation` and the editor name an operation. */
export function operationKey(op: Pick<ApiOperation, 'method' | 'path'>): string {
  return `${op.method} ${op.path}`;
}

function mergeParameters(shared: unknown[], own: unknown[], version: 2 | 3): ApiParameter[] {
  const byKey = new Map<string, ApiParameter>();
  for (const raw of [...shared, ...own]) {
    const p = obj(raw);
    if (typeof p.name !== 'string' || typeof p.in !== 'string') continue;
    // Swagger 2 writes the type on the parameter itself; OpenAPI 3 in `schema` (or `content`).
    let schema: Record<string, unknown>;
    if (version === 2 && p.in !== 'body') schema = pick(p, ['type', 'format', 'enum', 'default', 'minimum', 'maximum', 'items']);
    else if (p.schema) schema = obj(p.schema);
    else schema = obj(Object.values(obj(p.content))[0] && obj(Object.values(obj(p.content))[0]).schema);
    byKey.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in as ApiParameter['in'],
      required: p.required === true || p.in === 'path',
      schema,
    });
  }
  return [...byKey.values()];
}

function successResponse(
  responses: Record<string, unknown>,
  version: 2 | 3,
  docProduces: unknown,
  opProduces: unknown,
): { schema?: Record<string, unknown>; where: string; headers: string[] } | undefined {
  const codes = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  // 200 before 201 and 2XX; `default` only when no success code is written.
  const code = codes[0] ?? (responses.default ? 'default' : undefined);
  if (!code) return undefined;
  const r = obj(responses[code]);
  const headers = Object.keys(obj(r.headers)).map((h) => h.toLowerCase());
  if (version === 2) {
    const produces = (Array.isArray(opProduces) ? opProduces : Array.isArray(docProduces) ? docProduces : ['application/json']) as string[];
    const json = produces.length === 0 || produces.some((m) => typeof m === 'string' && /json|\*\/\*/i.test(m));
    return { schema: json && r.schema ? obj(r.schema) : undefined, where: `${code}`, headers };
  }
  const content = obj(r.content);
  const media = Object.keys(content);
  const chosen =
    media.find((m) => /^application\/json\b/i.test(m)) ?? media.find((m) => /[/+]json\b/i.test(m)) ?? media.find((m) => m === '*/*');
  const schema = chosen ? obj(content[chosen]).schema : undefined;
  return { schema: schema ? obj(schema) : undefined, where: `${code}${chosen ? ` ${chosen}` : ''}`, headers };
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** The value as an object, or an empty one (documents are untrusted: anything may be anything). */
export function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

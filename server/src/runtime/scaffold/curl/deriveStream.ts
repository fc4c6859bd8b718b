// RequestSketch → the parts of a declarative stream: url_base and path, method, authenticator and its
// inputs, request headers, parameters and body, record selector, primary key and schema. Every value
// carries a comment saying what it was inferred from (see scaffoldYaml.ts for how they are written).
import { planCredentials, type SpecInput } from './credentials';
import { guessRecords } from './recordGuess';
import type { RequestSketch } from './requestSketch';

/** A path in the stream object → the comment written beside it. */
export type Comments = { path: (string | number)[]; text: string }[];

/** One derived stream, with the inputs it needs and why each value is what it is. */
export type StreamDraft = { name: string; stream: Record<string, unknown>; inputs: SpecInput[]; comments: Comments };

/** What the manifest the stream goes to already has. */
export type ScaffoldContext = {
  /** Literal url_base values already in the manifest, with where they are ("definitions.base_requester"). */
  urlBases: { value: string; where: string }[];
  /** Input names already in the spec. */
  inputs: Set<string>;
  /** Stream names already used. */
  streamNames: Set<string>;
};

// Headers a browser or curl adds by itself; a declarative requester must not pin them.
const TRANSPORT_HEADERS =
  /^(:.*|host|content-length|connection|accept-encoding|user-agent|sec-.*|priority|pragma|cache-control|origin|referer|dnt|upgrade-insecure-requests|te|keep-alive|if-none-match|if-modified-since)$/i;

/** Derives one stream. Never throws. */
export function deriveStream(request: RequestSketch, context: ScaffoldContext): StreamDraft {
  const comments: Comments = [];
  const at = (path: (string | number)[], text: string) => comments.push({ path, text });
  const req = ['retriever', 'requester'];
  const { urlBase, path, urlBaseWhy, reused } = splitUrl(request.url, context.urlBases);
  const name = uniqueName(streamNameFor(path), context.streamNames);
  context.streamNames.add(name);

  const plan = planCredentials(request, (key) => context.inputs.has(key));
  for (const i of plan.inputs) context.inputs.add(i.key);
  // A url_base the manifest already has is reused in its own style (url_base + path); otherwise the
  // whole endpoint goes in `url`, the field the CDK prefers.
  const requester: Record<string, unknown> = reused
    ? { type: 'HttpRequester', url_base: urlBase, path }
    : { type: 'HttpRequester', url: request.url };
  if (reused) {
    at([...req, 'url_base'], urlBaseWhy);
    at([...req, 'path'], `rest of the URL in ${request.origin}`);
  } else at([...req, 'url'], `URL of ${request.origin}, without its query`);
  requester.http_method = request.method;
  at([...req, 'http_method'], `method of ${request.origin}`);
  if (plan.authenticator) {
    requester.authenticator = plan.authenticator;
    at([...req, 'authenticator'], `from the ${plan.authenticatorComment}`);
  }

  const headers: Record<string, string> = Object.create(null);
  const jsonBody = parseJsonObject(request.body);
  request.headers.forEach(([h, v], i) => {
    if (plan.consumedHeaders.has(i) || TRANSPORT_HEADERS.test(h)) return;
    // A JSON object body makes the CDK send this header itself.
    if (jsonBody && /^content-type$/i.test(h) && /^application\/json\b/i.test(v)) return;
    const templated = plan.headerTemplates.get(i);
    headers[h] = templated?.value ?? v;
    at([...req, 'request_headers', h], templated?.comment ?? `header of ${request.origin}`);
  });
  if (Object.keys(headers).length) requester.request_headers = headers;

  const params: Record<string, string> = Object.create(null);
  request.query.forEach(([k, v], i) => {
    if (plan.consumedQuery.has(i)) return;
    if (Object.hasOwn(params, k)) {
      at([...req, 'request_parameters', k], `${request.origin} repeats ${k}; only its first value is kept`);
      return;
    }
    const templated = plan.queryTemplates.get(i);
    params[k] = templated?.value ?? v;
    at([...req, 'request_parameters', k], templated?.comment ?? `query of ${request.origin}`);
  });
  if (Object.keys(params).length) requester.request_parameters = params;

  if (jsonBody) {
    requester.request_body = { type: 'RequestBodyJsonObject', value: jsonBody };
    at([...req, 'request_body'], `JSON body of ${request.origin}`);
  } else if (request.body !== undefined && request.body !== '') {
    requester.request_body = { type: 'RequestBodyPlainText', value: request.body };
    at([...req, 'request_body'], `body of ${request.origin}, sent as written`);
  }

  const guess = guessRecords(request.response?.text, name);
  const stream: Record<string, unknown> = { type: 'DeclarativeStream', name };
  at(['name'], `last path segment of the URL in ${request.origin}`);
  if (!reused && !request.url.match(/^https?:\/\/[^/]+/)) at([...req, 'url'], 'check this URL: it has no http(s) host');
  if (guess?.primaryKey) {
    stream.primary_key = [guess.primaryKey];
    at(['primary_key'], `every sampled record has a scalar "${guess.primaryKey}"`);
  }
  stream.retriever = {
    type: 'SimpleRetriever',
    requester,
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: guess?.fieldPath ?? [] } },
  };
  at(
    ['retriever', 'record_selector', 'extractor', 'field_path'],
    guess
      ? `${guess.why} (${guess.count} in the recorded response)`
      : request.response
        ? 'the recorded response is not a JSON array of objects: check where the records are'
        : 'no response to look at: set the path to the array of records',
  );
  stream.schema_loader = {
    type: 'InlineSchemaLoader',
    schema: guess?.schema ?? { $schema: 'http://json-schema.org/schema#', type: 'object', additionalProperties: true, properties: {} },
  };
  at(['schema_loader'], guess?.schema ? 'inferred from the recorded records' : 'empty: run the stream and write the inferred schema');
  return { name, stream, inputs: plan.inputs, comments };
}

/** The url_base and path: a url_base of the manifest that prefixes the URL, else the origin plus version-like segments. */
function splitUrl(url: string, bases: ScaffoldContext['urlBases']): { urlBase: string; path: string; urlBaseWhy: string; reused: boolean } {
  const match = bases
    .filter((b) => url === b.value.replace(/\/+$/, '') || url.startsWith(b.value.replace(/\/+$/, '') + '/'))
    .sort((a, b) => b.value.length - a.value.length)[0];
  if (match)
    return {
      urlBase: match.value,
      path: url.slice(match.value.replace(/\/+$/, '').length) || '/',
      urlBaseWhy: `same as the url_base of ${match.where}`,
      reused: true,
    };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { urlBase: url, path: '/', urlBaseWhy: 'the URL as written (it does not parse as a URL: check it)', reused: false };
  }
  const segments = parsed.pathname.split('/');
  let keep = 1;
  while (keep < segments.length - 1 && /^(api|rest|v\d+(\.\d+)?)$/i.test(segments[keep])) keep++;
  const prefix = segments.slice(0, keep).join('/');
  return {
    urlBase: `${parsed.origin}${prefix}`,
    path: parsed.pathname.slice(prefix.length) || '/',
    urlBaseWhy: 'scheme, host and version-like path segments of the URL',
    reused: false,
  };
}

function streamNameFor(path: string): string {
  const segments = path.split('/').filter((s) => s && !/^(\d+|[0-9a-f-]{16,}|\{.*\})$/i.test(s));
  const last = segments[segments.length - 1] ?? 'records';
  return (
    last
      .replace(/\.[a-z]+$/i, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'records'
  );
}

function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out); n++) out = `${name}_${n}`;
  return out;
}

function parseJsonObject(body: string | undefined): Record<string, unknown> | undefined {
  if (!body) return undefined;
  try {
    const v = JSON.parse(body);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

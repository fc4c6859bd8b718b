// Connects a place in the manifest text to the captured reads: which streams use the component
// written there (a shared definition belongs to every stream that references it), and for each
// captured page the values the runtime gives a template of that component — the decoded response,
// the headers, the page's records, the slice, the next-page token — built with the runtime's own
// decoder and paginator, so they are what the runtime saw.
import type { ManifestDocument } from '../documents';
import type { JsonPath } from '../runtime';
import { documentResolved } from '../documentValidation';
import { createDecoder } from '../runtime';
import { createPaginator } from '../runtime';
import { parseLinkHeader } from '../runtime';
import { headerValue } from '../runtime';
import { templateSlice } from '../runtime';
import type { TemplateContextKind } from '../runtime';
import type { CapturedPage, CapturedRead, CapturedReads } from './capturedReads';

type Obj = Record<string, unknown>;

/** A component as used by one stream: the resolved stream and the path below it. */
export type StreamPlace = { streamName: string; index: number; stream: Obj; path: JsonPath };

/** A place with the captured read of its stream. */
export type CapturedPlace = StreamPlace & { read: CapturedRead };

type StreamIndex = { names: string; places: Map<string, StreamPlace[]> };
const indexes = new WeakMap<ManifestDocument, StreamIndex>();

/** Walks at most this many containers per document version (a safety bound for huge manifests). */
const MAX_INDEXED_NODES = 300_000;

function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * For each source path (as written) of a container inside a stream that has a captured read, the
 * streams that use it. Built once per document version and set of captured streams, only for
 * documents that have captured reads; the other streams are not walked (a 56k-line manifest has
 * hundreds of them).
 */
function streamIndex(doc: ManifestDocument, captured: ReadonlySet<string>): StreamIndex {
  const names = [...captured].sort().join('\u0000');
  const cached = indexes.get(doc);
  if (cached && cached.names === names) return cached;
  const resolved = documentResolved(doc);
  const places = new Map<string, StreamPlace[]>();
  const streams = isMap(resolved.value) && Array.isArray(resolved.value.streams) ? resolved.value.streams : [];
  let budget = MAX_INDEXED_NODES;
  streams.forEach((stream, index) => {
    if (!isMap(stream)) return;
    const name = streamNameOf(stream);
    if (!name || !captured.has(name)) return;
    const walk = (v: unknown, path: (string | number)[], depth: number) => {
      if (budget-- <= 0 || depth > 40 || v === null || typeof v !== 'object') return;
      const source = resolved.origins.sourceOf(['streams', index, ...path]).path;
      const key = JSON.stringify(source);
      const list = places.get(key) ?? [];
      if (!list.some((p) => p.streamName === name)) list.push({ streamName: name, index, stream, path: [...path] });
      places.set(key, list);
      if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i], depth + 1));
      // Schemas are large and hold no component a captured read could inform.
      else for (const [k, item] of Object.entries(v)) if (k !== 'schema_loader' && k !== '$parameters') walk(item, [...path, k], depth + 1);
    };
    walk(stream, [], 0);
  });
  const built = { names, places };
  indexes.set(doc, built);
  return built;
}

export function streamNameOf(stream: Obj): string | null {
  if (typeof stream.name === 'string' && stream.name) return stream.name;
  const params = stream.$parameters;
  return isMap(params) && typeof params.name === 'string' && params.name ? params.name : null;
}

/**
 * The streams that use what is written at `sourcePath` (the nearest indexed container above it),
 * those with a captured read first; [] when the document has no captured read. Never throws.
 */
export function capturedPlacesAt(
  doc: ManifestDocument,
  captured: CapturedReads | undefined,
  sourcePath: readonly (string | number)[],
): CapturedPlace[] {
  if (!captured || !captured.has(doc.uri)) return [];
  let index: StreamIndex;
  try {
    // While the text has YAML errors (a half-typed line), the last version without any answers.
    index = streamIndex(doc.goodSource() ?? doc, new Set(captured.forUri(doc.uri).keys()));
  } catch {
    return [];
  }
  for (let n = sourcePath.length; n >= 0; n--) {
    const places = index.places.get(JSON.stringify(sourcePath.slice(0, n)));
    if (!places) continue;
    const out: CapturedPlace[] = [];
    for (const place of places) {
      const read = captured.get(doc.uri, place.streamName);
      // A capture whose stream no longer exists in the manifest is never reached: lookups go by the current names.
      if (read && read.pages.length) out.push({ ...place, path: [...place.path, ...sourcePath.slice(n)], read });
    }
    return out;
  }
  return [];
}

/** The resolved value at `path` below `root`. */
export function valueBelow(root: unknown, path: JsonPath): unknown {
  let v = root;
  for (const key of path) v = isMap(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[key] : undefined;
  return v;
}

/** The `$parameters` the runtime gives the component at `path`: the nearest mapping on the way that has some. */
export function parametersAt(stream: Obj, path: JsonPath): Obj {
  let found: Obj = isMap(stream.$parameters) ? stream.$parameters : {};
  let v: unknown = stream;
  for (const key of path) {
    v = isMap(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[key] : undefined;
    if (isMap(v) && isMap(v.$parameters)) found = v.$parameters;
  }
  return found;
}

/** The retriever of a resolved stream, or {}. */
function retrieverOf(stream: Obj): Obj {
  return isMap(stream.retriever) ? stream.retriever : {};
}

const decodedCache = new WeakMap<CapturedPage, Map<string, unknown[]>>();

/** Every decoded element of a page's body (what a DpathExtractor walks), decoded once per decoder. */
export function decodedElements(stream: Obj, page: CapturedPage): unknown[] {
  const component = retrieverOf(stream).decoder as Obj | undefined;
  const key = JSON.stringify(component ?? null);
  let byDecoder = decodedCache.get(page);
  if (!byDecoder) decodedCache.set(page, (byDecoder = new Map()));
  let elements = byDecoder.get(key);
  if (!elements) {
    try {
      elements = createDecoder(component).decode({ body: page.bodyText });
    } catch {
      elements = [];
    }
    byDecoder.set(key, elements);
  }
  return elements;
}

/** The response as templates see it: the first element the stream's decoder yields ({} if none), as the runtime gives it. */
export function decodedResponse(stream: Obj, page: CapturedPage): unknown {
  return decodedElements(stream, page)[0] ?? {};
}

/** CursorPagination's `headers`: the headers as sent plus `link`, the parsed Link header. */
export function paginationHeaders(page: CapturedPage): Obj {
  return { ...page.headers, link: parseLinkHeader(headerValue(page.headers, 'link')) };
}

/**
 * The `next_page_token` each page was requested with (`{ next_page_token: t }` or null), from the
 * pagination trace when the read has one, else replayed with the runtime's paginator over the
 * captured responses. A token that cannot be known (the paginator needs what was not captured) is
 * undefined.
 */
export function pageTokens(place: CapturedPlace): (Obj | null | undefined)[] {
  const pages = place.read.pages;
  if (pages.every((p) => p.trace)) return pages.map((p) => wrap(p.trace!.token_in));
  const retriever = retrieverOf(place.stream);
  const out: (Obj | null | undefined)[] = [];
  let paginator;
  try {
    const component = retriever.paginator as Obj | undefined;
    paginator = createPaginator(component, place.read.config ?? {}, {
      decoder: retriever.decoder as Obj | undefined,
      recordExtractor: isMap(retriever.record_selector) ? (retriever.record_selector.extractor as Obj | undefined) : undefined,
      parameters: (component?.$parameters as Obj) ?? {},
    });
  } catch {
    return pages.map(() => undefined);
  }
  let token: Obj | null | undefined;
  pages.forEach((page, i) => {
    // Pages were dropped before the first kept one: its token is unknown unless it starts a slice.
    if (i === 0 || page.slice !== pages[i - 1].slice) token = page.page === 0 ? wrap(paginator.initialToken()) : undefined;
    out.push(token);
    if (token === undefined) return;
    try {
      const last = page.records.length ? page.records[page.records.length - 1] : null;
      const next = paginator.nextPageToken(
        { status: page.status ?? 0, headers: page.headers, body: page.bodyText },
        page.records.length,
        last,
        token ? token.next_page_token : null,
        page.records,
      );
      token = isMap(next) ? next : null;
    } catch {
      token = undefined;
    }
  });
  return out;
}

function wrap(raw: unknown): Obj | null {
  return raw === null || raw === undefined ? null : isMap(raw) && 'next_page_token' in raw ? raw : { next_page_token: raw };
}

/** The slice as templates see it (`stream_slice`, with `.partition` / `.cursor_slice`). */
function sliceOf(page: CapturedPage): Obj {
  const descriptor = page.sliceDescriptor;
  const cursorKeys = ['start_time', 'end_time'];
  const partition = Object.fromEntries(Object.entries(descriptor).filter(([k]) => !cursorKeys.includes(k)));
  const cursor = Object.fromEntries(Object.entries(descriptor).filter(([k]) => cursorKeys.includes(k)));
  return templateSlice({ partition, cursor_slice: cursor });
}

/**
 * The variables a template of context `kind` gets on `page` (config and parameters included), as
 * the runtime builds them for that kind; `record` is the page's last record. `config` is the
 * captured (masked) config, or {} when the read kept none.
 */
export function pageVariables(
  kind: TemplateContextKind,
  place: CapturedPlace,
  page: CapturedPage,
  token: Obj | null | undefined,
  parameters: Obj,
): Obj {
  const config = place.read.config ?? {};
  const last = page.records.length ? page.records[page.records.length - 1] : null;
  const base: Obj = { config, parameters };
  switch (kind) {
    case 'pagination_cursor':
      return {
        ...base,
        response: decodedResponse(place.stream, page),
        headers: paginationHeaders(page),
        last_record: last,
        last_page_size: page.records.length,
        last_records: page.records,
      };
    case 'offset_page_size':
      return { ...base, response: decodedResponse(place.stream, page) };
    case 'response_predicate':
    case 'response_message':
      return {
        ...base,
        ...(kind === 'response_predicate' ? { config: null } : {}),
        response: decodedResponse(place.stream, page),
        headers: { ...page.headers },
      };
    case 'request': {
      const slice = sliceOf(page);
      return { ...base, stream_slice: slice, stream_interval: slice, stream_partition: slice, next_page_token: token ?? null };
    }
    case 'record_filter': {
      const slice = sliceOf(page);
      return {
        ...base,
        record: last,
        stream_slice: slice,
        stream_interval: slice,
        stream_partition: slice,
        next_page_token: token ?? null,
      };
    }
    case 'transformation': {
      const slice = sliceOf(page);
      return { ...base, record: last, stream_slice: slice, stream_interval: slice, stream_partition: slice };
    }
    default:
      return base;
  }
}

/** A short label of a page: "page 2", or "slice 1 page 2" when the read has several slices. */
export function pageLabel(read: CapturedRead, page: CapturedPage): string {
  const sliced = read.pages.some((p) => p.slice !== read.pages[0].slice);
  return sliced ? `slice ${page.slice + 1} page ${page.page + 1}` : `page ${page.page + 1}`;
}

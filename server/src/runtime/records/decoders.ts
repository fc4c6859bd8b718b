// Response decoders (§8.1, §7.9): turn a response body into the elements records are extracted from.
// JSON and JSON Lines are supported; other decoders fail at build time with a clear config error.
import { configError } from '../errors';

/** Decodes a body into elements (each element is what a DpathExtractor walks). */
export type Decoder = { decode(body: string): unknown[]; name: string };

/** Builds a decoder component; absent → JsonDecoder. */
export function createDecoder(component: Record<string, unknown> | undefined): Decoder {
  const type = component?.type ?? 'JsonDecoder';
  switch (type) {
    case 'JsonDecoder':
      return { name: 'JsonDecoder', decode: decodeJson };
    case 'JsonlDecoder':
      return { name: 'JsonlDecoder', decode: decodeJsonLines };
    case 'CompositeRawDecoder': {
      const parser = component?.parser as Record<string, unknown> | undefined;
      if (parser?.type === 'JsonParser') return { name: 'CompositeRawDecoder(JsonParser)', decode: decodeJson };
      if (parser?.type === 'JsonLineParser') return { name: 'CompositeRawDecoder(JsonLineParser)', decode: decodeJsonLines };
      throw configError(`CompositeRawDecoder with parser ${JSON.stringify(parser?.type)} is not supported by this runtime; use JsonDecoder or JsonlDecoder.`);
    }
    case 'CustomDecoder':
      throw configError('CustomDecoder runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(`Decoder ${JSON.stringify(type)} is not supported by this runtime (supported: JsonDecoder, JsonlDecoder, CompositeRawDecoder with JsonParser/JsonLineParser).`);
  }
}

/** Spec §7.9: with a DefaultPaginator only JSON-shaped decoders are allowed. */
export function checkPaginationDecoder(component: Record<string, unknown> | undefined): void {
  const type = component?.type ?? 'JsonDecoder';
  const parser = (component?.parser as Record<string, unknown> | undefined)?.type;
  const ok = type === 'JsonDecoder' || type === 'XmlDecoder' || (type === 'CompositeRawDecoder' && (parser === 'JsonParser' || parser === 'GzipParser'));
  if (!ok) throw configError(`Decoder ${String(type)}${parser ? ` (${String(parser)})` : ''} is not supported for pagination; use JsonDecoder with a DefaultPaginator.`);
}

// The page loop decodes each body up to three times (records, raw count, cursor `response`); one
// remembered body avoids parsing the same text again. Callers never mutate the decoded elements.
let lastBody: string | null = null;
let lastDecoded: unknown[] = [];
let lastValid = true;

/** Spec §8.1: arrays yield their items; empty, invalid or null bodies yield one empty object. */
export function decodeJson(body: string): unknown[] {
  if (body === lastBody) return lastDecoded;
  let decoded: unknown[];
  try {
    decoded = parseJsonElements(body);
    lastValid = true;
  } catch {
    decoded = [{}];
    lastValid = body.trim() === '';
  }
  lastBody = body;
  lastDecoded = decoded;
  return decoded;
}

/** True when the body is empty or valid JSON (a test read reports other bodies, §8.1 hides them). */
export function isJsonOrEmpty(body: string): boolean {
  decodeJson(body);
  return lastValid;
}

function parseJsonElements(body: string): unknown[] {
  const v: unknown = body.trim() === '' ? null : JSON.parse(body);
  if (v === null) return [{}];
  if (Array.isArray(v)) return v.length === 0 ? [{}] : v;
  return [v];
}

function decodeJsonLines(body: string): unknown[] {
  const out: unknown[] = [];
  for (const line of body.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A broken line is skipped like the reference's line parser does; other lines still count.
    }
  }
  return out;
}

/** Spec §7.5: the `response` a cursor template sees is the first decoded element, `{}` if none. */
export function firstElement(body: string): unknown {
  const all = decodeJson(body);
  return all[0] ?? {};
}

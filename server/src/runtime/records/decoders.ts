// Response decoders (§8.1, §7.9): turn a response body into the elements records are extracted from.
// JsonDecoder, JsonlDecoder, IterableDecoder, XmlDecoder, CsvDecoder, GzipDecoder, ZipfileDecoder and
// CompositeRawDecoder (JsonParser, JsonLineParser, CsvParser, GzipParser) are supported; the rest fail
// at build time with a clear config error.
import type { HttpResponse } from '../types';
import { configError } from '../errors';
import { bodyBytes, bodyLimit } from '../http/responseBody';
import { createCsvParser } from './csvParser';
import { createGzipParser } from './gzipParser';
import { createRawParser, parseJsonLines, parserForDecoder, type Parser } from './rawParsers';
import { decodeXml, type XmlDecoded } from './xmlDecoder';
import { createZipfileParser } from './zipfileDecoder';

/** What a decoder reads of a response: its text, and the raw bytes and size cap when the transport kept them. */
export type DecoderInput = Pick<HttpResponse, 'body' | 'bodyBytes' | 'maxBodyBytes'>;

/** Decodes a body into elements (each element is what a DpathExtractor walks). */
export type Decoder = {
  name: string;
  /** The decoded elements; throws a system error for data that cannot be read at all (broken zip, gzip bomb). */
  decode(response: DecoderInput | string): unknown[];
  /** Why a body that decoded to nothing could not be read (a test read logs it), or null when it was fine. */
  problem(response: DecoderInput | string): string | null;
};

export const SUPPORTED_DECODERS =
  'JsonDecoder, JsonItemsDecoder, JsonlDecoder, IterableDecoder, XmlDecoder, CsvDecoder, GzipDecoder, ZipfileDecoder, CompositeRawDecoder';

/** Builds a decoder component; absent → JsonDecoder. Throws a config error for unsupported ones. */
export function createDecoder(component: Record<string, unknown> | undefined): Decoder {
  const type = component?.type ?? 'JsonDecoder';
  const key = JSON.stringify(component ?? null);
  switch (type) {
    case 'JsonDecoder':
      return {
        name: 'JsonDecoder',
        decode: (r) => decodeJson(text(r)),
        problem: (r) => (isJsonOrEmpty(text(r)) ? null : 'is not valid JSON'),
      };
    case 'JsonlDecoder': {
      const lines = (r: DecoderInput | string): unknown[] => cached(r, 'jsonl', () => parseJsonLines(text(r)));
      // Broken lines are skipped quietly (§8.1 style); a body where no line is JSON is worth saying.
      return {
        name: 'JsonlDecoder',
        decode: lines,
        problem: (r) => (lines(r).length === 0 && text(r).trim() !== '' ? 'is not valid JSON Lines (no line is a JSON document)' : null),
      };
    }
    case 'IterableDecoder':
      return { name: 'IterableDecoder', decode: (r) => decodeLines(text(r)), problem: () => null };
    case 'XmlDecoder': {
      const xml = (r: DecoderInput | string): XmlDecoded => cached(r, 'xml', () => decodeXml(text(r)));
      return { name: 'XmlDecoder', decode: (r) => xml(r).elements, problem: (r) => xml(r).problem };
    }
    case 'CsvDecoder':
      return rawDecoder('CsvDecoder', key, createCsvParser(component ?? {}));
    case 'GzipDecoder':
      return rawDecoder(
        `GzipDecoder(${describe(component?.decoder)})`,
        key,
        createGzipParser(parserForDecoder(component?.decoder, 'GzipDecoder.decoder')),
      );
    case 'ZipfileDecoder':
      return rawDecoder(
        `ZipfileDecoder(${describe(component?.decoder)})`,
        key,
        createZipfileParser(parserForDecoder(component?.decoder, 'ZipfileDecoder.decoder')),
      );
    case 'CompositeRawDecoder': {
      const parser = createRawParser(component?.parser, 'CompositeRawDecoder.parser');
      return rawDecoder(`CompositeRawDecoder(${parser.name})`, key, parser);
    }
    case 'JsonItemsDecoder': {
      // CDK JsonItemsParser: ijson items at `<items_path>.item`, i.e. the elements of the array at that
      // dotted path (an `item` segment steps into every element of an array on the way).
      const itemsPath = typeof component?.items_path === 'string' ? component.items_path : '';
      if (!itemsPath) throw configError('JsonItemsDecoder requires a non-empty items_path.');
      const segments = [...itemsPath.split('.'), 'item'];
      const parsed = (r: DecoderInput | string): { ok: boolean; value: unknown } =>
        cached(r, 'jsonItems', () => {
          try {
            return { ok: true, value: JSON.parse(text(r)) };
          } catch {
            return { ok: false, value: null };
          }
        });
      return {
        name: 'JsonItemsDecoder',
        decode: (r) => {
          const p = parsed(r);
          return p.ok ? itemsAt(p.value, segments) : [];
        },
        problem: (r) => (parsed(r).ok || text(r).trim() === '' ? null : 'is not valid JSON'),
      };
    }
    case 'CustomDecoder':
      throw configError('CustomDecoder runs Python code and is not runnable outside the Python CDK.');
    default:
      throw configError(`Decoder ${JSON.stringify(type)} is not supported by this runtime (supported: ${SUPPORTED_DECODERS}).`);
  }
}

/** The values ijson yields for a dotted prefix: keys of mappings, `item` for every element of an array. */
function itemsAt(value: unknown, segments: string[]): unknown[] {
  let level: unknown[] = [value];
  for (const seg of segments) {
    const next: unknown[] = [];
    for (const v of level) {
      if (seg === 'item' && Array.isArray(v)) next.push(...v);
      else if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, seg))
        next.push((v as Record<string, unknown>)[seg]);
    }
    level = next;
  }
  return level;
}

/** Spec §7.9: with a DefaultPaginator only JSON-shaped decoders are allowed (JSON, XML, JSON inside gzip). */
export function checkPaginationDecoder(component: Record<string, unknown> | undefined): void {
  if (isPaginationDecoder(component)) return;
  const type = String(component?.type ?? 'JsonDecoder');
  const inner = (component?.parser ?? component?.decoder) as Record<string, unknown> | undefined;
  throw configError(
    `Decoder ${type}${inner?.type ? ` (${String(inner.type)})` : ''} is not supported for pagination; use JsonDecoder, XmlDecoder or GzipDecoder with a JsonDecoder inside with a DefaultPaginator.`,
  );
}

function isPaginationDecoder(component: Record<string, unknown> | undefined): boolean {
  const type = component?.type ?? 'JsonDecoder';
  if (type === 'JsonDecoder' || type === 'XmlDecoder') return true;
  // The CDK's factory turns GzipDecoder into a CompositeRawDecoder with a GzipParser (or, in the
  // Connector Builder, with the inner parser alone); either way only a JSON parser inside qualifies.
  if (type === 'GzipDecoder') return (component?.decoder as Record<string, unknown> | undefined)?.type === 'JsonDecoder';
  if (type !== 'CompositeRawDecoder') return false;
  const parser = component?.parser as Record<string, unknown> | undefined;
  if (parser?.type === 'JsonParser') return true;
  return parser?.type === 'GzipParser' && (parser.inner_parser as Record<string, unknown> | undefined)?.type === 'JsonParser';
}

/** Spec §7.5: the `response` a paginator template sees is the first decoded element, `{}` if none. */
export function firstDecoded(decoder: Decoder, response: DecoderInput): unknown {
  return decoder.decode(response)[0] ?? {};
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

/** IterableDecoder: each line of the body becomes `{record: line}`. */
function decodeLines(body: string): unknown[] {
  const lines = body.split(/\r\n|\n|\r/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.map((record) => ({ record }));
}

function text(r: DecoderInput | string): string {
  return typeof r === 'string' ? r : r.body;
}

// Byte decoders cache their result per response object, so the records, the raw count and the
// paginator's `response` share one inflation of a large body.
const cache = new WeakMap<object, Map<string, unknown>>();

function cached<T>(r: DecoderInput | string, key: string, compute: () => T): T {
  if (typeof r === 'string') return compute();
  let perResponse = cache.get(r);
  if (!perResponse) cache.set(r, (perResponse = new Map()));
  if (perResponse.has(key)) return perResponse.get(key) as T;
  const value = compute();
  perResponse.set(key, value);
  return value;
}

function rawDecoder(name: string, key: string, parser: Parser): Decoder {
  const input = (r: DecoderInput | string): DecoderInput => (typeof r === 'string' ? { body: r } : r);
  return {
    name,
    decode: (r) => cached(r, key, () => parser.parse(bodyBytes(input(r)), bodyLimit(input(r)))),
    problem: () => null,
  };
}

function describe(component: unknown): string {
  const c = component as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') return '?';
  return c.type === 'GzipDecoder' ? `GzipDecoder(${describe(c.decoder)})` : String(c.type);
}

// Byte-level parsers of the CDK's CompositeRawDecoder (JsonParser, JsonLineParser, CsvParser,
// GzipParser) and the mapping from the manifest's decoder types (JsonDecoder, JsonlDecoder,
// CsvDecoder, GzipDecoder) to them, as used inside GzipDecoder and ZipfileDecoder.
import { configError, systemError } from '../errors';
import { createCsvParser } from './csvParser';
import { createGzipParser } from './gzipParser';
import { decodeText } from './textEncoding';

import type { Parser } from './parser';
export type { Parser } from './parser';

type Component = Record<string, unknown>;

/** Parser of a CompositeRawDecoder `parser` component (JsonParser, JsonLineParser, CsvParser, GzipParser). */
export function createRawParser(component: unknown, where: string): Parser {
  const c = asComponent(component, where);
  switch (c.type) {
    case 'JsonParser':
      return jsonParser(c.encoding);
    case 'JsonLineParser':
      return jsonLineParser(c.encoding);
    case 'CsvParser':
      return createCsvParser(c);
    case 'GzipParser':
      return createGzipParser(createRawParser(c.inner_parser, 'GzipParser.inner_parser'));
    default:
      throw configError(
        `${where}: parser ${JSON.stringify(c.type ?? null)} is not supported by this runtime (supported: JsonParser, JsonLineParser, CsvParser, GzipParser).`,
      );
  }
}

/** Parser for a decoder nested in GzipDecoder / ZipfileDecoder, mapped the way the CDK's factory maps it. */
export function parserForDecoder(component: unknown, where: string): Parser {
  const c = asComponent(component, where);
  switch (c.type) {
    case 'JsonDecoder':
      return jsonParser('utf-8');
    case 'JsonlDecoder':
      return jsonLineParser('utf-8');
    case 'CsvDecoder':
      return createCsvParser(c);
    case 'GzipDecoder':
      return createGzipParser(parserForDecoder(c.decoder, 'GzipDecoder.decoder'));
    default:
      throw configError(
        `${where}: ${JSON.stringify(c.type ?? null)} is not supported here by this runtime (supported: JsonDecoder, JsonlDecoder, CsvDecoder, GzipDecoder).`,
      );
  }
}

/** The CDK's JsonParser: the whole body is JSON (a list yields its items); unlike JsonDecoder, invalid JSON fails the read. */
export function jsonParser(encoding: unknown): Parser {
  return {
    name: 'JsonParser',
    parse(bytes) {
      const text = decodeText(bytes, encoding as string | undefined, 'JsonParser');
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw systemError(
          `Response JSON data failed to be parsed (${bytes.length} bytes, starts with ${JSON.stringify(text.trim().slice(0, 40))}).`,
        );
      }
      return Array.isArray(value) ? value : [value];
    },
  };
}

/** JSON Lines: one document per line; a line that is not JSON is skipped, like the CDK's JsonLineParser. */
export function jsonLineParser(encoding: unknown): Parser {
  return { name: 'JsonLineParser', parse: (bytes) => parseJsonLines(decodeText(bytes, encoding as string | undefined, 'JsonLineParser')) };
}

/** Parses JSON Lines text, skipping blank and broken lines. */
export function parseJsonLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A broken line is skipped like the reference's line parser does; other lines still count.
    }
  }
  return out;
}

function asComponent(component: unknown, where: string): Component {
  if (!component || typeof component !== 'object' || Array.isArray(component))
    throw configError(`${where} must be a component with a type.`);
  return component as Component;
}

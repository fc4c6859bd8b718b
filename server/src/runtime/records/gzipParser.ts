// GzipParser / GzipDecoder: inflates gzip bytes before the inner parser, refusing to inflate past the
// response size cap (a gzip bomb fails clearly instead of exhausting memory).
import { gunzipSync } from 'node:zlib';
import { systemError } from '../errors';
import type { Parser } from './parser';

/** Wraps `inner`: gzip data is inflated first; bytes without the gzip magic go to `inner` as they are. */
export function createGzipParser(inner: Parser): Parser {
  return {
    name: `GzipParser(${inner.name})`,
    parse(bytes, limit) {
      // Servers often decode Content-Encoding themselves; like the CDK, data without the magic
      // bytes is handed to the inner parser unchanged.
      if (!isGzip(bytes)) return inner.parse(bytes, limit);
      return inner.parse(inflateGzip(bytes, limit, 'the response'), limit);
    },
  };
}

/** True when the bytes start with the gzip magic number 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Inflates gzip data (every member of a multi-member file) to at most `limit` bytes. */
export function inflateGzip(bytes: Uint8Array, limit: number, what: string): Buffer {
  try {
    // zlib stops as soon as the output would pass maxOutputLength, so a bomb never gets allocated.
    return gunzipSync(bytes, { maxOutputLength: Math.max(1, limit) });
  } catch (e) {
    throw inflateError(e, limit, what, 'gzip');
  }
}

/** The error for a failed inflation: over the cap, or corrupt data. */
export function inflateError(e: unknown, limit: number, what: string, format: string): Error {
  const err = e as { code?: string; message?: string };
  if (err.code === 'ERR_BUFFER_TOO_LARGE') {
    return systemError(
      `The ${format} data of ${what} inflates to more than ${limit} bytes, the response size limit; refusing to decompress it (raise the response size cap if this is expected).`,
    );
  }
  return systemError(`The ${format} data of ${what} cannot be decompressed: ${err.message ?? String(e)}.`);
}

// ZipfileDecoder: each file of a zip response goes through the inner decoder's parser (source-amplitude
// uses ZipfileDecoder → GzipDecoder → JsonlDecoder). The archive is read with a small central-directory
// reader and node:zlib's inflateRaw rather than a zip package: zlib's maxOutputLength enforces the
// size cap on the real inflated size (the sizes an archive declares can lie), synchronously, with no
// dependency; only stored and deflated entries exist in practice for API exports.
import { inflateRawSync } from 'node:zlib';
import { systemError } from '../errors';
import { inflateError } from './gzipParser';
import type { Parser } from './rawParsers';

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** One file of an archive, inflated. */
export type ZipEntry = { name: string; data: Buffer };

/** Parses every file of the zip with `inner`; a broken archive or file fails the read with a system error. */
export function createZipfileParser(inner: Parser): Parser {
  return {
    name: `ZipfileDecoder(${inner.name})`,
    parse(bytes, limit) {
      const out: unknown[] = [];
      for (const entry of readZip(bytes, limit)) {
        try {
          for (const element of inner.parse(entry.data, limit)) out.push(element);
        } catch (e) {
          throw systemError(`Failed to parse file ${JSON.stringify(entry.name)} from the zip file: ${(e as Error).message}`, { cause: e });
        }
      }
      return out;
    },
  };
}

/** Reads the files of a zip archive in central-directory order; the inflated total may not exceed `limit` bytes. */
export function readZip(bytes: Uint8Array, limit: number): ZipEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { count, offset } = centralDirectory(buf);
  const entries: ZipEntry[] = [];
  let total = 0;
  let pos = offset;
  for (let i = 0; i < count; i++) {
    if (pos + 46 > buf.length || buf.readUInt32LE(pos) !== CENTRAL) throw badZip(`central directory entry ${i + 1} is missing or damaged`);
    const flags = buf.readUInt16LE(pos + 8);
    const method = buf.readUInt16LE(pos + 10);
    let compressedSize = buf.readUInt32LE(pos + 20);
    let size = buf.readUInt32LE(pos + 24);
    const nameLength = buf.readUInt16LE(pos + 28);
    const extraLength = buf.readUInt16LE(pos + 30);
    const commentLength = buf.readUInt16LE(pos + 32);
    let localOffset = buf.readUInt32LE(pos + 42);
    // Bit 11: the name is UTF-8; otherwise it is CP437, close enough to latin-1 for messages.
    const name = buf.toString(flags & 0x800 ? 'utf8' : 'latin1', pos + 46, pos + 46 + nameLength);
    const zip64 = zip64Extra(buf, pos + 46 + nameLength, extraLength);
    if (size === 0xffffffff) size = zip64.shift() ?? size;
    if (compressedSize === 0xffffffff) compressedSize = zip64.shift() ?? compressedSize;
    if (localOffset === 0xffffffff) localOffset = zip64.shift() ?? localOffset;
    pos += 46 + nameLength + extraLength + commentLength;
    // Directory entries hold no data; the CDK would hand their empty content to the parser.
    if (name.endsWith('/') && size === 0) continue;
    if (flags & 0x1) throw badZip(`file ${JSON.stringify(name)} is encrypted`);
    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== LOCAL)
      throw badZip(`the local header of ${JSON.stringify(name)} is missing`);
    const start = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (start + compressedSize > buf.length) throw badZip(`file ${JSON.stringify(name)} is truncated`);
    const stored = buf.subarray(start, start + compressedSize);
    const room = limit - total;
    let data: Buffer;
    if (method === 0) {
      if (stored.length > room) throw inflateError({ code: 'ERR_BUFFER_TOO_LARGE' }, limit, `the zip response`, 'zip');
      data = stored;
    } else if (method === 8) {
      try {
        data = inflateRawSync(stored, { maxOutputLength: Math.max(1, room) });
      } catch (e) {
        throw inflateError(e, limit, `file ${JSON.stringify(name)} of the zip response`, 'zip');
      }
    } else {
      throw badZip(`file ${JSON.stringify(name)} uses compression method ${method}; only stored (0) and deflate (8) are supported`);
    }
    total += data.length;
    entries.push({ name, data });
  }
  return entries;
}

/** Finds the end-of-central-directory record (zip64 aware): entry count and central directory offset. */
function centralDirectory(buf: Buffer): { count: number; offset: number } {
  // The record sits at the end, followed by a comment of at most 65535 bytes.
  const lowest = Math.max(0, buf.length - 22 - 0xffff);
  let at = -1;
  for (let i = buf.length - 22; i >= lowest; i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw badZip(`no end-of-central-directory record was found in ${buf.length} bytes`);
  let count = buf.readUInt16LE(at + 10);
  let offset = buf.readUInt32LE(at + 16);
  if ((count === 0xffff || offset === 0xffffffff) && at >= 20 && buf.readUInt32LE(at - 20) === ZIP64_LOCATOR) {
    const record = Number(buf.readBigUInt64LE(at - 20 + 8));
    if (record + 56 > buf.length || buf.readUInt32LE(record) !== ZIP64_EOCD)
      throw badZip('the zip64 end-of-central-directory record is missing');
    count = Number(buf.readBigUInt64LE(record + 32));
    offset = Number(buf.readBigUInt64LE(record + 48));
  }
  if (offset > buf.length) throw badZip('the central directory lies outside the data');
  return { count, offset };
}

/** The 64-bit values of a zip64 extended-information extra field, in their stored order. */
function zip64Extra(buf: Buffer, start: number, length: number): number[] {
  for (let p = start; p + 4 <= start + length; ) {
    const id = buf.readUInt16LE(p);
    const size = buf.readUInt16LE(p + 2);
    if (id === 0x0001) {
      const values: number[] = [];
      for (let q = p + 4; q + 8 <= p + 4 + size; q += 8) values.push(Number(buf.readBigUInt64LE(q)));
      return values;
    }
    p += 4 + size;
  }
  return [];
}

function badZip(detail: string): Error {
  return systemError(`Received an invalid zip file in the response: ${detail}.`);
}

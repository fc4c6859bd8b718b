// Turns response bytes into text for a decoder's `encoding` field, which holds a Python codec name
// (utf-8, utf-8-sig, latin-1, utf-16, cp1252, ...). Decoding is strict like Python's default.
import { configError, systemError } from '../errors';

/** Decodes `bytes` with a Python-style encoding name; throws a config error for an unknown name and a system error for undecodable bytes. */
export function decodeText(bytes: Uint8Array, encoding: string | undefined | null, where: string): string {
  const name = String(encoding ?? 'utf-8')
    .trim()
    .toLowerCase()
    .replace(/_/g, '-');
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (name) {
    case 'utf-8':
    case 'utf8':
    case 'u8':
    case 'utf':
      // Python's utf-8 codec keeps a byte-order mark as U+FEFF; only utf-8-sig drops it.
      return strict(buf, 'utf-8', true, encoding, where);
    case 'utf-8-sig':
    case 'utf8-sig':
      return strict(buf, 'utf-8', false, encoding, where);
    case 'latin-1':
    case 'latin1':
    case 'iso-8859-1':
    case 'iso8859-1':
    case 'l1':
    case 'cp819':
    case '8859':
      // WHATWG maps these labels to windows-1252; Python's latin-1 is the real ISO-8859-1.
      return buf.toString('latin1');
    case 'ascii':
    case 'us-ascii':
    case '646':
      if (buf.some((b) => b > 0x7f)) throw undecodable(encoding, where);
      return buf.toString('latin1');
    case 'utf-16':
    case 'utf16': {
      // Python's utf-16 reads the byte-order mark and assumes little-endian without one.
      const be = buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff;
      return strict(buf, be ? 'utf-16be' : 'utf-16le', false, encoding, where);
    }
    case 'utf-16-le':
    case 'utf-16le':
      return strict(buf, 'utf-16le', true, encoding, where);
    case 'utf-16-be':
    case 'utf-16be':
      return strict(buf, 'utf-16be', true, encoding, where);
    default:
      return strict(buf, name, true, encoding, where);
  }
}

function strict(buf: Buffer, label: string, keepBom: boolean, encoding: unknown, where: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true, ignoreBOM: keepBom });
  } catch {
    throw configError(
      `${where}: unknown text encoding ${JSON.stringify(encoding)}; use a name such as utf-8, utf-8-sig, latin-1, utf-16 or cp1252.`,
    );
  }
  try {
    return decoder.decode(buf);
  } catch {
    throw undecodable(encoding, where);
  }
}

function undecodable(encoding: unknown, where: string): Error {
  return systemError(
    `${where}: the response is not valid ${String(encoding ?? 'utf-8')} text; set the decoder's encoding to the one the API uses.`,
  );
}

// The raw bytes behind a response body, and the text a test read shows for it (§10.3 shows the body as
// text). Binary bodies (gzip, zip, anything with NUL bytes) are shown as a short placeholder instead
// of megabytes of mojibake; decoders read the bytes.
import type { HttpResponse } from '../types';
import { DEFAULT_MAX_RESPONSE_BYTES } from './limits';

/**
 * Attaches the raw bytes (when the text cannot reproduce them) and the size cap to a response without
 * changing its visible shape.
 */
export function attachBody(response: HttpResponse, bytes: Uint8Array | null, maxBytes: number): HttpResponse {
  if (bytes) Object.defineProperty(response, 'bodyBytes', { value: bytes, enumerable: false, writable: true, configurable: true });
  Object.defineProperty(response, 'maxBodyBytes', { value: maxBytes, enumerable: false, writable: true, configurable: true });
  return response;
}

/** The body's bytes: the raw bytes when the transport kept them, else the UTF-8 encoding of the text. */
export function bodyBytes(response: Pick<HttpResponse, 'body' | 'bodyBytes'>): Uint8Array {
  return response.bodyBytes ?? Buffer.from(response.body ?? '', 'utf8');
}

/** The largest body (inflated data included) a decoder may produce for this response, in bytes. */
export function bodyLimit(response: Pick<HttpResponse, 'maxBodyBytes'>): number {
  return response.maxBodyBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
}

/** What kind of binary data the bytes start with, or null for text. */
export function binaryKind(bytes: Uint8Array): 'gzip' | 'zip' | 'binary' | null {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    (bytes[2] === 0x03 || bytes[2] === 0x05) &&
    (bytes[3] === 0x04 || bytes[3] === 0x06)
  )
    return 'zip';
  // Text bodies have no NUL bytes; looking at the head is enough to tell, and cheap on big bodies.
  const head = Math.min(bytes.length, 4096);
  for (let i = 0; i < head; i++) if (bytes[i] === 0) return 'binary';
  return null;
}

/** The body text of a response: text in the Content-Type's charset (UTF-8 by default), or a placeholder such as "<1234 bytes of gzip data>". */
export function bodyText(bytes: Uint8Array, contentType?: string): string {
  return readBodyText(bytes, contentType).text;
}

/**
 * The body text, and whether the raw bytes must be kept: valid UTF-8 text re-encodes to exactly the
 * bytes received, so only binary bodies, other charsets and invalid UTF-8 need them (this keeps the
 * memory of a plain JSON read unchanged).
 */
export function readBodyText(bytes: Uint8Array, contentType?: string): { text: string; keepBytes: boolean } {
  const kind = binaryKind(bytes);
  if (kind) return { text: `<${bytes.length} bytes of ${kind} data>`, keepBytes: true };
  const charset = /;\s*charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    try {
      return { text: new TextDecoder(charset).decode(bytes), keepBytes: true };
    } catch {
      // An unknown charset label: fall back to UTF-8 below.
    }
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return { text, keepBytes: text.includes('\ufffd') };
}

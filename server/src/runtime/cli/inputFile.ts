// Reading the CLI's input files with a bound: a manifest or config is text of at most a few
// megabytes, so `validate /dev/zero`, a FIFO fed forever or a huge file stops at the cap instead of
// reading until memory runs out, and a binary file is named as such instead of parsed as YAML.
import { closeSync, openSync, readSync } from 'node:fs';

/** Largest input file read, in bytes (the largest real manifests are about 1.3 MB). */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

export type InputText = { text: string } | { error: string };

/**
 * Reads `path` as UTF-8 text of at most `maxBytes`. The error (one line, no trailing newline) says
 * why the file is not usable: unreadable (with the system code), too large, or not text.
 */
export function readInputText(path: string, maxBytes = MAX_INPUT_BYTES): InputText {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return { error: `cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Chunked reads work for regular files, devices and pipes alike; one byte past the cap is enough to refuse.
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - size));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      size += n;
      if (size > maxBytes)
        return { error: `larger than ${maxBytes} bytes; not read (a manifest or config is text of a few megabytes at most)` };
    }
  } catch (e) {
    return { error: `cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
  const bytes = Buffer.concat(chunks, size);
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { error: `not a YAML text: binary data (a NUL byte at offset ${nul})` };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { error: 'not a YAML text: the bytes are not valid UTF-8' };
  }
}

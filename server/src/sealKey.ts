// The key that opens sealed configs (protocol.ts). The extension passes it through a pipe whose file
// descriptor SEAL_KEY_FD_ENV names: the server reads it once at start and closes the pipe, so the key
// is not in /proc/<pid>/environ nor inherited by anything this process starts. SEAL_KEY_ENV (the key
// itself in the environment) is still read for older callers, and removed at once.
import { closeSync, readFileSync } from 'node:fs';
import { SEAL_KEY_ENV, SEAL_KEY_FD_ENV } from './protocol';

function readSealKey(): string | undefined {
  const fdText = process.env[SEAL_KEY_FD_ENV];
  const fromEnv = process.env[SEAL_KEY_ENV];
  delete process.env[SEAL_KEY_FD_ENV];
  delete process.env[SEAL_KEY_ENV];
  const fd = Number(fdText);
  // Only a descriptor past stdio, and only when the caller said there is one: a read blocks until the pipe closes.
  if (fdText && Number.isInteger(fd) && fd > 2) {
    try {
      const key = readFileSync(fd, 'utf8').trim();
      return key || undefined;
    } catch {
      return undefined;
    } finally {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    }
  }
  return fromEnv || undefined;
}

export const sealKey: string | undefined = readSealKey();

// Writes a config the connector updated (a rotated single-use refresh token) back to the user's
// config file. A rotated token that is lost breaks the connection for good, so: the file is replaced
// atomically (temporary file in the same folder, then rename) keeping its mode and owner; a symlink is
// never written through (shared/userFiles.ts: the new config goes to a recovery file); a read-only file is not overwritten (rename would bypass its mode);
// no temporary copy is left behind; and when the file cannot be written the new config goes to a
// recovery file (mode 0600, beside the config or else in the home folder) whose path is printed.
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export type WriteBackResult =
  | { ok: true; path: string }
  /** `recoveredAt` is the recovery file holding the new config, or null when none could be written. */
  | { ok: false; reason: string; recoveredAt: string | null };

/** Writes `text` to a new file `path` (failing if it exists) with `mode`, flushed to disk; removes it again on failure. */
function writeNewFile(path: string, text: string, mode: number, owner?: Stats): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
    if (owner && (owner.uid !== process.getuid?.() || owner.gid !== process.getgid?.())) fchownSync(fd, owner.uid, owner.gid);
    fchmodSync(fd, mode);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(path);
    throw e;
  }
  closeSync(fd);
}

function tempName(dir: string, name: string): string {
  return join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Replaces `configFile` with `text`; on failure (or when it is a link) saves `text` to a recovery file. */
export function writeBackConfig(configFile: string, text: string, now: Date = new Date()): WriteBackResult {
  let target = configFile;
  let reason: string | null = null;
  try {
    // The files policy (docs/security.md, "Files"): never write through a link, wherever it leads.
    if (lstatSync(configFile).isSymbolicLink()) {
      let to = '(a missing file)';
      try {
        to = realpathSync(configFile);
      } catch {
        /* dangling */
      }
      return {
        ok: false,
        reason: `${configFile} is a symbolic link (to ${to}) and is never written through`,
        recoveredAt: saveRecovery(configFile, text, now),
      };
    }
    target = realpathSync(configFile);
    const st = statSync(target);
    // As root every file is writable; the missing write bits still say "do not change this file".
    if ((st.mode & 0o222) === 0) reason = `${configFile} is read-only (mode ${(st.mode & 0o777).toString(8)}); it was not overwritten`;
    else {
      const tmp = tempName(dirname(target), basename(target));
      try {
        writeNewFile(tmp, text, st.mode & 0o7777, st);
        renameSync(tmp, target);
        return { ok: true, path: target };
      } catch (e) {
        try {
          unlinkSync(tmp);
        } catch {
          /* never created, or already renamed */
        }
        throw e;
      }
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    reason = `${configFile} could not be rewritten (${err.code ?? err.message})`;
  }
  return { ok: false, reason, recoveredAt: saveRecovery(target, text, now) };
}

/** Saves the new config where the user can find it: beside the config, else in the home folder. */
function saveRecovery(target: string, text: string, now: Date): string | null {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const name = `${basename(target).replace(/\.json$/i, '')}.rotated-${stamp}.json`;
  for (const dir of [dirname(target), homedir()]) {
    const path = join(dir, name);
    try {
      writeNewFile(path, text, 0o600);
      return path;
    } catch {
      // Not writable there (writeNewFile removed anything it created): try the next place.
    }
  }
  return null;
}

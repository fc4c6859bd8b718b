// The one policy for files read or written on the user's behalf (config.json imports, cassettes,
// expectations, manifests read from disk, the CLI's config write-back): a file is read with a size
// cap, a symbolic link that leads outside the manifest's folder tree is refused unless the caller
// says the user confirmed it, and nothing is ever written through a link. A repository can commit
// `config.json -> ../other-project/secrets/config.json` or `cassettes/x.yaml -> ~/.bashrc`; opening
// it must not read another project's secrets nor overwrite a file elsewhere.
// Node only (no vscode): the CLI, the language server and the extension host all use it.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
  fsyncSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Largest file read on the user's behalf (docs/security.md): six times the largest real manifest. */
export const MAX_USER_FILE_BYTES = 8 * 1024 * 1024;

/** Where a path really leads, relative to the manifest's folder tree. */
export type PathCheck = {
  /** The absolute path as written (no link followed). */
  path: string;
  /** The path with every link followed; null when the file does not exist yet. */
  real: string | null;
  /** The file itself is a symbolic link. */
  isLink: boolean;
  /** A link on the way (the file or a folder) leads outside the folder tree; `real` says where. */
  linkLeavesTree: boolean;
};

function within(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * Checks `path` against the folder tree `root` (the manifest's folder). A path that is outside the
 * tree as written was chosen by the user (a CLI argument, a dialog) and is not a link problem; a
 * path inside the tree whose real location is outside it went through a link.
 */
export function checkUserPath(path: string, root: string | null): PathCheck {
  const abs = resolve(path);
  let isLink = false;
  try {
    isLink = lstatSync(abs).isSymbolicLink();
  } catch {
    /* does not exist yet */
  }
  // The real location of the file, or of its nearest existing folder for a file still to be made.
  let real = realOrNull(abs);
  let probe = real ?? abs;
  if (real === null) {
    let dir = dirname(abs);
    let tail = basename(abs);
    for (;;) {
      const r = realOrNull(dir);
      if (r !== null) {
        probe = join(r, tail);
        break;
      }
      const up = dirname(dir);
      if (up === dir) break;
      tail = join(basename(dir), tail);
      dir = up;
    }
    // A dangling link: where it points, resolved against its folder.
    if (isLink) real = null;
  }
  let linkLeavesTree = false;
  if (root !== null) {
    const rootAbs = resolve(root);
    const rootReal = realOrNull(rootAbs) ?? rootAbs;
    if (within(abs, rootAbs) || within(abs, rootReal)) linkLeavesTree = !within(probe, rootReal);
  }
  return { path: abs, real, isLink, linkLeavesTree };
}

export type ReadOptions = {
  /** The manifest's folder; links leading outside it are refused. Null: no tree (only the cap applies). */
  root: string | null;
  /** What the file is, for messages: "config.json", "the cassette". */
  what: string;
  maxBytes?: number;
  /** The user confirmed reading through a link that leaves the tree (editor only; the CLI never sets it). */
  allowLinkOutside?: boolean;
};

/** `code`: the system error code when the file could not be opened or read (ENOENT, EACCES…). */
export type ReadResult = { text: string } | { error: string; code?: string; linkOutside?: { real: string } };

/** The message for a link leaving the tree (shared by the CLI and the editor's confirmation). */
export function linkOutsideMessage(what: string, path: string, real: string): string {
  return (
    `${what} ${path} is a symbolic link to ${real}, outside the manifest's folder; not followed ` +
    "(a repository can link to another project's files). Copy the file into the folder if you mean to use it."
  );
}

/**
 * Reads a text file on the user's behalf: refuses a link that leaves the tree (unless confirmed),
 * reads at most `maxBytes` (so `/dev/zero` or an endless FIFO fails at once), and refuses binary or
 * non-UTF-8 content. Never throws.
 */
export function readUserFile(path: string, options: ReadOptions): ReadResult {
  const max = options.maxBytes ?? MAX_USER_FILE_BYTES;
  const check = checkUserPath(path, options.root);
  if (check.linkLeavesTree && !options.allowLinkOutside) {
    const real = check.real ?? '(a missing file)';
    return { error: linkOutsideMessage(options.what, path, real), linkOutside: { real } };
  }
  let fd: number;
  try {
    fd = openSync(check.path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return { error: `cannot read ${options.what} ${path} (${code})`, code };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // A pipe that trickles (or a writer that never ends) stops here rather than holding the caller.
  const deadline = Date.now() + 5000;
  try {
    if (fstatSync(fd).isDirectory()) return { error: `${options.what} ${path} is a folder, not a file` };
    // Chunked reads work for files, devices and pipes alike; one byte past the cap is enough to refuse.
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, max + 1 - size));
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        // A FIFO opened without blocking has nothing yet: wait for its writer briefly, as a blocking read would.
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          if (Date.now() > deadline) return { error: `${options.what} ${path} did not finish within 5 s (a pipe or device?); not read` };
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
          continue;
        }
        throw e;
      }
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      size += n;
      if (size > max) return { error: `${options.what} ${path} is larger than ${max} bytes; not read` };
    }
  } catch (e) {
    return { error: `cannot read ${options.what} ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
  const bytes = Buffer.concat(chunks, size);
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { error: `${options.what} ${path} is not text: binary data (a NUL byte at offset ${nul})` };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { error: `${options.what} ${path} is not text: the bytes are not valid UTF-8` };
  }
}

export type WriteResult = { ok: true } | { ok: false; error: string };

/**
 * Why `path` may not be written, or null when it may: the file itself is a link, or a folder on the
 * way is a link leaving the tree. (A write replaces the file; it never goes through a link.)
 */
export function writeRefusal(path: string, root: string | null, what: string): string | null {
  const check = checkUserPath(path, root);
  if (check.isLink) {
    const target = check.real ?? '(a missing file)';
    return `${what} ${path} is a symbolic link (to ${target}); not written through it. Remove the link, or choose another file.`;
  }
  if (check.linkLeavesTree)
    return `${what} ${path} is in a folder that links outside the manifest's folder; not written there. Remove the link, or choose another file.`;
  return null;
}

/**
 * Writes `text` to `path` on the user's behalf: refused (see {@link writeRefusal}) when a link is in
 * the way; otherwise written to a new temporary file beside it and renamed over it, so a link that
 * appears in between is replaced, never followed. Never throws.
 */
export function writeUserFile(path: string, text: string, options: { root: string | null; what: string; mode?: number }): WriteResult {
  const refused = writeRefusal(path, options.root, options.what);
  if (refused) return { ok: false, error: refused };
  const abs = resolve(path);
  const temp = join(dirname(abs), `.${basename(abs)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    // O_EXCL | O_NOFOLLOW: the temporary name cannot be a planted link or file.
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), options.mode ?? 0o644);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(temp, abs);
    return { ok: true };
  } catch (e) {
    if (fd !== null)
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    try {
      unlinkSync(temp);
    } catch {
      /* never made */
    }
    return { ok: false, error: `cannot write ${options.what} ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

// Spawns the language server (out/server.js over stdio) and hands it the sealing key through a pipe on
// file descriptor 3, never in its environment: /proc/<pid>/environ shows a process's environment for
// its whole life, to anything that can read it. No `vscode` import, so the tests spawn the server the
// way the extension does.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { SEAL_KEY_FD_ENV } from '../../server/src/protocol';
import serverNodeFlags from '../serverNodeFlags.json';

/**
 * Node flags the server always runs with (also read by bench/lsp.mjs, which launches it the same way).
 * `--initial-old-space-size`: V8 starts the old generation small and grows it one full collection at a
 * time, so opening a large manifest began with a full collection (3-13 ms) on top of the young ones;
 * with room for a large manifest's analysis from the start, quickbooks' open took 118 instead of 156
 * ms on one core and 94 instead of 104 on two (docs/editor.md, "Speed, round 8").
 */
export const SERVER_NODE_FLAGS: readonly string[] = serverNodeFlags;

/** The file descriptor of the key pipe in the server process. */
const KEY_FD = 3;

/**
 * Starts `serverModule` with Node (the extension host's own runtime) and writes `sealKey` into its key
 * pipe, then closes the pipe. `execArgv` go before the module (e.g. `--enable-source-maps`), after
 * SERVER_NODE_FLAGS.
 */
export function spawnLanguageServer(
  serverModule: string,
  sealKey: string,
  execArgv: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...execArgv, serverModule, '--stdio', `--clientProcessId=${process.pid}`], {
    // The extension host may be Electron: run it as plain Node, as vscode-languageclient's fork does.
    env: { ...env, ELECTRON_RUN_AS_NODE: '1', [SEAL_KEY_FD_ENV]: String(KEY_FD) },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  const keyPipe = child.stdio[KEY_FD] as Writable | null;
  // A server that exits early closes its end: that error is its exit's business, not the pipe's.
  keyPipe?.on('error', () => {});
  keyPipe?.end(sealKey);
  return child;
}

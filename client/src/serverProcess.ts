// Spawns the language server (out/server.js over stdio) and hands it the sealing key through a pipe on
// file descriptor 3, never in its environment: /proc/<pid>/environ shows a process's environment for
// its whole life, to anything that can read it. No `vscode` import, so the tests spawn the server the
// way the extension does.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { SEAL_KEY_FD_ENV } from '../../server/src/protocol';

/** The file descriptor of the key pipe in the server process. */
const KEY_FD = 3;

/**
 * Starts `serverModule` with Node (the extension host's own runtime) and writes `sealKey` into its key
 * pipe, then closes the pipe. `execArgv` go before the module (e.g. `--enable-source-maps`).
 */
export function spawnLanguageServer(
  serverModule: string,
  sealKey: string,
  execArgv: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const child = spawn(process.execPath, [...execArgv, serverModule, '--stdio', `--clientProcessId=${process.pid}`], {
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

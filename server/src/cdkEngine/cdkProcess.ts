// Runs the CDK's connector-builder entry point (`python -m airbyte_cdk.connector_builder.main read
// --config … --catalog … [--state …]`) in a process group of its own, with its inputs in a private
// temporary folder (0700, files 0600) removed afterwards: the config holds the testing values, so it
// never goes into arguments or the environment. Cancelling kills the whole group (a component may
// start processes of its own).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The files of one run: the config (with the reserved `__` keys), the catalog and the optional state. */
export type BuilderInputs = { config: object; catalog: object; state?: object[] };

export type BuilderRun = { stdout: string; stderr: string; exitCode: number | null; signal: NodeJS.Signals | null; cancelled: boolean };

export type BuilderRunOptions = {
  signal?: AbortSignal;
  /** Extra environment variables (never the config): the custom-code gate, the loopback relay's address. */
  env?: Record<string, string>;
  /** Called with where the config file was written, while it exists (tests check its mode). */
  onInputsWritten?: (dir: string) => void;
};

// Started with `python -c`: optionally routes every HTTP request of `requests` to the loopback relay
// (see loopbackRelay.ts: a cassette replay or recording), then runs the CDK's own entry point module as `__main__`.
// The request shown in the StreamRead stays the original one: the copy sent is re-pointed, and the
// response is handed back with the original request.
const BOOTSTRAP = [
  'import os, runpy, sys',
  'relay = os.environ.pop("AIRBYTE_STUDIO_RELAY_URL", None)',
  'if relay:',
  '    import requests.adapters',
  '    _send = requests.adapters.HTTPAdapter.send',
  '    def send(self, request, *args, **kwargs):',
  '        routed = request.copy()',
  '        routed.headers["X-Relay-Url"] = request.url',
  '        routed.url = relay',
  '        kwargs["proxies"] = {}',
  '        response = _send(self, routed, *args, **kwargs)',
  '        response.request = request',
  '        response.url = request.url',
  '        return response',
  '    requests.adapters.HTTPAdapter.send = send',
  'runpy.run_module("airbyte_cdk.connector_builder.main", run_name="__main__", alter_sys=True)',
].join('\n');

/** Kills a process and every process of its group. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Runs one connector-builder request. Resolves when the process has exited; never rejects for its exit status. */
export async function runConnectorBuilder(python: string, inputs: BuilderInputs, options: BuilderRunOptions = {}): Promise<BuilderRun> {
  const dir = await mkdtemp(join(tmpdir(), 'airbyte-cdk-read-'));
  try {
    const configPath = join(dir, 'config.json');
    const catalogPath = join(dir, 'catalog.json');
    const statePath = join(dir, 'state.json');
    // mkdtemp makes the folder 0700; the files are 0600 and must not exist yet (no following a planted link).
    await writeFile(configPath, JSON.stringify(inputs.config), { mode: 0o600, flag: 'wx' });
    await writeFile(catalogPath, JSON.stringify(inputs.catalog), { mode: 0o600, flag: 'wx' });
    const args = ['-W', 'ignore', '-c', BOOTSTRAP, 'read', '--config', configPath, '--catalog', catalogPath];
    if (inputs.state) {
      await writeFile(statePath, JSON.stringify(inputs.state), { mode: 0o600, flag: 'wx' });
      args.push('--state', statePath);
    }
    options.onInputsWritten?.(dir);
    return await new Promise<BuilderRun>((resolve, reject) => {
      if (options.signal?.aborted) {
        resolve({ stdout: '', stderr: '', exitCode: null, signal: null, cancelled: true });
        return;
      }
      const env: NodeJS.ProcessEnv = { ...process.env, PYTHONIOENCODING: 'utf-8', PYTHONUNBUFFERED: '1', ...options.env };
      if (!options.env?.AIRBYTE_STUDIO_RELAY_URL) delete env.AIRBYTE_STUDIO_RELAY_URL;
      const child = spawn(python, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', env });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let cancelled = false;
      let forceKill: NodeJS.Timeout | undefined;
      const onAbort = () => {
        cancelled = true;
        killGroup(child.pid, 'SIGTERM');
        // A component that ignores SIGTERM still ends.
        forceKill = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 2000);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (e) => {
        options.signal?.removeEventListener('abort', onAbort);
        reject(e);
      });
      child.on('close', (exitCode, signal) => {
        options.signal?.removeEventListener('abort', onAbort);
        if (forceKill) clearTimeout(forceKill);
        // Whatever the entry point started in its group goes with it.
        if (cancelled) killGroup(child.pid, 'SIGKILL');
        resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode, signal, cancelled });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

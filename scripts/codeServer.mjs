// code-server, the browser VS Code that `npm start` and the end-to-end tests both run: installing it
// (test/e2e/setup.sh), installing our .vsix into an instance, starting an instance in a process group
// of its own, and stopping it. One copy of this code, so the tests start VS Code the way users do.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs test/e2e/setup.sh (idempotent; a cold install takes a few minutes) and resolves with its
 * KEY=value lines: NODE24, CODE_SERVER_ENTRY, CHROMIUM, PLAYWRIGHT_CORE. Its progress goes to stderr.
 * Aborting `signal` ends it.
 */
export function installTools(root, signal) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(root, 'test', 'e2e', 'setup.sh')], { stdio: ['ignore', 'pipe', 'inherit'], signal });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`test/e2e/setup.sh failed (exit ${code}); its messages are above`));
        return;
      }
      const tools = {};
      for (const line of out.split('\n')) {
        const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
        if (m) tools[m[1]] = m[2];
      }
      const missing = ['NODE24', 'CODE_SERVER_ENTRY', 'CHROMIUM', 'PLAYWRIGHT_CORE'].filter((k) => !tools[k]);
      if (missing.length) reject(new Error(`test/e2e/setup.sh did not print ${missing.join(', ')}`));
      else resolve(tools);
    });
  });
}

/** The folders of one code-server instance under `dir` (user data, extensions, XDG homes, logs). */
export function instanceDirs(dir) {
  return {
    dir,
    userData: join(dir, 'ud'),
    extensions: join(dir, 'exts'),
    config: join(dir, 'config.yaml'),
    log: join(dir, 'code-server.log'),
    // XDG homes inside the instance folder: code-server writes nothing under the user's HOME.
    env: {
      XDG_CONFIG_HOME: join(dir, 'xdg', 'config'),
      XDG_DATA_HOME: join(dir, 'xdg', 'data'),
      XDG_CACHE_HOME: join(dir, 'xdg', 'cache'),
    },
  };
}

/** Creates the instance folders and its config (no password: it listens on 127.0.0.1 only). */
export function prepareInstance(dir) {
  const d = instanceDirs(dir);
  for (const p of [join(d.userData, 'User'), d.extensions, ...Object.values(d.env)]) mkdirSync(p, { recursive: true });
  writeFileSync(d.config, 'auth: none\ncert: false\n');
  return d;
}

/** Runs code-server's CLI once (e.g. --install-extension) against the instance; rejects with its output. */
export function codeServerCli(tools, dir, args) {
  const d = instanceDirs(dir);
  return new Promise((resolve, reject) => {
    const child = spawn(
      tools.NODE24,
      [tools.CODE_SERVER_ENTRY, '--config', d.config, '--user-data-dir', d.userData, '--extensions-dir', d.extensions, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...d.env } },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`code-server ${args.join(' ')} failed (exit ${code}):\n${out.slice(-2000)}`)),
    );
  });
}

/** Installs a .vsix into the instance's extensions folder, as "Install from VSIX…" does. */
export async function installVsix(tools, dir, vsixPath) {
  const out = await codeServerCli(tools, dir, ['--install-extension', vsixPath, '--force']);
  if (!/successfully installed/i.test(out)) throw new Error(`code-server did not confirm installing ${vsixPath}:\n${out.slice(-2000)}`);
}

/**
 * Starts code-server on 127.0.0.1 in a process group of its own (so stopping it stops its extension
 * hosts and language servers too) and resolves with `{ url, pid, stop }` once it listens. Its output
 * goes to the instance's code-server.log. `port` 0 picks a free port.
 */
export function startCodeServer(tools, dir, { port = 0, extraArgs = [], env = {}, idleTimeoutSeconds, startTimeoutMs = 60_000 } = {}) {
  const d = instanceDirs(dir);
  const argv = [
    tools.CODE_SERVER_ENTRY,
    '--config',
    d.config,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir',
    d.userData,
    '--extensions-dir',
    d.extensions,
    ...extraArgs,
  ];
  // A backstop when whoever started it dies without stopping it (code-server exits after that long with no window open).
  if (idleTimeoutSeconds) argv.push('--idle-timeout-seconds', String(idleTimeoutSeconds));
  const child = spawn(tools.NODE24, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...d.env, ...env } });
  const logFile = createWriteStream(d.log);
  child.stdout.pipe(logFile);
  child.stderr.pipe(logFile);
  const stop = () => killGroup(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (message) => {
      clearTimeout(timer);
      stop().finally(() => reject(new Error(message)));
    };
    const timer = setTimeout(
      () => fail(`code-server did not start within ${startTimeoutMs / 1000} s (log: ${d.log}):\n${out.slice(-2000)}`),
      startTimeoutMs,
    );
    const onData = (chunk) => {
      out += chunk.toString();
      if (process.env.E2E_VERBOSE) process.stderr.write(chunk);
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], pid: child.pid, child, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => fail(`code-server could not be started: ${e.message}`));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${signal ?? code}) (log: ${d.log}):\n${out.slice(-2000)}`));
    });
  });
}

/** TERM then, after 5 s, KILL the process group of a detached child we started; resolves once it is gone. */
export async function killGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
  if (!done) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
  }
}

/** `vscode-remote://host:port/abs/path`: how the browser workbench names a file on the code-server host. */
export function remoteUri(baseUrl, absolutePath) {
  return `vscode-remote://${new URL(baseUrl).host}${absolutePath}`;
}

/** The workbench URL that opens `folder` and, optionally, a file in it; `payload` adds more entries. */
export function workbenchUrl(baseUrl, folder, { openFile, payload = [] } = {}) {
  const entries = [...payload, ...(openFile ? [['openFile', remoteUri(baseUrl, openFile)]] : [])];
  const query = `folder=${encodeURIComponent(folder)}${entries.length ? `&payload=${encodeURIComponent(JSON.stringify(entries))}` : ''}`;
  return `${baseUrl}/?${query}`;
}

/** Chromium (Debian's, driven by playwright-core), headless, with the flags that work in a container. */
export async function launchChromium(tools) {
  const { createRequire } = await import('node:module');
  const { chromium } = createRequire(import.meta.url)(tools.PLAYWRIGHT_CORE);
  return chromium.launch({
    executablePath: tools.CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

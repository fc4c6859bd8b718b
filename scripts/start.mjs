// `npm start`: installs dependencies when missing, builds, starts the demo API and opens demo/workspace
// with the extension in a real VS Code, showing a demo manifest:
// - with a local desktop `code` CLI: a new window with --extensionDevelopmentPath (edit, reload, debug);
// - otherwise code-server on 127.0.0.1 (installed into .e2e/cache/ by test/e2e/setup.sh on first use),
//   with the extension packaged as a .vsix and installed into that instance, as "Install from VSIX…"
//   does. Before printing the URL it opens the URL once in headless Chromium and waits for the
//   extension's activation report: the URL is only printed when the extension is known to work there.
// Ctrl+C stops everything it started. The end-to-end test (test/e2e/startScript.mjs) runs this script.
//
// Usage: npm start [-- <folder>]. The folder (default demo/workspace) is opened instead of the demo
// workspace, with its manifest.yaml when it has one; the demo API is started either way.
//
// Environment: CODE_SERVER_PORT (8080; 0 = any free port), DEMO_API_PORT (8787), START_WITH_CODE_SERVER=1
// (code-server even when `code` exists), START_STATE_DIR (code-server's user data and extensions,
// default .e2e/start), E2E_CACHE_DIR (where code-server is installed, default .e2e/cache).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installTools, installVsix, launchChromium, prepareInstance, startCodeServer, workbenchUrl } from './codeServer.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_WORKSPACE = join(ROOT, 'demo', 'workspace');
/** The manifest the window opens on: one stream, API-key auth, offset pagination. */
export const DEMO_MANIFEST = join(DEMO_WORKSPACE, 'offset-increment.yaml');
/** Set in the VS Code's environment; the extension writes its activation report there (client/src/activationReport.ts). */
const ACTIVATION_REPORT_ENV = 'AIRBYTE_STUDIO_ACTIVATION_REPORT';
const ACTIVATION_TIMEOUT_MS = 120_000;
const T0 = Date.now();
/** Progress lines carry the seconds since the start, so a slow step is visible. */
const say = (m) => console.log(`[start ${((Date.now() - T0) / 1000).toFixed(1)}s] ${m}`);

/** Runs a command to completion with inherited output; rejects when it fails or `signal` aborts. */
function run(cmd, args, opts = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
    child.on('error', (e) => reject(e.name === 'AbortError' ? e : new Error(`${cmd} could not be started: ${e.message}`)));
    child.on('exit', (code, signal) =>
      code === 0 ? resolveRun() : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Starts the demo API (scripts/demoApi.mjs) as a child; resolves with its URL and a stop function. */
function startDemoApi(port) {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demoApi.mjs'), '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise((r) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        r();
        return;
      }
      child.once('exit', () => r());
      child.kill('SIGTERM');
    });
  return new Promise((resolveStart, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolveStart({ url: m[1], pid: child.pid, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) =>
      reject(
        new Error(
          `the demo API exited (${code})${/EADDRINUSE/.test(out) ? `: port ${port} is in use; set DEMO_API_PORT to another port` : `:\n${out.slice(-1500)}`}`,
        ),
      ),
    );
  });
}

/** Settings of the code-server instance (the demo workspace's own settings are in demo/workspace/.vscode). */
function writeUserSettings(userData) {
  const file = join(userData, 'User', 'settings.json');
  if (existsSync(file)) return; // the user's changes survive restarts
  writeFileSync(
    file,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        // Also in demo/workspace/.vscode/settings.json; repeated here because the browser workbench lays
        // itself out before it has read the settings of a folder on the server, on a first visit.
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      null,
      2,
    ),
  );
}

/** Waits for the activation report file; resolves with the parsed report, or undefined on timeout. */
async function waitForReport(file, timeoutMs, signal) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        /* being written: read again */
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

/** The last lines of the newest extension-host log of a code-server instance, to explain a failure. */
export function extensionHostLogTail(userData) {
  const logs = join(userData, 'logs');
  if (!existsSync(logs)) return undefined;
  const sessions = readdirSync(logs)
    .map((d) => join(logs, d))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const session of sessions) {
    for (const host of readdirSync(session).filter((d) => d.startsWith('exthost'))) {
      const file = join(session, host, 'remoteexthost.log');
      if (existsSync(file)) return { file, tail: readFileSync(file, 'utf8').trim().split('\n').slice(-15).join('\n') };
    }
  }
  return undefined;
}

/** Explains a bad or missing activation report; undefined when the report shows the installed copy ran. */
export function activationProblem(report, extensionsDir) {
  if (!report)
    return `the extension wrote no activation report within ${ACTIVATION_TIMEOUT_MS / 1000} s: it was not loaded, or its activation hung`;
  if (!report.ok) return `the extension failed to activate:\n${report.error}`;
  if (report.mode !== 'production' || !resolve(report.extensionPath).startsWith(resolve(extensionsDir) + sep)) {
    return `VS Code ran the extension from ${report.extensionPath} (${report.mode}), not the copy installed in ${extensionsDir}`;
  }
  return undefined;
}

/**
 * Opens the workbench URL once in headless Chromium and waits for the extension's activation report,
 * so a URL that shows VS Code without the extension is never handed out.
 */
async function verifyActivation(tools, url, reportFile, instance, signal) {
  const browser = await launchChromium(tools);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    const report = await waitForReport(reportFile, ACTIVATION_TIMEOUT_MS, signal);
    // A regular close lets the workbench end its extension host instead of keeping it for a reconnection.
    await page.close({ runBeforeUnload: true }).catch(() => {});
    const problem = activationProblem(report, instance.extensions);
    if (problem) {
      const log = extensionHostLogTail(instance.userData);
      // A failed activation already carries its error; otherwise the host's last lines tell what happened.
      const where = !log
        ? `no extension host log under ${instance.userData}/logs`
        : report && !report.ok
          ? `extension host log: ${log.file}`
          : `extension host log ${log.file}, last lines:\n${log.tail}`;
      throw new Error(`${problem}\n${where}`);
    }
    return report;
  } finally {
    await browser.close().catch(() => {});
  }
}

/**
 * Starts the product as `npm start` does and resolves with `{ url, demoUrl, stop }` (`url` is undefined
 * for desktop VS Code). `stop()` ends everything it started; aborting `signal` during the start stops
 * what was started so far and rejects. Progress goes to `log`.
 */
export async function startProduct({
  codeServerPort = Number(process.env.CODE_SERVER_PORT ?? 8080),
  demoPort = Number(process.env.DEMO_API_PORT ?? 8787), // the demo manifests' url_base port
  desktop = hasCommand('code') && !process.env.START_WITH_CODE_SERVER,
  stateDir = resolve(process.env.START_STATE_DIR ?? join(ROOT, '.e2e', 'start')),
  folder = DEMO_WORKSPACE,
  log = say,
  signal,
} = {}) {
  const stops = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch((e) => log(`while stopping: ${e.message}`));
  };
  // Ends the code-server install when the start fails or is interrupted before it is needed.
  const setupAbort = new AbortController();
  signal?.addEventListener('abort', () => setupAbort.abort(), { once: true });
  try {
    // code-server's install (minutes on the first run) goes on while npm installs and builds.
    let tools;
    if (!desktop) {
      log('checking code-server (test/e2e/setup.sh; the first run installs it into .e2e/cache/, a few minutes)');
      tools = installTools(ROOT, setupAbort.signal);
      tools.catch(() => {}); // awaited below; no unhandled rejection while npm ci runs
    }
    if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) {
      log('installing dependencies (npm ci)');
      await run('npm', ['ci', '--no-audit', '--no-fund'], { signal, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
    }
    log('building');
    await run(process.execPath, ['esbuild.mjs'], { signal });
    if (!existsSync(DEMO_MANIFEST)) throw new Error(`${DEMO_MANIFEST} is missing from this checkout`);
    const opened = folderToOpen(folder);

    const demo = await startDemoApi(demoPort);
    stops.push(demo.stop);
    signal?.throwIfAborted();
    log(`demo API: ${demo.url}`);
    if (!demo.url.endsWith(':8787'))
      log(`note: the demo's config.json expects port 8787; enter ${demo.url} as url_base in the testing values`);

    if (desktop) {
      await openDesktop(stateDir, opened, log, signal);
      return { url: undefined, demoUrl: demo.url, stop };
    }

    const instance = prepareInstance(stateDir);
    writeUserSettings(instance.userData);
    log('packaging the extension (.vsix)');
    const { packageVsix } = await import('./vsix.mjs');
    const vsix = await packageVsix(join(stateDir, 'airbyte-manifest-studio.vsix'), ROOT, { quiet: true });
    log(`packaged ${vsix} (${Math.round(statSync(vsix).size / 1024)} KB)`);
    signal?.throwIfAborted();
    if (!(await Promise.race([tools.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]))) {
      log('waiting for the code-server install (test/e2e/setup.sh)');
    }
    const ready = await tools;
    signal?.throwIfAborted();
    log('installing the .vsix into code-server');
    await installVsix(ready, stateDir, vsix);

    const reportFile = join(stateDir, 'activation-report.json');
    rmSync(reportFile, { force: true });
    const server = await startCodeServer(ready, stateDir, { port: codeServerPort, env: { [ACTIVATION_REPORT_ENV]: reportFile } }).catch(
      (e) => {
        throw /EADDRINUSE|address already in use/i.test(e.message)
          ? new Error(`port ${codeServerPort} is in use; set CODE_SERVER_PORT to another port (0 = any free port)`)
          : e;
      },
    );
    stops.push(server.stop);
    signal?.throwIfAborted();
    log(`code-server (pid ${server.pid}) at ${server.url}`);
    const url = workbenchUrl(server.url, opened.folder, opened.file ? { openFile: opened.file } : {});

    log('checking that the extension activates in code-server (opens the URL once in headless Chromium)');
    const report = await verifyActivation(ready, url, reportFile, instance, signal);
    log(`extension ${report.version} activated from ${report.extensionPath} in ${report.activationMs} ms (language server included)`);
    return { url, demoUrl: demo.url, codeServerPid: server.pid, stop };
  } catch (e) {
    setupAbort.abort();
    await stop();
    throw e;
  }
}

/**
 * The folder to open (absolute) and the file to show in it: the demo manifest in the demo workspace,
 * else the folder's manifest.yaml when there is one. Throws with a clear message for a missing folder.
 */
export function folderToOpen(folder) {
  const abs = resolve(folder);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Error(`${folder} is not a folder; usage: npm start [-- <folder>]`);
  if (abs === resolve(DEMO_WORKSPACE)) return { folder: abs, file: DEMO_MANIFEST };
  const manifest = join(abs, 'manifest.yaml');
  return { folder: abs, file: existsSync(manifest) ? manifest : undefined };
}

/** Desktop VS Code: a new window with the extension in development mode, on the demo manifest. */
async function openDesktop(stateDir, opened, log, signal) {
  const reportFile = join(stateDir, 'activation-report.json');
  rmSync(reportFile, { force: true });
  mkdirSync(stateDir, { recursive: true });
  log('opening VS Code with the extension in development mode (--extensionDevelopmentPath)');
  await run('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, opened.folder, ...(opened.file ? [opened.file] : [])], {
    signal,
    env: { ...process.env, [ACTIVATION_REPORT_ENV]: reportFile },
  });
  const report = await waitForReport(reportFile, ACTIVATION_TIMEOUT_MS, signal);
  if (report?.ok) log(`extension ${report.version} activated in ${report.activationMs} ms (language server included)`);
  else if (report) throw new Error(`the extension failed to activate in VS Code:\n${report.error}`);
  else
    log(
      `no activation report within ${ACTIVATION_TIMEOUT_MS / 1000} s: if the window shows no "Run stream" lens, see Help > Toggle Developer Tools and the "Airbyte Manifest" output`,
    );
}

async function main() {
  // Ctrl+C while starting aborts the start (which stops what was started); once running, it stops all.
  const abort = new AbortController();
  let product;
  // biome-ignore lint/correctness/noUnusedVariables: read by `??=` below, so a second signal does not stop twice
  let stopping;
  const shutdown = (signal) => {
    if (!product) {
      abort.abort();
      return;
    }
    stopping ??= (async () => {
      say(`${signal}: stopping ${product.url ? 'code-server and ' : ''}the demo API`);
      await product.stop();
      say('stopped');
      process.exit(0);
    })();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => shutdown(signal));
  try {
    const folder = process.argv[2];
    product = await startProduct({ signal: abort.signal, ...(folder ? { folder } : {}) });
  } catch (e) {
    if (abort.signal.aborted) {
      say('interrupted; everything it started is stopped');
      process.exit(130);
    }
    throw e;
  }
  if (product.url) {
    console.log(`\nOpen this URL in a browser (Ctrl+C here stops code-server and the demo API):\n\n  ${product.url}\n`);
  }
  if (!process.argv[2] || resolve(process.argv[2]) === resolve(DEMO_WORKSPACE)) {
    say(
      'The window shows demo/workspace/offset-increment.yaml. Click "Set testing values" above `spec` (or run a stream and choose "Import config.json"), then "Run stream items".',
    );
  } else {
    say(`The window shows ${resolve(process.argv[2])}. Open a manifest: "Run stream" appears above each stream.`);
  }
  if (!product.url) say('the demo API keeps running; Ctrl+C stops it');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`[start] ${e.message}`);
    process.exit(1);
  });
}

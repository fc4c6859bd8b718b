// End-to-end runner: installs (once) and starts a real VS Code (code-server + Chromium via
// playwright-core), runs the mocha suites inside the extension host, then drives the UI and saves
// screenshots under .e2e/screenshots/. Exit code 0 only when both phases pass. Kills only what it started.
//   usage: node test/e2e/run.mjs [--host-only | --ui-only] [--grep <text>]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, cpSync, readdirSync, createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { buildE2eBundles } from './buildBundles.mjs';
import { runUiScenario } from './ui/scenario.mjs';
import { scanForSecrets, secretNeedles } from './secretScan.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const hostOnly = args.includes('--host-only');
const uiOnly = args.includes('--ui-only');
const grepAt = args.indexOf('--grep');
const grep = grepAt >= 0 ? args[grepAt + 1] : undefined;
const RUN = join(ROOT, '.e2e', 'run');
const SCREENSHOTS = join(ROOT, '.e2e', 'screenshots');
const HOST_TIMEOUT_MS = 4 * 60_000;
const TEST_OUTPUT_PREFIX = '[e2e-host] ';

const started = []; // { kind, stop } of everything this runner started, stopped in reverse order
let stopping = false;
async function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const item of started.reverse()) {
    try { await item.stop(); } catch (e) { console.error(`[e2e] stopping ${item.kind}: ${e.message}`); }
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => { stopAll().finally(() => process.exit(130)); });
}

function log(msg) { console.log(`[e2e] ${msg}`); }

/** Runs the project's setup script and returns its KEY=value lines as an object. */
function setup() {
  const r = spawnSync('bash', [join(ROOT, 'test', 'e2e', 'setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`test/e2e/setup.sh failed (exit ${r.status})`);
  const env = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  for (const key of ['NODE24', 'CODE_SERVER_ENTRY', 'CHROMIUM', 'PLAYWRIGHT_CORE']) {
    if (!env[key]) throw new Error(`setup.sh did not print ${key}`);
  }
  return env;
}

/** Fresh run folder: user data, extensions dir, XDG dirs and a copy of the test workspace. */
function prepareRunFolder() {
  rmSync(RUN, { recursive: true, force: true });
  for (const d of ['ud', 'exts', 'xdg/config', 'xdg/data', 'xdg/cache', 'workspace']) mkdirSync(join(RUN, d), { recursive: true });
  writeFileSync(join(RUN, 'config.yaml'), 'auth: none\ncert: false\n');
  cpSync(join(ROOT, 'test', 'e2e', 'workspace'), join(RUN, 'workspace'), { recursive: true });
  // The demo manifests, without demo/workspace/config.json: the tests enter their own testing values.
  mkdirSync(join(RUN, 'workspace', 'demo'), { recursive: true });
  for (const f of readdirSync(join(ROOT, 'demo', 'workspace')).filter((n) => /\.ya?ml$/.test(n))) {
    cpSync(join(ROOT, 'demo', 'workspace', f), join(RUN, 'workspace', 'demo', f));
  }
  // Settings that keep the workbench quiet and deterministic (no welcome page, no trust prompt).
  mkdirSync(join(RUN, 'ud', 'User'), { recursive: true });
  writeFileSync(join(RUN, 'ud', 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'workbench.tips.enabled': false,
    'window.commandCenter': false,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'workbench.editor.enablePreview': false,
    // Edits stay unsaved until a step reverts them (code-server may default to saving after a delay).
    'files.autoSave': 'off',
  }, null, 2));
}

/** Starts code-server in its own process group; resolves with its base URL. */
function startCodeServer(tools, { smokeTestDriver }) {
  const argv = [tools.CODE_SERVER_ENTRY, '--config', join(RUN, 'config.yaml'), '--auth', 'none',
    '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--idle-timeout-seconds', '61', '--user-data-dir', join(RUN, 'ud'), '--extensions-dir', join(RUN, 'exts')];
  // Without this flag the extension-test payload is ignored and nothing runs (see e2e-recipe).
  if (smokeTestDriver) argv.push('--vscode-option', 'enable-smoke-test-driver');
  const env = { ...process.env, XDG_CONFIG_HOME: join(RUN, 'xdg/config'), XDG_DATA_HOME: join(RUN, 'xdg/data'), XDG_CACHE_HOME: join(RUN, 'xdg/cache') };
  const child = spawn(tools.NODE24, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  started.push({ kind: 'code-server', stop: () => killGroup(child) });
  const logFile = createWriteStream(join(RUN, 'code-server.log'));
  child.stdout.pipe(logFile);
  child.stderr.pipe(logFile);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${out.slice(-2000)}`)), 60_000);
    const onData = (chunk) => {
      out += chunk.toString();
      if (process.env.E2E_VERBOSE) process.stderr.write(chunk);
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\/?/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`code-server exited (${code}):\n${out.slice(-2000)}`)); });
  });
}

/** TERM then KILL the whole process group of a child we started. */
async function killGroup(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
  const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
  if (!done) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ } }
}

async function launchBrowser(tools) {
  const require = createRequire(import.meta.url);
  const { chromium } = require(tools.PLAYWRIGHT_CORE);
  const browser = await chromium.launch({
    executablePath: tools.CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  started.push({ kind: 'chromium', stop: () => browser.close() });
  return browser;
}

/** The demo API (with its auth routes) for the UI phase, loaded through tsx like scripts/demoApi.mjs. */
async function startDemo() {
  const { tsImport } = await import('tsx/esm/api');
  const { startDemoApi } = await tsImport('../../demo/api/server.ts', import.meta.url);
  const { authRoutes } = await tsImport('../../demo/api/authRoutes.ts', import.meta.url);
  const api = await startDemoApi({ port: 0, routes: [authRoutes] });
  started.push({ kind: 'demo API', stop: () => api.close() });
  return api;
}

/** Phase A: mocha inside the extension host; resolves with the exit code the workbench reports. */
async function runHostTests(browser, baseUrl, bundles) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let finish;
  const exitCode = new Promise((r) => { finish = r; });
  await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));
  // Test output arrives prefixed by the host runner; the workbench's own console goes to a log file.
  const consoleLog = createWriteStream(join(RUN, 'workbench-console.log'));
  await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
    const text = format(...(Array.isArray(logArgs) ? logArgs : [logArgs]));
    if (text.startsWith(TEST_OUTPUT_PREFIX)) console.log(text.slice(TEST_OUTPUT_PREFIX.length).replace(/\x1b\[[0-9;]*m/g, ''));
    else if (process.env.E2E_VERBOSE) console.error(text);
    consoleLog.write(`[${type}] ${text}\n`);
  });
  const remote = (p) => `vscode-remote://${new URL(baseUrl).host}${p}`;
  const payload = [['extensionDevelopmentPath', remote(ROOT)], ['extensionTestsPath', remote(bundles.indexPath)]];
  const url = `${baseUrl}/?folder=${encodeURIComponent(join(RUN, 'workspace'))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url);
  const timeout = new Promise((r) => setTimeout(() => r('timeout'), HOST_TIMEOUT_MS));
  const result = await Promise.race([exitCode, timeout]);
  if (result === 'timeout') {
    await page.screenshot({ path: join(SCREENSHOTS, 'host-timeout.png') }).catch(() => {});
    console.error(`[e2e] extension-host tests did not finish within ${HOST_TIMEOUT_MS / 1000} s`);
    return 1;
  }
  await page.close().catch(() => {});
  return result;
}

async function main() {
  const t0 = Date.now();
  log('installing or checking the tools (test/e2e/setup.sh; a cold install takes a few minutes)');
  const tools = setup();
  log(`tools ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const b = spawnSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('npm run build failed');
  const bundles = await buildE2eBundles(ROOT, join(ROOT, '.e2e', 'build'));
  prepareRunFolder();
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const f of readdirSync(SCREENSHOTS)) rmSync(join(SCREENSHOTS, f), { force: true });
  writeFileSync(join(RUN, 'e2e-options.json'), JSON.stringify({ grep: grep ?? null, screenshots: SCREENSHOTS }));

  const baseUrl = await startCodeServer(tools, { smokeTestDriver: true });
  log(`code-server at ${baseUrl}`);
  const browser = await launchBrowser(tools);
  let failures = 0;
  if (!uiOnly) {
    const t1 = Date.now();
    const code = await runHostTests(browser, baseUrl, bundles);
    log(`extension-host tests: exit ${code} in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    if (code !== 0) failures++;
  }
  if (!hostOnly) {
    const t2 = Date.now();
    const demo = await startDemo();
    const ok = await runUiScenario({ browser, baseUrl, root: ROOT, run: RUN, screenshots: SCREENSHOTS, log, demoUrl: demo.url });
    log(`UI scenario: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - t2) / 1000).toFixed(1)} s (screenshots in .e2e/screenshots)`);
    if (!ok) failures++;
  }
  await stopAll();
  // Chromium's profile (where the web workbench keeps SecretStorage) is excluded; everything else of the run is scanned.
  const leaks = scanForSecrets([join(RUN, 'ud'), join(RUN, 'workspace'), join(RUN, 'xdg'), join(RUN, 'exts'), join(RUN, 'code-server.log')], secretNeedles(RUN));
  if (leaks.length) {
    console.error(`[e2e] secret values found on disk:\n  ${leaks.join('\n  ')}`);
    failures++;
  } else {
    log('secret scan: no testing value or token in user data, workspace, logs or XDG folders');
  }
  log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return failures === 0 ? 0 : 1;
}

// Exit explicitly: stray handles (sockets of the stopped server) must not keep CI waiting.
main().then(
  (code) => process.exit(code),
  async (e) => { console.error(`[e2e] ${e.stack ?? e}`); await stopAll(); process.exit(1); },
);

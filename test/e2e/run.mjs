// End-to-end runner: installs (once) a real VS Code (code-server + Chromium via playwright-core), then
// three phases: `npm start` itself (test/e2e/startScript.mjs runs scripts/start.mjs and opens the URL it
// prints), the mocha suites inside the extension host, and the UI driven like a person, with screenshots
// under .e2e/screenshots/. code-server is installed, started and stopped by scripts/codeServer.mjs, the
// code `npm start` uses. Exit code 0 only when every phase passes. Kills only what it started.
//   usage: node test/e2e/run.mjs [--start-only | --host-only | --ui-only] [--grep <text>]
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, readdirSync, createWriteStream } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { installTools, launchChromium, prepareInstance, remoteUri, startCodeServer, workbenchUrl } from '../../scripts/codeServer.mjs';
import { buildE2eBundles } from './buildBundles.mjs';
import { runStartScenario } from './startScript.mjs';
import { prepareTestWorkspace } from './testWorkspace.mjs';
import { runUiScenario } from './ui/scenario.mjs';
import { scanForSecrets, secretNeedles } from './secretScan.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const only = ['--start-only', '--host-only', '--ui-only'].find((a) => args.includes(a));
const phases = { start: !only || only === '--start-only', host: !only || only === '--host-only', ui: !only || only === '--ui-only' };
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
    try {
      await item.stop();
    } catch (e) {
      console.error(`[e2e] stopping ${item.kind}: ${e.message}`);
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopAll().finally(() => process.exit(130));
  });
}

function log(msg) {
  console.log(`[e2e] ${msg}`);
}

/** Fresh run folder: the code-server instance (user data, extensions, XDG dirs) and the test workspace. */
function prepareRunFolder() {
  rmSync(RUN, { recursive: true, force: true });
  prepareInstance(RUN);
  prepareTestWorkspace(ROOT, RUN, { grep: grep ?? null, screenshots: SCREENSHOTS });
}

/** The browser, closed by stopAll. */
async function launchBrowser(tools) {
  const browser = await launchChromium(tools);
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
  const exitCode = new Promise((r) => {
    finish = r;
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));
  // Test output arrives prefixed by the host runner; the workbench's own console goes to a log file.
  const consoleLog = createWriteStream(join(RUN, 'workbench-console.log'));
  await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
    const text = format(...(Array.isArray(logArgs) ? logArgs : [logArgs]));
    if (text.startsWith(TEST_OUTPUT_PREFIX)) console.log(text.slice(TEST_OUTPUT_PREFIX.length).replace(/\x1b\[[0-9;]*m/g, ''));
    else if (process.env.E2E_VERBOSE) console.error(text);
    consoleLog.write(`[${type}] ${text}\n`);
  });
  const payload = [
    ['extensionDevelopmentPath', remoteUri(baseUrl, ROOT)],
    ['extensionTestsPath', remoteUri(baseUrl, bundles.indexPath)],
  ];
  await page.goto(workbenchUrl(baseUrl, join(RUN, 'workspace'), { payload }));
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
  const tools = await installTools(ROOT);
  log(`tools ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const b = spawnSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('npm run build failed');
  const bundles = await buildE2eBundles(ROOT, join(ROOT, '.e2e', 'build'));
  prepareRunFolder();
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const f of readdirSync(SCREENSHOTS)) rmSync(join(SCREENSHOTS, f), { force: true });

  const browser = await launchBrowser(tools);
  let failures = 0;
  if (phases.start) {
    const t1 = Date.now();
    const ok = await runStartScenario({
      browser,
      root: ROOT,
      screenshots: SCREENSHOTS,
      log,
      track: (stop) => started.push({ kind: 'scripts/start.mjs', stop }),
    });
    log(`npm start: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    if (!ok) failures++;
  }
  if (!phases.host && !phases.ui) {
    await stopAll();
    log(`total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return failures === 0 ? 0 : 1;
  }

  // The test server: the extension-test payload (extensionDevelopmentPath + extensionTestsPath) is only
  // honoured with the smoke-test driver (see ../shared/tools/e2e-recipe.md). The idle timeout is a
  // backstop should this runner die without stopping it.
  const server = await startCodeServer(tools, RUN, { extraArgs: ['--vscode-option', 'enable-smoke-test-driver'], idleTimeoutSeconds: 61 });
  started.push({ kind: 'code-server', stop: server.stop });
  const baseUrl = server.url;
  log(`code-server at ${baseUrl}`);
  if (phases.host) {
    const t1 = Date.now();
    const code = await runHostTests(browser, baseUrl, bundles);
    log(`extension-host tests: exit ${code} in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    if (code !== 0) failures++;
  }
  if (phases.ui) {
    const t2 = Date.now();
    const demo = await startDemo();
    const ok = await runUiScenario({ browser, baseUrl, root: ROOT, run: RUN, screenshots: SCREENSHOTS, log, demoUrl: demo.url });
    log(`UI scenario: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - t2) / 1000).toFixed(1)} s (screenshots in .e2e/screenshots)`);
    if (!ok) failures++;
  }
  await stopAll();
  // Chromium's profile (where the web workbench keeps SecretStorage) is excluded; everything else of the run is scanned.
  const leaks = scanForSecrets(
    [join(RUN, 'ud'), join(RUN, 'workspace'), join(RUN, 'xdg'), join(RUN, 'exts'), join(RUN, 'code-server.log')],
    secretNeedles(RUN),
  );
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
  async (e) => {
    console.error(`[e2e] ${e.stack ?? e}`);
    await stopAll();
    process.exit(1);
  },
);

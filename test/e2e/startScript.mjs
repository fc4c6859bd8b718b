// The "npm start" phase: runs `node scripts/start.mjs` exactly as a user's `npm start` does (only the
// ports, chosen free, and the state folder differ), opens the URL it prints in Chromium, expects the
// demo manifest with its lenses, then presses Ctrl+C (SIGINT to the script's process group, as a
// terminal does) and checks that code-server and the demo API are gone.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const URL_TIMEOUT_MS = 5 * 60_000; // build, package, install and the script's own activation check
const STOP_TIMEOUT_MS = 20_000;

/** Resolves true when something accepts TCP connections on 127.0.0.1:port. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the phase with an already launched browser; resolves true when every check passes. `track`
 * receives a stop function for the script, for a runner interrupted in the middle of the phase.
 */
export async function runStartScenario({ browser, root, screenshots, log, track = () => {} }) {
  const state = join(root, '.e2e', 'start-test');
  rmSync(state, { recursive: true, force: true }); // a first start: the extension is packaged and installed anew
  const env = { ...process.env, START_WITH_CODE_SERVER: '1', CODE_SERVER_PORT: '0', DEMO_API_PORT: '0', START_STATE_DIR: state };
  const t0 = Date.now();
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  track(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      /* gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
  });
  const fail = (message) => {
    throw new Error(`${message}\n--- scripts/start.mjs output ---\n${out.slice(-4000)}`);
  };
  let context;
  let codeServerPid;
  try {
    const url = await Promise.race([
      new Promise((resolve) => {
        const check = () => {
          const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)\s*$/m.exec(out);
          if (m) resolve(m[1]);
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
      }),
      exited.then(({ code, signal }) => fail(`scripts/start.mjs exited (${signal ?? code}) before printing a URL`)),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no URL within ${URL_TIMEOUT_MS / 1000} s`)), URL_TIMEOUT_MS)),
    ]);
    log(`  start ✓ scripts/start.mjs printed the URL after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    codeServerPid = Number(/code-server \(pid (\d+)\) at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    const codeServerPort = Number(new URL(url).port);
    const demoPort = Number(/demo API: http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
    if (!codeServerPid || !demoPort) fail('the script did not report the code-server pid and the demo API URL');

    // What the user sees at the printed URL: the demo manifest, open, with its lenses.
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const t1 = Date.now();
    await page.goto(url);
    await page.locator('.tabs-container .tab', { hasText: 'offset-increment.yaml' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.codelens-decoration a', { hasText: 'Run stream items' }).first().waitFor({ timeout: 60_000 });
    await page.locator('.codelens-decoration a', { hasText: 'Set testing values' }).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(screenshots, '00-npm-start-demo-manifest.png') });
    // The demo workspace's settings keep the chat panel closed.
    if (await page.locator('.part.auxiliarybar').isVisible())
      fail('the secondary side bar (chat) is open (see 00-npm-start-demo-manifest.png)');
    log(`  start ✓ the URL shows offset-increment.yaml with its "Run stream" lens (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
    await context.close();
    context = undefined;

    // Ctrl+C in the terminal: SIGINT to the foreground process group (code-server has its own group).
    process.kill(-child.pid, 'SIGINT');
    const result = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), STOP_TIMEOUT_MS))]);
    if (!result) fail(`scripts/start.mjs did not exit within ${STOP_TIMEOUT_MS / 1000} s of Ctrl+C`);
    if (result.code !== 0) fail(`scripts/start.mjs exited with ${result.signal ?? result.code} on Ctrl+C, expected 0`);
    if (alive(codeServerPid)) fail(`code-server (pid ${codeServerPid}) is still running after Ctrl+C`);
    for (const [what, port] of [
      ['code-server', codeServerPort],
      ['the demo API', demoPort],
    ]) {
      if (await listening(port)) fail(`${what} still accepts connections on port ${port} after Ctrl+C`);
    }
    log('  start ✓ Ctrl+C stopped code-server and the demo API');
    return true;
  } catch (e) {
    log(`  start ✗ ${e.message}`);
    return false;
  } finally {
    await context?.close().catch(() => {});
    if (child.exitCode === null && child.signalCode === null) {
      // The script failed a check while running: stop it the way a user would, then make sure.
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        /* gone */
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS))]);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    // code-server has a process group of its own: if the script could not stop it, this does.
    if (codeServerPid && alive(codeServerPid)) {
      try {
        process.kill(-codeServerPid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
}

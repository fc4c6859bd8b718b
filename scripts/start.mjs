// `npm start`: installs dependencies when missing, builds, starts the demo API, and opens the extension
// with demo/workspace in a real VS Code — the local `code` CLI (--extensionDevelopmentPath) when there
// is one, otherwise code-server on 127.0.0.1 (installed into .e2e/ by test/e2e/setup.sh) with the URL printed.
// Stops everything it started on Ctrl+C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE = join(ROOT, 'demo', 'workspace');
const DEMO_PORT = Number(process.env.DEMO_API_PORT ?? 8787); // the demo manifests' default url_base port
const children = [];
const say = (m) => console.log(`[start] ${m}`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

function stopChildren() {
  for (const c of children.reverse()) {
    try { process.kill(c.detached ? -c.pid : c.pid, 'SIGTERM'); } catch { /* already gone */ }
  }
}
process.on('SIGINT', () => { stopChildren(); process.exit(0); });
process.on('SIGTERM', () => { stopChildren(); process.exit(0); });

/** Spawns a long-running child and resolves with the first stdout/stderr line matching `pattern`. */
function startAndWait(cmd, args, pattern, { env, detached = false } = {}) {
  const child = spawn(cmd, args, { cwd: ROOT, env: env ?? process.env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push({ pid: child.pid, detached });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}):\n${out.slice(-1500)}`)));
  });
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

async function main() {
  if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) {
    say('installing dependencies (npm ci)');
    run('npm', ['ci', '--no-audit', '--no-fund'], { env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  }
  say('building');
  run(process.execPath, ['esbuild.mjs']);
  if (!existsSync(WORKSPACE)) throw new Error('demo/workspace is missing from this checkout');

  const demoUrl = await startAndWait(process.execPath, ['scripts/demoApi.mjs', '--port', String(DEMO_PORT)], /(http:\/\/127\.0\.0\.1:\d+)/);
  say(`demo API: ${demoUrl}`);
  if (!demoUrl.endsWith(':8787')) say(`note: the demo manifests and config.json expect port 8787; set url_base to ${demoUrl} in the testing values`);

  if (hasCommand('code') && !process.env.START_WITH_CODE_SERVER) {
    say('opening VS Code with the extension in development mode');
    run('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, WORKSPACE]);
    say('VS Code is open. Open a manifest in demo/workspace, click "Run stream" and choose "Import config.json" when asked for testing values.');
  } else {
    say('no `code` command found: starting code-server (first run installs it into .e2e/, a few minutes)');
    const setup = spawnSync('bash', [join(ROOT, 'test', 'e2e', 'setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (setup.status !== 0) throw new Error('test/e2e/setup.sh failed');
    const tools = Object.fromEntries(setup.stdout.split('\n').map((l) => /^([A-Z0-9_]+)=(.*)$/.exec(l.trim())).filter(Boolean).map((m) => [m[1], m[2]]));
    const dir = join(ROOT, '.e2e', 'start');
    for (const d of ['ud/User', 'exts', 'xdg']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'config.yaml'), 'auth: none\ncert: false\n');
    if (!existsSync(join(dir, 'ud', 'User', 'settings.json'))) {
      writeFileSync(join(dir, 'ud', 'User', 'settings.json'), JSON.stringify({ 'workbench.startupEditor': 'none', 'security.workspace.trust.enabled': false, 'telemetry.telemetryLevel': 'off' }, null, 2));
    }
    const port = process.env.CODE_SERVER_PORT ?? '8080';
    const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), XDG_DATA_HOME: join(dir, 'xdg'), XDG_CACHE_HOME: join(dir, 'xdg') };
    const base = await startAndWait(tools.NODE24, [tools.CODE_SERVER_ENTRY, '--config', join(dir, 'config.yaml'), '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
      '--user-data-dir', join(dir, 'ud'), '--extensions-dir', join(dir, 'exts')], /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/, { env, detached: true });
    // The extension is loaded from this checkout, as with --extensionDevelopmentPath in desktop VS Code.
    const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://${new URL(base).host}${ROOT}`]]);
    const url = `${base}/?folder=${encodeURIComponent(WORKSPACE)}&payload=${encodeURIComponent(payload)}`;
    console.log(`\nOpen this URL in a browser (Ctrl+C here stops code-server and the demo API):\n\n  ${url}\n`);
    say('Open a manifest in demo/workspace, click "Run stream" and choose "Import config.json" when asked for testing values.');
  }
  say('the demo API keeps running; Ctrl+C stops it');
}

main().catch((e) => { console.error(`[start] ${e.message}`); stopChildren(); process.exit(1); });

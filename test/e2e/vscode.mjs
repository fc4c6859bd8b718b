// `npm run test:vscode`: the extension-host suites of test/e2e/host in desktop VS Code, launched by
// @vscode/test-electron as extension authors usually do. Same suites, same bundles, same workspace as
// the code-server runner (run.mjs); only the launcher differs. The desktop VS Code is, in order:
// VSCODE_EXECUTABLE_PATH, the local `code` command's installation, a copy test-electron downloaded
// before into .vscode-test/, or a fresh download. With none of them, it says so and exits 2.
//   usage: node test/e2e/vscode.mjs [--grep <text>]
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { buildE2eBundles } from './buildBundles.mjs';
import { scanForSecrets, secretNeedles } from './secretScan.mjs';
import { prepareTestWorkspace } from './testWorkspace.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUN = join(ROOT, '.e2e', 'vscode-run');
const args = process.argv.slice(2);
const grepAt = args.indexOf('--grep');
const grep = grepAt >= 0 ? args[grepAt + 1] : null;
const log = (m) => console.log(`[test:vscode] ${m}`);

/** The Electron executable behind the `code` command (Linux: <install>/bin/code is a script beside <install>/code). */
function desktopFromCodeCommand() {
  const which = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  if (which.status !== 0) return undefined;
  const cli = realpathSync(which.stdout.trim());
  const candidates =
    process.platform === 'darwin'
      ? [join(cli, '..', '..', '..', '..', 'MacOS', 'Electron')]
      : [join(dirname(cli), '..', 'code'), join(dirname(cli), '..', 'Code.exe')];
  return candidates.find((p) => existsSync(p));
}

/** Resolves with `{ path, how }` of a desktop VS Code, or `{ problem }` saying why there is none. */
async function findDesktopVSCode() {
  if (process.env.VSCODE_EXECUTABLE_PATH) {
    const p = process.env.VSCODE_EXECUTABLE_PATH;
    return existsSync(p) ? { path: p, how: 'VSCODE_EXECUTABLE_PATH' } : { problem: `VSCODE_EXECUTABLE_PATH=${p} does not exist` };
  }
  const local = desktopFromCodeCommand();
  if (local) return { path: local, how: 'the local `code` command' };
  try {
    // Offline, test-electron falls back to the newest copy it downloaded before into cachePath.
    const path = await downloadAndUnzipVSCode({ cachePath: join(ROOT, '.vscode-test'), timeout: 15_000 });
    return { path, how: '@vscode/test-electron (.vscode-test/)' };
  } catch (e) {
    return {
      problem: `no desktop VS Code here: no VSCODE_EXECUTABLE_PATH, no \`code\` command, nothing in .vscode-test/, and @vscode/test-electron could not download one (${e.message?.split('\n')[0] ?? e})`,
    };
  }
}

async function main() {
  const desktop = await findDesktopVSCode();
  if (desktop.problem) {
    console.error(`[test:vscode] ${desktop.problem}.`);
    console.error('[test:vscode] The same suites run in code-server, headless: npm run test:e2e -- --host-only');
    console.error(
      '[test:vscode] Or point VSCODE_EXECUTABLE_PATH at a VS Code executable (on Linux without a display, run under xvfb-run -a).',
    );
    return 2;
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.error(
      '[test:vscode] desktop VS Code needs a display and none is set (DISPLAY): run `xvfb-run -a npm run test:vscode`, or `npm run test:e2e -- --host-only` for code-server.',
    );
    return 2;
  }
  log(`VS Code: ${desktop.path} (from ${desktop.how})`);
  const b = spawnSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('npm run build failed');
  const bundles = await buildE2eBundles(ROOT, join(ROOT, '.e2e', 'build'));
  rmSync(RUN, { recursive: true, force: true });
  const workspace = prepareTestWorkspace(ROOT, RUN, { grep });
  let failed = false;
  try {
    await runTests({
      vscodeExecutablePath: desktop.path,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: bundles.indexPath,
      // Its own user data and extensions, and no other extension: the suites assume only ours runs.
      launchArgs: [
        workspace,
        '--user-data-dir',
        join(RUN, 'ud'),
        '--extensions-dir',
        join(RUN, 'exts'),
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } catch (e) {
    console.error(`[test:vscode] ${e.message ?? e}`);
    failed = true;
  }
  const leaks = scanForSecrets([join(RUN, 'ud'), workspace, join(RUN, 'exts')], secretNeedles(RUN));
  if (leaks.length) {
    console.error(`[test:vscode] secret values found on disk:\n  ${leaks.join('\n  ')}`);
    failed = true;
  }
  log(failed ? 'FAILED' : 'passed');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[test:vscode] ${e.stack ?? e}`);
    process.exit(1);
  },
);

// Compiles the extension-host test suites (TypeScript) into .e2e/build/host/ with esbuild. `vscode`
// comes from the extension host and `mocha` stays external so every suite shares the runner's instance.
import { readdirSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

/** Bundles test/e2e/host/index.ts and every *.test.ts beside it; returns the index path to load. */
export async function buildE2eBundles(root, outDir) {
  const hostDir = join(root, 'test', 'e2e', 'host');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const entries = readdirSync(hostDir)
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => join(hostDir, f));
  await esbuild.build({
    entryPoints: entries,
    outdir: join(outDir, 'host'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return { indexPath: join(outDir, 'host', 'index.js') };
}

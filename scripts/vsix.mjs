// Packages the extension as a .vsix from the bundles already in out/ (the files .vscodeignore lets
// through), with @vscode/vsce. `npm run package` builds minified bundles first; `npm start` packages its
// development build and installs it into code-server, as a user's "Install from VSIX…" would.
//   usage: node scripts/vsix.mjs <out.vsix>
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVSIX } from '@vscode/vsce';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes the .vsix to `outPath`; the extension's node_modules stay out (everything is bundled).
 * `quiet`: vsce's file tree and "Packaged" line are not printed (`npm start` prints one line of its own);
 * its warnings and errors still are.
 */
export async function packageVsix(outPath, root = ROOT, { quiet = false } = {}) {
  const log = console.log;
  if (quiet) console.log = () => {};
  try {
    await createVSIX({ cwd: root, packagePath: outPath, dependencies: false, rewriteRelativeLinks: false, allowMissingRepository: true });
  } finally {
    console.log = log;
  }
  return outPath;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/vsix.mjs <out.vsix>');
    process.exit(2);
  }
  await packageVsix(resolve(out));
}

// Runs the unit, LSP and grammar tests with Node's built-in test runner; TypeScript test files are
// loaded through tsx. Usage: node scripts/runTests.mjs [unit|lsp|grammar ...] (default: all three).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const suites = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'lsp', 'grammar', 'fuzz'];
const files = [];
function walk(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.test\.(ts|mjs|js)$/.test(name)) files.push(full);
  }
}
for (const s of suites) walk(join('test', s));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);

// `npm run corpus -- <dir>`: validates every manifest (*.yaml, *.yml) in a folder with the built runtime
// (out/runtime.js), prints counts by severity and code, lists every error as file:line:col, and
// exits 1 if there is any error (2 if the folder cannot be read).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parseManifest, validateManifest } = require('../out/runtime.js');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run corpus -- <folder of manifests>');
  process.exit(2);
}
let files;
try {
  files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
} catch (e) {
  console.error(`cannot read ${dir}: ${e.code ?? e.message}`);
  process.exit(2);
}

const bySeverity = { error: 0, warning: 0, information: 0, hint: 0 };
const byCode = new Map();
const errorLines = [];
let parsed = 0;
let validateMs = 0;
let slowest = { file: '', ms: 0 };
for (const f of files) {
  const path = join(dir, f);
  const text = readFileSync(path, 'utf8');
  const manifest = parseManifest(text);
  if (!manifest.problems.some((p) => p.code === 'yaml-syntax')) parsed++;
  const start = performance.now();
  const problems = validateManifest(manifest);
  const ms = performance.now() - start;
  validateMs += ms;
  if (ms > slowest.ms) slowest = { file: f, ms };
  for (const p of problems) {
    bySeverity[p.severity]++;
    const key = `${p.severity} ${p.code}`;
    byCode.set(key, (byCode.get(key) ?? 0) + 1);
    if (p.severity === 'error') {
      const pos = manifest.locator.lineCol(p.span.start);
      errorLines.push(`${relative(process.cwd(), path)}:${pos.line}:${pos.col}: ${p.message} [${p.code}]`);
    }
  }
}

console.log(`manifests: ${files.length}, parsed: ${parsed} (${files.length ? ((100 * parsed) / files.length).toFixed(1) : '0'}%)`);
console.log(
  `errors: ${bySeverity.error}, warnings: ${bySeverity.warning}, information: ${bySeverity.information}, hints: ${bySeverity.hint}`,
);
for (const [key, n] of [...byCode].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(6)}  ${key}`);
console.log(`validation after parsing: ${validateMs.toFixed(0)} ms in total, slowest ${slowest.file} ${slowest.ms.toFixed(0)} ms`);
for (const line of errorLines) console.log(line);
process.exit(errorLines.length > 0 || parsed < files.length ? 1 : 0);

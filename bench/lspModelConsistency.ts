// Corpus check: the incremental model must load every manifest to exactly the value and the same
// error count as the runtime's whole-document parse. Usage: node --import tsx bench/lspModelConsistency.ts <dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseManifest } from '../server/src/runtime/manifest/parse';
import { ManifestModel } from '../server/src/model/manifestModel';

const dir = process.argv[2] ?? '../shared/corpus/manifests';
let same = 0;
let whole = 0;
const mismatches: string[] = [];
let tModel = 0;
let tParse = 0;
for (const name of readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) {
  const text = readFileSync(join(dir, name), 'utf8');
  let t = performance.now();
  const model = ManifestModel.build(text);
  tModel += performance.now() - t;
  t = performance.now();
  const parsed = parseManifest(text);
  tParse += performance.now() - t;
  if (!model.isIncremental) whole++;
  const count = (ps: { severity: string }[], s: string) => ps.filter((p) => p.severity === s).length;
  if (isDeepStrictEqual(JSON.parse(JSON.stringify(model.value)), JSON.parse(JSON.stringify(parsed.value))) && count(model.problems, 'error') === count(parsed.problems, 'error') && count(model.problems, 'warning') === count(parsed.problems, 'warning')) same++;
  else mismatches.push(name);
}
console.log(`model consistency: ${same} identical, ${mismatches.length} different, ${whole} parsed whole; model ${tModel.toFixed(0)} ms vs yaml Document ${tParse.toFixed(0)} ms`);
for (const m of mismatches) console.log(`  differs: ${m}`);
process.exit(mismatches.length ? 1 : 0);

// Corpus check of the language server's incremental analysis: on every corpus manifest, random
// edits like an author's (test/unit/server/randomEdits.ts: characters typed and deleted in keys and
// values, items removed and copied, definitions and references edited, YAML broken and fixed), and
// after each one the incremental diagnostics, resolved manifest, origins and block split must equal
// a from-scratch analysis of the same text, byte for byte.
// Usage: node --import tsx bench/incrementalCorpus.ts [dir] [edits per manifest (default 2)]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRandomEdits } from '../test/unit/server/randomEdits';

const dir = process.argv[2] ?? '../shared/corpus/manifests';
const edits = Number(process.argv[3] ?? 2);
const names = readdirSync(dir)
  .filter((n) => n.endsWith('.yaml'))
  .sort();
const failures: string[] = [];
const started = performance.now();
for (const [i, name] of names.entries()) {
  const text = readFileSync(join(dir, name), 'utf8');
  // The largest manifests take a second per from-scratch analysis: fewer edits there.
  const count = text.length > 400_000 ? Math.min(edits, 2) : edits;
  const failure = checkRandomEdits(text, 7000 + i, count);
  if (failure) failures.push(`${name}: ${failure}`);
}
console.log(
  `incremental vs from-scratch analysis: ${names.length - failures.length} of ${names.length} manifests identical after ${edits} random edits each (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
for (const f of failures.slice(0, 30)) console.log(`  differs: ${f}`);
process.exit(failures.length ? 1 : 0);

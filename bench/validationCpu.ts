// Validation cost in process, in CPU time (so a loaded machine matters less than in bench/lsp.mjs):
// the first open of each sample manifest, a second open with warm code, and edits re-validated
// through the incremental model. Usage: node --import tsx bench/validationCpu.ts [name ...]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ManifestDocuments } from '../server/src/documents';
import { provideDiagnostics } from '../server/src/features/diagnostics';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shared = ['../shared', '../../shared'].map((p) => resolve(repo, p)).find((p) => existsSync(join(p, 'corpus')));
if (!shared) {
  console.error('bench/validationCpu.ts needs ../shared/corpus');
  process.exit(2);
}
const names = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['source-amplitude', 'source-opsgenie', 'source-quickbooks', 'source-appfigures'];
const ROUNDS = 10;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timed = <T>(run: () => T): [number, T] => {
  const t0 = cpuMs();
  const out = run();
  return [cpuMs() - t0, out];
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

for (const name of names) {
  const text = readFileSync(join(shared, `corpus/manifests/${name}.yaml`), 'utf8');
  const [first, diagnostics] = timed(() =>
    provideDiagnostics(new ManifestDocuments().get(TextDocument.create('file:///a.yaml', 'yaml', 1, text))),
  );
  const docs = new ManifestDocuments();
  let td = TextDocument.create('file:///m.yaml', 'yaml', 1, text);
  const [second] = timed(() => provideDiagnostics(docs.get(td)));
  const lines = text.split('\n');
  const line = lines.findIndex((l) => /^\s+(path|field_name): \S/.test(l));
  const at = { line, character: lines[line].length };
  const edits: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    td = TextDocument.update(td, [{ range: { start: at, end: at }, text: 'x' }], td.version + 1);
    edits.push(timed(() => provideDiagnostics(docs.get(td)))[0]);
    td = TextDocument.update(td, [{ range: { start: at, end: { line, character: at.character + 1 } }, text: '' }], td.version + 1);
    edits.push(timed(() => provideDiagnostics(docs.get(td)))[0]);
  }
  console.log(
    `${name}: ${lines.length} lines, ${diagnostics.length} diagnostics; open ${first.toFixed(0)} ms (cold), ${second.toFixed(0)} ms (warm); edit median ${median(edits).toFixed(1)} ms, min ${Math.min(...edits).toFixed(1)} ms`,
  );
}

// Corpus check of the refactors: on each corpus manifest, every "Extract … to definitions" / "Share …"
// action offered at the first authenticator, record selector and paginator, and the "Inline
// reference" at the first `$ref`, is applied; the CDK must read the same streams and check after it
// (references resolved, compared deeply). Usage: node --import tsx bench/refactorCorpus.ts [every-nth-file]
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver';
import { ManifestDocuments } from '../server/src/documents';
import { provideExtractActions } from '../server/src/features/extractDefinition';
import { provideInlineActions } from '../server/src/features/inlineReference';
import { parseManifest } from '../server/src/runtime/manifest/parse';
import { resolveManifest } from '../server/src/runtime/manifest/resolve';
const dir = process.env.CORPUS_DIR ?? '../shared/corpus/manifests';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .filter((_, i) => i % Number(process.argv[2] ?? 1) === 0);
let ok = 0,
  bad = 0,
  offered = 0,
  inl = 0;
const resolvedStreams = (text: string) => {
  const p = parseManifest(text);
  if (p.problems.some((x) => x.severity === 'error')) return 'YAML ERROR';
  const r = resolveManifest(p.value);
  return { s: (r.value as any)?.streams, c: (r.value as any)?.check, problems: r.problems.length };
};
for (const f of files) {
  const text = readFileSync(`${dir}/${f}`, 'utf8');
  const before = resolvedStreams(text);
  const docs = new ManifestDocuments();
  const doc = docs.get({ uri: 'file:///x.yaml', version: 1, getText: () => text });
  for (const needle of ['authenticator:', 'record_selector:', 'paginator:', '$ref:']) {
    const at = text.indexOf(needle);
    if (at < 0) continue;
    const actions =
      needle === '$ref:' ? provideInlineActions(doc, { start: at, end: at }) : provideExtractActions(doc, { start: at, end: at });
    for (const a of actions) {
      offered++;
      if (needle === '$ref:') inl++;
      const edits = a.edit!.changes!['file:///x.yaml'] as TextEdit[];
      const after = TextDocument.applyEdits(TextDocument.create('file:///x.yaml', 'yaml', 1, text), edits);
      const r = resolvedStreams(after);
      if (isDeepStrictEqual(r, before)) ok++;
      else {
        bad++;
        console.log('MISMATCH', f, a.title);
      }
    }
  }
}
console.log(`refactors on ${files.length} manifests: ${offered} applied (${inl} inline), ${ok} read the same, ${bad} differ`);
process.exit(bad ? 1 : 0);

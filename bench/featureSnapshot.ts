// A snapshot of what the editor and the CLI answer on a folder of manifests, to prove a refactor
// changes no behaviour: run it before and after, then compare the two files (`cmp`). For each manifest
// and two edited copies (a line cut in half, a misspelt url_base): the server's diagnostics, the CLI's
// problems with line:col, symbols, lenses, the quick fixes of every diagnostic with a fix, the
// inferred-schema edit of the first stream, and at ~25 lines × 3 columns hover, completion,
// definition and the inline/extract refactors. The locator module was moved and the features' own
// line scanners replaced with identical snapshots on the 492 corpus manifests (CHANGELOG).
// Usage: node --import tsx bench/featureSnapshot.ts <folder> <out.json>
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ManifestDocuments } from '../server/src/documents';
import { provideDiagnostics } from '../server/src/features/diagnostics';
import { provideHover } from '../server/src/features/hover';
import { provideCompletion } from '../server/src/features/completion';
import { provideDefinition } from '../server/src/features/definition';
import { provideDocumentSymbols } from '../server/src/features/symbols';
import { provideCodeActions } from '../server/src/features/codeActions';
import { provideInlineActions } from '../server/src/features/inlineReference';
import { provideExtractActions } from '../server/src/features/extractDefinition';
import { provideCodeLenses } from '../server/src/features/codeLens';
import { catalogIndex } from '../server/src/features/catalogIndex';
import { inferredSchemaEdit } from '../server/src/inferredSchemaEdit';
import { parseManifest } from '../server/src/runtime/manifest/parse';
import { validateManifest } from '../server/src/runtime/validation/validateManifest';
const dir = process.argv[2];
const out: Record<string, unknown> = {};
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const ctx = { index: catalogIndex() };
function variants(text: string): string[] {
  const lines = text.split('\n');
  const v = [text];
  // half-typed: cut a line in the middle
  const i = Math.floor(lines.length / 3);
  if (lines[i]) v.push([...lines.slice(0, i), lines[i].slice(0, Math.ceil(lines[i].length / 2)), ...lines.slice(i + 1)].join('\n'));
  const j = lines.findIndex((l) => /url_base:/.test(l));
  if (j >= 0) v.push([...lines.slice(0, j), lines[j].replace('url_base', 'url_bsae'), ...lines.slice(j + 1)].join('\n'));
  return v;
}
let n = 0;
for (const f of files) {
  const base = readFileSync(`${dir}/${f}`, 'utf8');
  variants(base).forEach((text, vi) => {
    const key = `${f}#${vi}`;
    const r: Record<string, unknown> = {};
    const docs = new ManifestDocuments();
    const doc = docs.get({ uri: `file:///w/${f}`, version: 1, getText: () => text });
    const diags = provideDiagnostics(doc);
    r.diags = diags;
    const parsed = parseManifest(text);
    r.cli = validateManifest(parsed).map((p: any) => ({ ...p, lc: parsed.locator.lineCol(p.span.start) }));
    r.symbols = provideDocumentSymbols(doc);
    r.lenses = provideCodeLenses(doc).map((l: any) => ({ range: l.range, t: l.command?.title }));
    const lines = text.split('\n');
    const step = Math.max(1, Math.floor(lines.length / 25));
    const pts: unknown[] = [];
    let off = 0;
    const starts: number[] = [];
    for (const l of lines) {
      starts.push(off);
      off += l.length + 1;
    }
    for (let li = 0; li < lines.length; li += step) {
      const l = lines[li];
      const ind = l.length - l.trimStart().length;
      for (const ch of [ind, Math.min(l.length, ind + 2), l.length]) {
        const position = { line: li, character: ch };
        const td = { uri: `file:///w/${f}` };
        const h = provideHover(ctx, doc, { textDocument: td, position });
        const c = provideCompletion(ctx, doc, { textDocument: td, position });
        const d = provideDefinition(doc, { textDocument: td, position });
        const at = starts[li] + ch;
        const inl = provideInlineActions(doc, { start: at, end: at }).map((a: any) => [a.title, a.edit]);
        const ext = provideExtractActions(doc, { start: at, end: at }).map((a: any) => [a.title, a.edit]);
        pts.push([
          li,
          ch,
          h,
          c && { inc: c.isIncomplete, items: c.items.map((i: any) => [i.label, i.textEdit, i.insertText, i.additionalTextEdits]) },
          d,
          inl,
          ext,
        ]);
      }
    }
    r.pts = pts;
    const ca = diags
      .filter((d: any) => d.data)
      .map((d: any) =>
        provideCodeActions(doc, { textDocument: { uri: doc.uri }, range: d.range, context: { diagnostics: [d] } } as any).map((a: any) => [
          a.title,
          a.edit,
        ]),
      );
    r.ca = ca;
    try {
      const name = (parsed.value as any)?.streams?.[0]?.name;
      if (typeof name === 'string') r.schema = inferredSchemaEdit(text, name, { type: 'object', properties: { id: { type: 'string' } } });
    } catch (e) {
      r.schemaErr = String(e);
    }
    out[key] = r;
  });
  if (++n % 50 === 0) console.error(`${n} manifests`);
}
writeFileSync(process.argv[3], JSON.stringify(out));
console.error('done', Object.keys(out).length);

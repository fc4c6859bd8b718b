// Template check over a corpus of manifests: counts the templates found in every string scalar,
// verifies the scalar → document offset maps, compiles each template (target: 0 syntax errors), and,
// when the component catalog is present, runs the template rules per field and lists findings by
// manifest. Usage: node --import tsx scripts/templatesCorpus.mjs [dir] (default ../shared/corpus/manifests).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { visit, isScalar } from 'yaml';

const root = resolve(import.meta.dirname, '..');
const dir = resolve(process.argv[2] ?? join(root, '..', 'shared', 'corpus', 'manifests'));
const { parseManifest } = await import(join(root, 'server/src/runtime/manifest/parse.ts'));
const { resolveManifest } = await import(join(root, 'server/src/runtime/manifest/resolve.ts'));
const { compileTemplate } = await import(join(root, 'server/src/runtime/interpolation/jinja.ts'));
const { scalarOffsets } = await import(join(root, 'server/src/runtime/manifest/locator/scalarOffsets.ts'));
const { hasTemplateMarkup } = await import(join(root, 'server/src/runtime/interpolation/templateMarkup.ts'));
const { templateProblems } = await import(join(root, 'server/src/runtime/rules/templateRules.ts'));

const catalogPath = join(root, 'server/src/runtime/schema/catalog.ts');
let catalog = null;
if (existsSync(catalogPath)) {
  const c = await import(catalogPath);
  catalog = { contextFor: (t, f) => c.templateContextFor(t, f), isComponentType: (t) => c.getComponent(t) !== undefined };
}

const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
let templates = 0;
let syntaxErrors = 0;
let offsetMismatches = 0;
let checkedInFields = 0;
const findings = new Map();
const started = performance.now();
for (const file of files) {
  const text = readFileSync(join(dir, file), 'utf8');
  const parsed = parseManifest(text);
  visit(parsed.doc, {
    Scalar(_key, node) {
      if (!isScalar(node) || typeof node.value !== 'string' || !hasTemplateMarkup(node.value)) return;
      templates++;
      const offsets = scalarOffsets(text, node);
      // Self-check of the offset map: every '{' of the value must map onto a '{' of the text.
      const value = node.value;
      for (let i = 0; i < value.length; i++)
        if (value[i] === '{' && (!offsets || text[offsets[i]] !== '{')) {
          offsetMismatches++;
          break;
        }
      try {
        compileTemplate(value);
      } catch (e) {
        syntaxErrors++;
        console.log(`syntax error  ${file}: ${JSON.stringify(value).slice(0, 120)} → ${e.message}`);
      }
    },
  });
  if (!catalog) continue;
  const resolved = resolveManifest(parsed.value, { parsed });
  const result = templateProblems(parsed, resolved, catalog);
  checkedInFields += result.templates.length;
  for (const p of result.problems) {
    const list = findings.get(p.code) ?? [];
    const line = text.slice(0, p.span.start).split('\n').length;
    list.push(`${file}:${line}: ${p.message} [${text.slice(p.span.start, p.span.end)}]`);
    findings.set(p.code, list);
  }
}
const ms = performance.now() - started;
console.log(`manifests: ${files.length}`);
console.log(`templates found in string scalars: ${templates}`);
console.log(`offset-map mismatches: ${offsetMismatches}`);
console.log(`syntax errors: ${syntaxErrors}`);
if (!catalog) console.log('component catalog not present: per-field rules skipped');
else {
  console.log(`templates checked in their field context: ${checkedInFields}`);
  for (const [code, list] of [...findings].sort()) {
    console.log(`\n${code}: ${list.length}`);
    for (const l of list) console.log(`  ${l}`);
  }
}
console.log(`\ntime: ${(ms / 1000).toFixed(1)} s`);
process.exit(syntaxErrors > 0 || offsetMismatches > 0 ? 1 : 0);

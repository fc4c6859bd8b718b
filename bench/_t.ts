import { readFileSync } from 'node:fs';
import { ManifestDocuments } from '../server/src/documents';
import { resolveManifest } from '../server/src/runtime/manifest/resolve';
import { validateResolvedManifest } from '../server/src/runtime/schema/validate';
import { validateManifest } from '../server/src/runtime/manifest/validateManifest';
import { templateProblems, CATALOG_TEMPLATES } from '../server/src/runtime/rules/templateRules';
import { problemToDiagnostic } from '../server/src/convert';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (const n of [process.argv[2]]) {
  const text = readFileSync(`/work/shared/corpus/manifests/${n}.yaml`, 'utf8');
  const docs = new ManifestDocuments();
  for (let i = 0; i < 4; i++) {
    const r: Record<string, number> = {};
    let t = cpu();
    const lap = (k: string) => { const now = cpu(); r[k] = Math.round(now - t); t = now; };
    const doc = docs.get({ uri: 'x:q', version: i + 1, getText: () => text.replace(/\n$/, '\n' + '#'.repeat(i)) });
    const parsed = doc.parsed; void parsed.value; lap('model');
    const resolved = resolveManifest(parsed.value, { parsed, locateSource: parsed.locateSource }); lap('resolve');
    validateResolvedManifest(resolved.value, resolved.origins.unresolved); lap('schema');
    templateProblems(parsed, resolved, CATALOG_TEMPLATES); lap('templates');
    const problems = validateManifest(parsed); lap('validateManifest(all)');
    problems.map((p) => problemToDiagnostic(doc.textDocument, p)); lap('toDiagnostics');
    JSON.stringify(problems); lap('json');
    console.log(n, i, JSON.stringify(r));
  }
}

// Corpus check of the language server's incremental model against the runtime's whole-document
// parse: the same value, the same YAML problems, and the same validation diagnostics (same spans)
// on each manifest and on a mutated copy of it (a misspelt `type`, a removed line). The
// whole-document side runs with the indentation locator (quickLocate.ts) off, so the check also
// proves that locator gives the parser's spans. It also finds every template of each manifest both
// ways (scalars located by indentation in the model's blocks, quickScalar.ts, against the parser's
// scalars in the whole document) and requires the same templates at the same offsets.
// Usage: node --import tsx bench/lspModelConsistency.ts [dir]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseManifest } from '../server/src/runtime/manifest/parse';
import { validateManifest } from '../server/src/runtime/validation/validateManifest';
import { ManifestDocument } from '../server/src/documents';
import { quickLocateSwitch } from '../server/src/runtime/manifest/locator/quickLocate';
import { resolveManifest } from '../server/src/runtime/manifest/resolve';
import { findTemplates } from '../server/src/runtime/rules/templateFields';
import { CATALOG_TEMPLATES } from '../server/src/runtime/rules/templateRules';

const dir = process.argv[2] ?? '../shared/corpus/manifests';
let same = 0;
const mismatches: string[] = [];
let tModel = 0;
let tParse = 0;
let templates = 0;

function mutations(text: string): string[] {
  const out = [text];
  const typeAt = text.indexOf('type: DpathExtractor');
  if (typeAt >= 0) out.push(text.slice(0, typeAt) + 'type: DpathExtracter' + text.slice(typeAt + 20));
  const lines = text.split('\n');
  const req = lines.findIndex((l) => /^\s+url_base:/.test(l));
  if (req >= 0) out.push([...lines.slice(0, req), ...lines.slice(req + 1)].join('\n'));
  return out;
}

// Duplicate keys: the model underlines the whole later key where yaml marks its first character.
// Related information ("Brought in by this reference") is compared too: its spans come from the locator.
type Located = {
  code: string;
  severity: string;
  span: { start: number; end: number };
  related?: { span: { start: number; end: number } }[];
};
const brief = (ps: Located[]) =>
  ps
    .map(
      (p) =>
        `${p.code}|${p.severity}|${p.span.start}-${p.code === 'duplicate-key' ? '' : p.span.end}|${(p.related ?? []).map((r) => `${r.span.start}-${r.span.end}`).join(',')}`,
    )
    .sort();

const names = readdirSync(dir)
  .filter((n) => n.endsWith('.yaml'))
  .sort();
for (const [n, name] of names.entries()) {
  const original = readFileSync(join(dir, name), 'utf8');
  // Every manifest as is; mutated copies of every fourth (the whole-document side is slow).
  const texts = n % 4 === 0 || process.env.CONSISTENCY_ALL ? mutations(original) : [original];
  for (const [i, text] of texts.entries()) {
    let t = performance.now();
    const doc = new ManifestDocument(`file:///${name}`, 1, text, undefined);
    const fast = validateManifest(doc.parsed);
    tModel += performance.now() - t;
    t = performance.now();
    const whole = parseManifest(text);
    quickLocateSwitch.enabled = false;
    const slow = validateManifest(whole);
    quickLocateSwitch.enabled = true;
    tParse += performance.now() - t;
    const syntax = (ps: { code: string }[]) => ps.some((p) => p.code === 'yaml-syntax');
    if (syntax(slow)) {
      // Broken YAML: block-wise reading confines the damage (by design), so only agreement that
      // the text is broken is required.
      if (syntax(fast)) same++;
      else mismatches.push(`${name}#${i}: the document has YAML errors, the model none`);
      continue;
    }
    if (i === 0) {
      const resolved = resolveManifest(whole.value, { parsed: whole });
      // The model's sources: scalars found by indentation per block, cached with the block.
      const quick = findTemplates(doc.parsed.locator, text, resolved, CATALOG_TEMPLATES);
      quickLocateSwitch.enabled = false;
      const parser = findTemplates(whole.locator, text, resolved, CATALOG_TEMPLATES);
      quickLocateSwitch.enabled = true;
      templates += quick.length;
      if (!isDeepStrictEqual(quick, parser)) mismatches.push(`${name}: templates located by indentation differ from the parser's`);
    }
    const valueSame = isDeepStrictEqual(JSON.parse(JSON.stringify(doc.model.value)), JSON.parse(JSON.stringify(whole.value)));
    if (valueSame && isDeepStrictEqual(brief(fast), brief(slow))) same++;
    else
      mismatches.push(
        `${name}#${i}: ${valueSame ? '' : 'value differs; '}model ${JSON.stringify(brief(fast).slice(0, 3))} vs document ${JSON.stringify(brief(slow).slice(0, 3))}`,
      );
  }
}
console.log(`templates: ${templates} located the same by indentation and by the parser`);
console.log(
  `model vs whole-document: ${same} identical, ${mismatches.length} different; parse+validate ${tModel.toFixed(0)} ms (model) vs ${tParse.toFixed(0)} ms (yaml Document)`,
);
for (const m of mismatches.slice(0, 30)) console.log(`  differs: ${m}`);
process.exit(mismatches.length ? 1 : 0);

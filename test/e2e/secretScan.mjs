// Scans folders for the e2e secret values (test/e2e/secretValues.json) and for tokens the suites
// observed at run time (.e2e/run/observed-secrets.json). Returns one line per file that contains one.
import { readdirSync, readFileSync, statSync, existsSync, lstatSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The secret strings to look for: the fixed testing values plus tokens recorded during the run. */
export function secretNeedles(runDir) {
  const fixed = JSON.parse(readFileSync(join(HERE, 'secretValues.json'), 'utf8')).values;
  const observedFile = join(runDir, 'observed-secrets.json');
  const observed = existsSync(observedFile) ? JSON.parse(readFileSync(observedFile, 'utf8')) : [];
  return [...new Set([...fixed, ...observed])].filter((s) => typeof s === 'string' && s.length >= 8);
}

/** Files under `roots` containing any needle, as "path: <which secret index>" (never the value itself). */
export function scanForSecrets(roots, needles) {
  const hits = [];
  const buffers = needles.map((n) => [Buffer.from(n, 'utf8'), Buffer.from(n, 'utf16le')]);
  const visit = (p) => {
    let st;
    try { st = lstatSync(p); } catch { return; }
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) { for (const name of readdirSync(p)) visit(join(p, name)); return; }
    if (!st.isFile() || st.size > 50 * 1024 * 1024) return;
    let data;
    try { data = readFileSync(p); } catch { return; }
    buffers.forEach(([utf8, utf16], i) => {
      if (data.includes(utf8) || data.includes(utf16)) hits.push(`${p}: secret #${i + 1}`);
    });
  };
  for (const r of roots) if (existsSync(r) && statSync(r)) visit(r);
  return hits;
}

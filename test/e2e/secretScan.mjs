// Scans folders for the e2e secret values (test/e2e/secretValues.json) and for tokens the suites
// observed at run time (.e2e/run/observed-secrets.json), each in every encoding it could be written
// in (as is, JSON-escaped, URL-encoded, form-encoded, base64 and URL-safe base64). Returns one line per
// file that contains one. The encodings (secretEncodings.mjs) are written independently of the
// runtime's masker, so they check it.
import { readdirSync, readFileSync, statSync, existsSync, lstatSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodedNeedles, findSecretsIn } from './secretEncodings.mjs';

export { encodedNeedles, findSecretsIn };

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
  const buffers = needles.flatMap((n, i) =>
    encodedNeedles(n).map((f) => [Buffer.from(f.value, 'utf8'), Buffer.from(f.value, 'utf16le'), `${i + 1} (${f.encoding})`]),
  );
  const visit = (p) => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) visit(join(p, name));
      return;
    }
    if (!st.isFile() || st.size > 50 * 1024 * 1024) return;
    let data;
    try {
      data = readFileSync(p);
    } catch {
      return;
    }
    for (const [utf8, utf16, label] of buffers) {
      if (data.includes(utf8) || data.includes(utf16)) hits.push(`${p}: secret #${label}`);
    }
  };
  for (const r of roots) if (existsSync(r) && statSync(r)) visit(r);
  return hits;
}

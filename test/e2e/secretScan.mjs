// Scans folders for the e2e secret values (test/e2e/secretValues.json) and for tokens the suites
// observed at run time (.e2e/run/observed-secrets.json), each in every encoding it could be written
// in (as is, JSON-escaped, URL-encoded, form-encoded, base64 and URL-safe base64). Returns one line per
// file that contains one. Written independently of the runtime's masker, so it checks it.
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

/** The forms of one secret the scans look for, with the name of each encoding. */
export function encodedNeedles(secret) {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = {
    raw: secret,
    json,
    'json-ascii': json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    url: encodeURIComponent(secret),
    'url-lower': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()),
    'url-plus': encodeURIComponent(secret).replace(/%20/g, '+'),
    form: new URLSearchParams({ s: secret }).toString().slice(2),
    'url-slash': encodeURIComponent(secret).replace(/%2F/g, '/'),
    base64: b64.replace(/=+$/, ''),
    'base64-url': b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  };
  const seen = new Set();
  return Object.entries(forms).filter(([, v]) => v.length >= 8 && !seen.has(v) && seen.add(v)).map(([encoding, value]) => ({ encoding, value }));
}

/** Which secrets (by index, with the encoding) occur in `text`; never the values themselves. */
export function findSecretsIn(text, secrets) {
  const hits = [];
  secrets.forEach((s, i) => { for (const n of encodedNeedles(s)) if (text.includes(n.value)) hits.push(`secret #${i + 1} (${n.encoding})`); });
  return hits;
}

/** Files under `roots` containing any needle, as "path: <which secret index>" (never the value itself). */
export function scanForSecrets(roots, needles) {
  const hits = [];
  const buffers = needles.flatMap((n, i) => encodedNeedles(n).map((f) => [Buffer.from(f.value, 'utf8'), Buffer.from(f.value, 'utf16le'), `${i + 1} (${f.encoding})`]));
  const visit = (p) => {
    let st;
    try { st = lstatSync(p); } catch { return; }
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) { for (const name of readdirSync(p)) visit(join(p, name)); return; }
    if (!st.isFile() || st.size > 50 * 1024 * 1024) return;
    let data;
    try { data = readFileSync(p); } catch { return; }
    for (const [utf8, utf16, label] of buffers) {
      if (data.includes(utf8) || data.includes(utf16)) hits.push(`${p}: secret #${label}`);
    }
  };
  for (const r of roots) if (existsSync(r) && statSync(r)) visit(r);
  return hits;
}

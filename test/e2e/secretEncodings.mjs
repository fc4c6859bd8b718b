// The encodings a secret could be written in (as is, JSON-escaped, URL-encoded, form-encoded, base64
// and URL-safe base64), looked for by the e2e secret checks and the unit acceptance test. Pure (no
// import.meta, no file access) so that the extension-host bundle can include it. Written
// independently of the runtime's masker (server/src/runtime/shared/secretPatterns.ts), so it checks it.

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
  return Object.entries(forms)
    .filter(([, v]) => v.length >= 8 && !seen.has(v) && seen.add(v))
    .map(([encoding, value]) => ({ encoding, value }));
}

/** Which secrets (by index, with the encoding) occur in `text`; never the values themselves. */
export function findSecretsIn(text, secrets) {
  const hits = [];
  secrets.forEach((s, i) => {
    for (const n of encodedNeedles(s)) if (text.includes(n.value)) hits.push(`secret #${i + 1} (${n.encoding})`);
  });
  return hits;
}

// Masking in every encoding: each secret (with `/`, `+`, `=`, spaces and non-ASCII) is found as
// written, JSON-escaped, URL-encoded in all usual flavours, HTML-escaped, base64 (standard, URL-safe,
// inside a Basic header) and in whatever the template filters make of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SecretMasker } from '../../../server/src/runtime/testRead/masking';
import { encodedForms, maskSecretsIn, compileSecrets } from '../../../server/src/runtime/shared/secretPatterns';
import { interpolate } from '../../../server/src/runtime/interpolation';

const SECRETS = ['1//0gAbC+de/f= x é', 'p@ss word/+=ü€', 'sk_live+/==', 'tökén with spaces', '🔑key/+=emoji'];

function masker(): SecretMasker {
  const m = new SecretMasker();
  for (const s of SECRETS) m.add(s);
  return m;
}

test('every encoded form of every secret is masked, alone and inside text', () => {
  const m = masker();
  for (const s of SECRETS) {
    for (const form of encodedForms(s)) {
      assert.equal(m.maskText(form), '****', `${JSON.stringify(s)} as ${JSON.stringify(form)}`);
      assert.equal(m.maskText(`before ${form} after`), 'before **** after');
    }
  }
});

test('URL encodings: %2F and + forms, lower-case hex, double encoding, Python quote_plus', () => {
  const m = masker();
  const s = SECRETS[0];
  const forms = [
    encodeURIComponent(s),
    encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()),
    encodeURIComponent(s).replace(/%20/g, '+'),
    encodeURIComponent(encodeURIComponent(s)),
    new URLSearchParams({ refresh_token: s }).toString(),
  ];
  for (const f of forms) assert.doesNotMatch(m.maskText(f), /0gAbC/, f);
  assert.equal(
    m.maskText(`grant_type=refresh_token&refresh_token=${encodeURIComponent(s)}&x=1`),
    'grant_type=refresh_token&refresh_token=****&x=1',
  );
});

test('JSON: JavaScript escapes, Python ensure_ascii, escaped slashes, Jinja tojson', () => {
  const m = masker();
  const s = SECRETS[1];
  const py = JSON.stringify(s)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
  assert.equal(m.maskText(py), '"****"');
  assert.equal(m.maskText(JSON.stringify({ token: s })), '{"token":"****"}');
  assert.equal(m.maskText(JSON.stringify({ token: SECRETS[4] })), '{"token":"****"}');
});

test('base64: standard, URL-safe, unpadded, and a secret inside a longer base64 text such as Basic user:pass', () => {
  const m = masker();
  for (const s of SECRETS) {
    const b = Buffer.from(s, 'utf8');
    assert.equal(m.maskText(b.toString('base64')), '****');
    assert.equal(m.maskText(b.toString('base64url')), '****');
    for (const prefix of ['u:', 'us:', 'use:', 'someone@example.com:']) {
      const basic = Buffer.from(`${prefix}${s}`, 'utf8').toString('base64');
      const masked = m.maskText(`Basic ${basic}`);
      assert.notEqual(masked, `Basic ${basic}`, `${prefix}${s}`);
      // Whatever is left around the mask cannot give the secret back.
      const left = Buffer.from(masked.slice(6).replace('****', ''), 'base64').toString('utf8');
      assert.ok(!left.includes(s.slice(0, 4)) && !left.includes(s.slice(-4)), `${prefix}: ${left}`);
    }
  }
});

test('HTML escapes (Jinja escape) and Python repr escapes', () => {
  const m = new SecretMasker();
  m.add(`a<b>&"c'd/é`);
  assert.equal(m.maskText('a&lt;b&gt;&amp;&#34;c&#39;d/é'), '****');
  assert.equal(m.maskText('a&lt;b&gt;&amp;&quot;c&#x27;d/&#233;'), '****');
  assert.equal(m.maskText(`'a<b>&"c\\'d/\\xe9'`), "'****'");
});

test('whatever a template filter makes of a secret is masked', () => {
  const m = masker();
  const filters = ['base64encode', 'base64binascii_decode', 'urlencode', 'tojson', 'escape', 'string', 'pprint', 'trim', 'format'];
  const ascii = 'sk_live+/== x';
  m.add(ascii);
  for (const s of [...SECRETS, ascii]) {
    for (const f of filters) {
      let out: unknown;
      try {
        out = interpolate(`{{ config.secret | ${f} }}`, { config: { secret: s } }, 'string');
      } catch {
        continue; // base64binascii_decode refuses non-ASCII
      }
      const text = String(out);
      assert.doesNotMatch(m.maskText(text), /sk_live|0gAbC|word|spaces|emoji/, `${f}(${JSON.stringify(s)}) = ${text}`);
    }
    const dict = interpolate(`{{ {'token': config.secret} | urlencode }}`, { config: { secret: s } }, 'string');
    assert.equal(m.maskText(String(dict)), 'token=****');
  }
});

test('nothing else is touched; masking a large body stays fast', () => {
  const m = masker();
  const body = JSON.stringify(
    Array.from({ length: 20000 }, (_, i) => ({
      id: i,
      name: `record ${i}`,
      url: `https://x.example/a?b=${i}&c=%20d+e`,
      note: 'caf\\u00e9 &amp; more',
    })),
  );
  const started = Date.now();
  assert.equal(m.maskText(body), body);
  // A hang guard (speed is bench/masking.mjs): a scan gone quadratic takes minutes on this body.
  assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
  assert.equal(maskSecretsIn('abc', compileSecrets(['ab'])), 'abc', 'secrets shorter than 3 characters are not looked for');
});

test('a secret whose every character is encoded is masked: %XX in either case, &#x..;, &#..;, \\uXXXX, \\xXX, double %25XX', () => {
  const secret = 'ak-Secret_7.Q9z~';
  const m = new SecretMasker();
  m.add(secret);
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
  const wholly = [
    [...secret].map((c) => `%${hex(c).toUpperCase()}`).join(''),
    [...secret].map((c) => `%${hex(c)}`).join(''),
    [...secret].map((c) => `%25${hex(c)}`).join(''),
    [...secret].map((c) => `&#x${hex(c)};`).join(''),
    [...secret].map((c) => `&#X00${hex(c).toUpperCase()};`).join(''),
    [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...secret].map((c) => `&#000${c.charCodeAt(0)};`).join(''),
    [...secret].map((c) => `\\u00${hex(c)}`).join(''),
    [...secret].map((c) => `\\x${hex(c)}`).join(''),
    // Every other character encoded, each a different way.
    [...secret].map((c, i) => (i % 2 ? c : [`%${hex(c)}`, `&#${c.charCodeAt(0)};`, `\\u00${hex(c)}`][i % 3])).join(''),
  ];
  for (const form of wholly) {
    assert.equal(m.maskText(form), '****', form);
    assert.equal(m.maskText(`{"a": "x ${form} y", "b": "%20 &amp; \\u00e9"}`), '{"a": "x **** y", "b": "%20 &amp; \\u00e9"}', form);
    assert.deepEqual(m.maskValue({ [form]: [form] }), { '****': ['****'] });
  }
});

test('an escape cannot hide a literal run of the secret from the masker: "%" before a literal part, the rest encoded', () => {
  // The regex reads `41` literally and `%63` as c; a decoder reading `%41` first would not see the hint.
  const m = new SecretMasker();
  m.add('41cd-token');
  const tricky = `%41%63d%2Dtoken`;
  assert.equal(m.maskText(tricky), '%****');
});

test('base64 of a secret at every offset of a longer text is masked (the characters that depend only on it)', () => {
  const secret = 'ak-Secret-7Q9z';
  const m = new SecretMasker();
  m.add(secret);
  for (const prefix of ['', 'x', 'xy', 'xyz', 'user:']) {
    const b64 = Buffer.from(`${prefix}${secret}:tail`).toString('base64');
    const masked = m.maskText(b64);
    assert.match(masked, /\*\*\*\*/, prefix);
    assert.ok(masked.length < b64.length - 8, `${prefix}: ${masked}`);
  }
});

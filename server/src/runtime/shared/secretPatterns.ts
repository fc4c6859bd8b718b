// Finds secrets in every encoding a request, a response, a log or a template filter can give them:
// as written; JSON-escaped (incl. Python's ensure_ascii `\u00e9`, Jinja's tojson `\u0027`, `\/`);
// URL-encoded (encodeURIComponent, Jinja's urlencode with `/` kept, form encoding with `+` for a
// space, lower- or upper-case hex, and once more percent-encoded); HTML-escaped (Jinja's escape);
// Python repr escapes; and base64 (standard and URL-safe, with or without padding, standalone or
// inside a longer base64 text such as Basic `user:pass`). Each character of a secret may appear in
// any of its forms, so mixed encodings match too. Pure (imports only the pure safeObject): the client uses it too.
import { setOwn } from './safeObject';

export const MASK = '****';

/** Secrets shorter than this are not looked for: they would mask unrelated text. */
export const MIN_SECRET_LENGTH = 3;

/** A base64 fragment of a secret embedded at an offset must be at least this long to be looked for. */
const MIN_EMBEDDED_BASE64 = 6;

const utf8 = new TextEncoder();

/** Leading zeros matched in a numeric HTML reference (`&#0000065;`). */
const MAX_LEADING_ZEROS = 8;

/**
 * The longest text one character of a secret can take in any form above: four UTF-8 bytes each
 * double percent-encoded (`%25XX`, 20), a surrogate pair of `\uXXXX` (12), a numeric reference with
 * its leading zeros (`&#x` + 8 + 6 + `;`, 18). A match of a secret of n characters is at most n times this.
 */
const MAX_FORM_LENGTH = 20;

/**
 * Every escape that can stand for a letter, a digit or `-_.~` (the characters of a hint): `%XX` (also
 * double-encoded `%25XX`), `&#x..;`, `&#..;`, `\uXXXX` and `\xXX`. Leading zeros are not bounded
 * here: the scan may find more than the forms match, never less.
 */
const HINT_ESCAPE = /%(?:25)?([0-9a-fA-F]{2})|&#[xX]0*([0-9a-fA-F]{1,6});|&#0*([0-9]{1,7});|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/y;
const HINT_CHAR = /^[A-Za-z0-9_.~-]$/;
const ANY_INTRODUCER = /[%&\\]/;

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Hex digits of `n` (padded to `width`) matching either letter case. */
function hexPattern(n: number, width: number): string {
  return n
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`);
}

const JSON_SHORT: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};
const HTML_NAMED: Record<string, string[]> = { '&': ['&amp;'], '<': ['&lt;'], '>': ['&gt;'], '"': ['&quot;'], "'": ['&apos;'] };

/** Every form one character can take in the encodings above, as a regex alternation. */
function charForms(ch: string, extra: string[] = []): string {
  const alts = new Set<string>([escapeRegex(ch), ...extra]);
  // Percent-encoding of the UTF-8 bytes (also double-encoded as %25XX).
  alts.add([...utf8.encode(ch)].map((b) => `%(?:25)?${hexPattern(b, 2)}`).join(''));
  // JSON / JavaScript / Python \uXXXX escapes of the UTF-16 units.
  let units = '';
  for (let i = 0; i < ch.length; i++) units += `\\\\u${hexPattern(ch.charCodeAt(i), 4)}`;
  alts.add(units);
  if (JSON_SHORT[ch]) alts.add(escapeRegex(JSON_SHORT[ch]));
  const code = ch.codePointAt(0) as number;
  if (code < 0x100) alts.add(`\\\\x${hexPattern(code, 2)}`);
  if (ch === "'") alts.add("\\\\'");
  // HTML character references, named and numeric.
  for (const named of HTML_NAMED[ch] ?? []) alts.add(escapeRegex(named));
  // Leading zeros are bounded so that a match has a bounded length (see MAX_FORM_LENGTH).
  alts.add(`&#0{0,${MAX_LEADING_ZEROS}}${code};`);
  alts.add(`&#[xX]0{0,${MAX_LEADING_ZEROS}}${hexPattern(code, 1)};`);
  if (ch === ' ') alts.add('\\+');
  return alts.size === 1 ? [...alts][0] : `(?:${[...alts].join('|')})`;
}

function textPattern(text: string): string {
  return Array.from(text, (ch) => charForms(ch)).join('');
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A base64 text, matched in the standard and URL-safe alphabets and in any of the text encodings. */
function base64Pattern(b64: string): string {
  return Array.from(b64, (ch) => (ch === '+' ? charForms(ch, ['-']) : ch === '/' ? charForms(ch, ['_']) : charForms(ch))).join('');
}

/**
 * The base64 forms of a secret: its whole encoding (padding optional), and the characters that depend
 * only on the secret when it sits at byte offset 1 or 2 of a longer encoded text.
 */
function base64Patterns(secret: string): Array<{ text: string; source: string }> {
  const bytes = utf8.encode(secret);
  const out: Array<{ text: string; source: string }> = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = toBase64(padded).replace(/=+$/, '');
    // Character i covers bits [6i, 6i+6); keep those inside the secret's bits [8·offset, 8·(offset+n)).
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    if (offset === 0) {
      const pad = (3 - (bytes.length % 3)) % 3;
      out.push({ text: encoded, source: `${base64Pattern(encoded)}${pad ? `(?:=|%(?:25)?3[dD]){0,${pad}}` : ''}` });
      if (core.length >= MIN_EMBEDDED_BASE64 && core !== encoded) out.push({ text: core, source: base64Pattern(core) });
    } else if (core.length >= MIN_EMBEDDED_BASE64) out.push({ text: core, source: base64Pattern(core) });
  }
  return out;
}

/**
 * One encoded form of a secret: a regex; a literal that every match *without any escape in it*
 * contains (null when there is none); and the longest text a match can span.
 */
type SecretForm = { hint: string | null; re: RegExp; maxLength: number };

/** Compiled secrets, longest secret first, ready for `maskSecretsIn`. */
export type CompiledSecrets = readonly SecretForm[];

/**
 * The longest run of characters that no supported text encoding changes (letters, digits, `-_.~`),
 * or null when it is too short to be worth a pre-check. Scanning for it first keeps masking of large
 * bodies fast: the regex only runs over text that contains it.
 */
function hintOf(text: string, minLength: number): string | null {
  let best = '';
  for (const run of text.match(/[A-Za-z0-9_.~-]+/g) ?? []) if (run.length > best.length) best = run;
  return best.length >= minLength ? best : null;
}

function forms(secret: string): SecretForm[] {
  const out: SecretForm[] = [
    { hint: hintOf(secret, 3), re: new RegExp(textPattern(secret), 'g'), maxLength: secret.length * MAX_FORM_LENGTH },
  ];
  for (const { text, source } of base64Patterns(secret)) {
    // `+` and `/` differ between the alphabets and encodings; letters and digits never do.
    const run = (text.match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
    // Padding (`=` or `%3D`, up to 2) adds at most 10.
    out.push({ hint: run.length >= 4 ? run : null, re: new RegExp(source, 'g'), maxLength: text.length * MAX_FORM_LENGTH + 10 });
  }
  return out;
}

/** Compiles secrets for masking; secrets shorter than `minLength` are left out. */
export function compileSecrets(secrets: readonly string[], minLength = MIN_SECRET_LENGTH): CompiledSecrets {
  const usable = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= Math.max(1, minLength)))].sort(
    (a, b) => b.length - a.length,
  );
  return usable.flatMap(forms);
}

/** Where a text escapes a hint character, and which characters it escapes. */
type HintEscapes = { chars: Set<string>; offsets: number[] };

function hexAt(text: string, at: number, digits: number): number {
  let n = 0;
  for (let i = at; i < at + digits; i++) {
    const c = text.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return -1;
    n = n * 16 + d;
  }
  return n;
}

/** The character an escape at `at` stands for when it is a hint character, else ''. */
function hintEscapeAt(text: string, at: number): string {
  const c = text[at];
  let code = -1;
  if (c === '%') {
    code = hexAt(text, at + 1, 2);
    // `%25XX`: double-encoded.
    if (code === 0x25 && hexAt(text, at + 3, 2) >= 0) code = hexAt(text, at + 3, 2);
  } else if (c === '\\') {
    const kind = text[at + 1];
    code = kind === 'u' ? hexAt(text, at + 2, 4) : kind === 'x' ? hexAt(text, at + 2, 2) : -1;
  } else if (c === '&' && text[at + 1] === '#') {
    HINT_ESCAPE.lastIndex = at;
    const m = HINT_ESCAPE.exec(text);
    if (m) code = m[2] !== undefined ? parseInt(m[2], 16) : m[3] !== undefined ? parseInt(m[3], 10) : -1;
  }
  const ch = code >= 0 && code < 0x80 ? String.fromCharCode(code) : '';
  return HINT_CHAR.test(ch) ? ch : '';
}

function hintEscapesOf(text: string): HintEscapes {
  const out: HintEscapes = { chars: new Set(), offsets: [] };
  if (!ANY_INTRODUCER.test(text)) return out;
  // indexOf finds the introducers (`%`, `&`, `\`) fast; the escape there is read by hand.
  for (const introducer of ['%', '&', '\\']) {
    for (let at = text.indexOf(introducer); at >= 0; at = text.indexOf(introducer, at + 1)) {
      const ch = hintEscapeAt(text, at);
      if (!ch) continue;
      out.chars.add(ch);
      out.offsets.push(at);
    }
  }
  out.offsets.sort((a, b) => a - b);
  return out;
}

/**
 * `text` with the matches of `forms` replaced, looking only near `offsets` (escapes of hint
 * characters): a match that does not contain its form's literal hint has at least one character of
 * the hint escaped, and lies within the form's `maxLength` of that escape. Only those windows are
 * searched, each form in turn.
 */
function replaceNear(text: string, forms: SecretForm[], offsets: number[]): string {
  const reach = Math.max(...forms.map((f) => f.maxLength));
  let out = '';
  let done = 0;
  let i = 0;
  while (i < offsets.length) {
    const start = Math.max(done, offsets[i] - reach);
    let end = Math.min(text.length, offsets[i] + reach + 1);
    // Windows that touch are searched as one, so a match across them is whole.
    while (i + 1 < offsets.length && offsets[i + 1] - reach <= end) end = Math.min(text.length, offsets[++i] + reach + 1);
    i++;
    let window = text.slice(start, end);
    for (const form of forms) {
      form.re.lastIndex = 0;
      window = window.replace(form.re, MASK);
    }
    out += text.slice(done, start) + window;
    done = end;
  }
  return out + text.slice(done);
}

/**
 * Replaces every form of every secret in `text` by `****`. A form whose literal hint is in the text is
 * searched everywhere (longest secret first); the others only around escapes of their hint's
 * characters, where a wholly or partly encoded secret (`%61%62…`, `&#x61;…`, `\u0061…`) can be, all in
 * one pass over those windows. Text with neither costs one scan for the hints and one for escapes.
 */
export function maskSecretsIn(text: string, secrets: readonly string[] | CompiledSecrets): string {
  const compiled =
    secrets.length > 0 && typeof secrets[0] === 'string' ? compileSecrets(secrets as string[]) : (secrets as CompiledSecrets);
  let out = text;
  let deferred = false;
  for (const form of compiled) {
    if (out.length === 0) return out;
    if (form.hint === null || out.includes(form.hint)) {
      form.re.lastIndex = 0;
      out = out.replace(form.re, MASK);
    } else deferred = true;
  }
  if (!deferred || out.length === 0) return out;
  const escapes = hintEscapesOf(out);
  if (escapes.offsets.length === 0) return out;
  const chars = [...escapes.chars];
  // The forms left for the windows: hint not in the text, and some character of it escaped there.
  const near = compiled.filter((f) => f.hint !== null && !out.includes(f.hint) && chars.some((c) => (f.hint as string).includes(c)));
  return near.length ? replaceNear(out, near, escapes.offsets) : out;
}

/** A copy of a JSON-like value with every string (keys too) masked. */
export function maskDeep<T>(value: T, compiled: CompiledSecrets): T {
  if (compiled.length === 0) return value;
  if (typeof value === 'string') return maskSecretsIn(value, compiled) as T;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, compiled)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) setOwn(out, maskSecretsIn(k, compiled), maskDeep(v, compiled));
    return out as T;
  }
  return value;
}

/** The encoded forms of a secret that tests and scanners look for (the forms other programs most often produce). */
export function encodedForms(secret: string): string[] {
  const bytes = utf8.encode(secret);
  const std = toBase64(bytes);
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret)
      .slice(1, -1)
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    new URLSearchParams({ s: secret }).toString().slice(2),
    encodeURIComponent(secret).replace(/%2F/g, '/'),
    std,
    std.replace(/=+$/, ''),
    std.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  ];
  return [...new Set(forms)];
}

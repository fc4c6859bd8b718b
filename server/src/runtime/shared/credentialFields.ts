// The config values a manifest uses as credentials, marked `airbyte_secret` in the spec or not: every
// config value that a template of an authenticator's credential field reads (api_token, password,
// client_secret, refresh_token, secret_key, session_token, tokens…), and every config value a requester
// or an authenticator renders into a header, query parameter or body field whose name says it is a
// credential (Authorization, X-Api-Key, password, token…). Found from the resolved manifest before any
// request is made, so a read that fails early, a captured read's config and a cassette's config are
// masked as a finished read is. Pure (imports nothing): the runtime, the server and the CLI share it.

/** Fields of an authenticator whose value is a credential as a whole. */
const CREDENTIAL_FIELDS = new Set([
  'api_token',
  'password',
  'client_secret',
  'refresh_token',
  'access_token_value',
  'secret_key',
  'session_token',
  'tokens',
  'token',
  'private_key',
  'api_key',
]);

/** Header, parameter and body-field names that carry a credential. */
const CREDENTIAL_NAME =
  /pass(word|phrase)?|secret|token|api[-_]?key|private[-_]?key|credential|^auth|authori[sz]ation|session|cookie|jwt|signature|^x-.*key$/i;

/** Names that look like a credential's but never hold one (URLs, dates, formats of token endpoints). */
const NOT_A_CREDENTIAL =
  /(_url|_endpoint|_path|_date|_format|_name|_type|_field|_in|_expiry.*|_pointer|_header)$|^(token_refresh_endpoint|refresh_token_updater|expires_in_name|grant_type)$/i;

/** Fields of a requester (or a login requester) whose keys are header, parameter or body names. */
const NAMED_VALUES = new Set([
  'request_headers',
  'request_parameters',
  'request_body_json',
  'request_body_data',
  'request_body',
  'refresh_request_headers',
  'refresh_request_body',
]);

const MAX_DEPTH = 64;

/**
 * `config['a']["b"].c.get('d')` chains in a template, as config paths. A `.get('k')` or `.get('k', default)`
 * with a literal default (`{}`, `''`, `None`, a number…) that closes continues the chain, so
 * `config.get('credentials', {}).get('api_key')` is `credentials.api_key`, not all of `credentials`; a call
 * that does not close that way ends the chain at its key (the whole value is taken: masks more, never less).
 */
const GET_DEFAULT = String.raw`(?:\s*,\s*(?:\{\s*\}|\[\s*\]|'[^']*'|"[^"]*"|None|True|False|-?\d+(?:\.\d+)?))?\s*\)`;
const CONFIG_ACCESS = new RegExp(
  String.raw`\bconfig((?:\s*\.get\(\s*(?:'[^']*'|"[^"]*")(?:${GET_DEFAULT})?|\s*\.\s*[A-Za-z_]\w*|\s*\[\s*(?:'[^']*'|"[^"]*"|\d+)\s*\])+)`,
  'g',
);
const ACCESS_STEP = new RegExp(
  String.raw`\.get\(\s*(?:'([^']*)'|"([^"]*)")(?:${GET_DEFAULT})?|\.\s*([A-Za-z_]\w*)|\[\s*(?:'([^']*)'|"([^"]*)"|(\d+))\s*\]`,
  'g',
);

/** The config paths a template text reads (`config['a'].b` → ['a', 'b']). */
export function configPathsIn(template: string): string[][] {
  const out: string[][] = [];
  if (!template.includes('config')) return out;
  for (const m of template.matchAll(CONFIG_ACCESS)) {
    const path: string[] = [];
    for (const s of m[1].matchAll(ACCESS_STEP)) {
      // `config.get('x')` reads `config['x']`.
      const seg = s[1] ?? s[2] ?? s[3] ?? s[4] ?? s[5] ?? s[6];
      if (seg !== undefined) path.push(seg);
    }
    if (path.length) out.push(path);
  }
  return out;
}

/** The value at a config path (looking through arrays by index), or undefined. */
function valueAt(config: unknown, path: string[]): unknown {
  let node = config;
  for (const seg of path) {
    if (node === null || typeof node !== 'object') return undefined;
    if (!Object.hasOwn(node, seg)) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

function leavesOf(value: unknown, out: string[], depth = 0): void {
  if (typeof value === 'string' || typeof value === 'number') out.push(String(value));
  else if (value && typeof value === 'object' && depth < MAX_DEPTH) for (const v of Object.values(value)) leavesOf(v, out, depth + 1);
}

function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name) && !NOT_A_CREDENTIAL.test(name);
}

/**
 * The config paths the manifest's authenticators and requesters use as credentials. `manifest` is the
 * resolved manifest (references inlined); anything that is not an object gives [].
 */
export function credentialConfigPaths(manifest: unknown): string[][] {
  const found = new Map<string, string[]>();
  const addFrom = (node: unknown, depth: number): void => {
    if (typeof node === 'string') {
      for (const p of configPathsIn(node)) found.set(JSON.stringify(p), p);
    } else if (node && typeof node === 'object' && depth < MAX_DEPTH) {
      for (const v of Object.values(node)) addFrom(v, depth + 1);
    }
  };
  // `inAuth`: below an authenticator, where the credential fields are looked at.
  const walk = (node: unknown, inAuth: boolean, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, inAuth, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (NAMED_VALUES.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
        for (const [name, v] of Object.entries(value as Record<string, unknown>)) if (isCredentialName(name)) addFrom(v, depth + 2);
        walk(value, inAuth, depth + 1);
      } else if (inAuth && CREDENTIAL_FIELDS.has(key)) {
        addFrom(value, depth + 1);
      } else {
        walk(value, inAuth || key === 'authenticator' || key === 'authenticators' || key === 'login_requester', depth + 1);
      }
    }
  };
  walk(manifest, false, 0);
  return [...found.values()];
}

/** The config values (strings and numbers, leaves of objects and lists) the manifest uses as credentials. */
export function credentialConfigValues(manifest: unknown, config: unknown): string[] {
  const out: string[] = [];
  for (const path of credentialConfigPaths(manifest)) leavesOf(valueAt(config, path), out);
  return out;
}

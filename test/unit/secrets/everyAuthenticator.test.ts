// Acceptance: a read with each authenticator kind, with secrets that contain `/`, `+`, `=`, spaces and
// non-ASCII, against an API that checks the credentials and echoes everything it received back in
// many encodings. No secret (configured or issued: access, refresh and session tokens) may appear in
// any encoding (raw, JSON, URL, form, base64, Basic) in the StreamRead or in the CLI's output (json and
// pretty). The oracle is the e2e secret scan's own list of encodings (test/e2e/secretEncodings.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { jwtVerify } from 'jose';
import type { ServerResponse } from 'node:http';
import { startLoopback, json, type Recorded } from '../testRead/loopback';
import { testRead } from '../../../server/src/runtime/testRead/testRead';
import { readCommand } from '../../../server/src/runtime/cli/readCommand';

// Header-borne secrets must be Latin-1 (HTTP); the others carry non-ASCII too.
const S = {
  username: 'reader',
  basic_password: 'bàsic pass/+=wörd',
  bearer_token: 'bearer tok/+=en 42',
  api_key_header: 'hdr key/+=7 abc',
  api_key_query: 'qry kéy/+=8 ü',
  jwt_secret: 'jwt sécret/+=key',
  client_id: 'client-id',
  client_secret: 'client sécret/+=1',
  refresh_token: '1//refresh tökén+=0',
  session_password: 'séssion pass/+=',
  legacy_password: 'légacy pass/+=',
  manifest_header_secret: 'manifest hdr/+=secret',
};

const SECRET_FIELDS = [
  'basic_password',
  'bearer_token',
  'api_key_header',
  'api_key_query',
  'jwt_secret',
  'client_secret',
  'refresh_token',
  'session_password',
  'legacy_password',
  'manifest_header_secret',
] as const;

/** Tokens the API issued (access, rotated refresh, session): secrets too. */
const issued: string[] = [];
let current = S.refresh_token;
let counter = 0;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

function issue(prefix: string): string {
  const t = `${prefix}/+= ${++counter}x`;
  issued.push(t);
  return t;
}

function unauthorized(res: ServerResponse, why: string): void {
  json(res, { error: 'unauthorized', why }, {}, 401);
}

/** Every credential-looking value received, echoed in many encodings (what a careless API does). */
function echo(req: Recorded, url: URL, kind: string): Record<string, unknown> {
  const values = [...Object.values(req.headers).map(String), ...url.searchParams.values()];
  const auth = String(req.headers.authorization ?? '');
  if (/^(Basic|Bearer) /.test(auth)) values.push(auth.slice(auth.indexOf(' ') + 1));
  if (auth.startsWith('Basic ')) values.push(Buffer.from(auth.slice(6), 'base64').toString('utf8'));
  const encodings = values.map((v) => ({
    raw: v,
    url: encodeURIComponent(v),
    form: new URLSearchParams({ v }).toString(),
    b64: b64(v),
    b64url: Buffer.from(v).toString('base64url'),
    quoted: JSON.stringify(v),
  }));
  return {
    data: [{ id: 1, kind, received: { url: req.url, headers: req.headers, body: req.body }, encodings }],
    error_text: `echo ${values.join(' | ')}`,
  };
}

async function checkJwt(auth: string): Promise<boolean> {
  try {
    await jwtVerify(auth.replace(/^Bearer /, ''), new TextEncoder().encode(S.jwt_secret));
    return true;
  } catch {
    return false;
  }
}

let api: Awaited<ReturnType<typeof startLoopback>>;
before(async () => {
  api = await startLoopback((req, res, base) => {
    const url = new URL(req.url, base);
    const auth = String(req.headers.authorization ?? '');
    void (async () => {
      switch (url.pathname) {
        case '/oauth/token': {
          const form = Object.fromEntries(new URLSearchParams(req.body));
          if (form.client_secret !== S.client_secret) return unauthorized(res, 'client secret');
          if (form.grant_type === 'refresh_token') {
            if (form.refresh_token !== current) return unauthorized(res, 'refresh token');
            current = issue('1//rotated tökén+=');
            return json(res, { access_token: issue('acc'), expires_in: 3600, refresh_token: current });
          }
          return json(res, { access_token: issue('acc'), expires_in: 3600 });
        }
        case '/login': {
          const body = JSON.parse(req.body || '{}');
          if (body.password !== S.session_password) return unauthorized(res, 'login');
          return json(res, { data: { token: issue('sess') } });
        }
        case '/legacy/validate':
          return unauthorized(res, 'no stored session');
        case '/legacy/login': {
          const body = JSON.parse(req.body || '{}');
          if (body.password !== S.legacy_password) return unauthorized(res, 'legacy login');
          return json(res, { token: issue('legacy') });
        }
      }
      const kind = url.pathname.replace(/^\/data\//, '');
      const ok: Record<string, () => boolean | Promise<boolean>> = {
        noauth: () => req.headers['x-signature'] === S.manifest_header_secret,
        basic: () => auth === `Basic ${b64(`${S.username}:${S.basic_password}`)}`,
        bearer: () => auth === `Bearer ${S.bearer_token}`,
        apikey_header: () => req.headers['x-api-key'] === S.api_key_header,
        apikey_query: () => url.searchParams.get('api_key') === S.api_key_query,
        jwt: () => checkJwt(auth),
        oauth_client_credentials: () => issued.includes(auth.replace(/^Bearer /, '')),
        oauth_refresh: () => issued.includes(auth.replace(/^Bearer /, '')),
        oauth_single_use: () => issued.includes(auth.replace(/^Bearer /, '')),
        session: () => issued.includes(String(req.headers['x-session'] ?? '')),
        selective: () => auth === `Bearer ${S.bearer_token}`,
        legacy_session: () => issued.includes(String(req.headers['x-legacy'] ?? '')),
      };
      if (!ok[kind] || !(await ok[kind]())) return json(res, { error: 'unauthorized', ...echo(req, url, kind) }, {}, 401);
      json(res, echo(req, url, kind), { 'X-Echo': b64(auth) });
    })();
  });
});
after(() => api.close());

const cfg = (k: string) => `{{ config['${k}'] }}`;
const AUTHENTICATORS: Record<string, unknown> = {
  noauth: { type: 'NoAuth' },
  basic: { type: 'BasicHttpAuthenticator', username: cfg('username'), password: cfg('basic_password') },
  bearer: { type: 'BearerAuthenticator', api_token: cfg('bearer_token') },
  apikey_header: {
    type: 'ApiKeyAuthenticator',
    api_token: cfg('api_key_header'),
    inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-API-Key' },
  },
  apikey_query: {
    type: 'ApiKeyAuthenticator',
    api_token: cfg('api_key_query'),
    inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'api_key' },
  },
  jwt: { type: 'JwtAuthenticator', secret_key: cfg('jwt_secret'), algorithm: 'HS256', token_duration: 600, jwt_payload: { iss: 'me' } },
  oauth_client_credentials: {
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: "{{ config['url_base'] }}/oauth/token",
    grant_type: 'client_credentials',
    client_id: cfg('client_id'),
    client_secret: cfg('client_secret'),
  },
  oauth_refresh: {
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: "{{ config['url_base'] }}/oauth/token",
    client_id: cfg('client_id'),
    client_secret: cfg('client_secret'),
    refresh_token: "{{ config['credentials']['refresh_token'] }}",
  },
  oauth_single_use: {
    type: 'OAuthAuthenticator',
    token_refresh_endpoint: "{{ config['url_base'] }}/oauth/token",
    client_id: cfg('client_id'),
    client_secret: cfg('client_secret'),
    refresh_token: "{{ config['credentials']['refresh_token'] }}",
    refresh_token_updater: {},
  },
  session: {
    type: 'SessionTokenAuthenticator',
    login_requester: {
      type: 'HttpRequester',
      url: "{{ config['url_base'] }}/login",
      http_method: 'POST',
      request_body: { type: 'RequestBodyJsonObject', value: { username: cfg('username'), password: cfg('session_password') } },
    },
    session_token_path: ['data', 'token'],
    expiration_duration: 'PT1H',
    request_authentication: { type: 'ApiKey', inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Session' } },
  },
  selective: {
    type: 'SelectiveAuthenticator',
    authenticator_selection_path: ['auth_type'],
    authenticators: {
      bearer: { type: 'BearerAuthenticator', api_token: cfg('bearer_token') },
      key: {
        type: 'ApiKeyAuthenticator',
        api_token: cfg('api_key_header'),
        inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-API-Key' },
      },
    },
  },
  legacy_session: {
    type: 'LegacySessionTokenAuthenticator',
    header: 'X-Legacy',
    login_url: 'legacy/login',
    validate_session_url: 'legacy/validate',
    session_token_response_key: 'token',
    session_token: '',
    username: cfg('username'),
    password: cfg('legacy_password'),
  },
};

function manifest(): Record<string, unknown> {
  const secret = { type: 'string', airbyte_secret: true };
  return {
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['bearer'] },
    spec: {
      type: 'Spec',
      connection_specification: {
        type: 'object',
        properties: {
          url_base: { type: 'string' },
          username: { type: 'string' },
          client_id: { type: 'string' },
          auth_type: { type: 'string' },
          ...Object.fromEntries(SECRET_FIELDS.filter((f) => f !== 'refresh_token').map((f) => [f, secret])),
          credentials: { type: 'object', properties: { refresh_token: secret, access_token: secret } },
        },
      },
    },
    streams: Object.entries(AUTHENTICATORS).map(([kind, authenticator]) => ({
      type: 'DeclarativeStream',
      name: kind,
      primary_key: ['id'],
      retriever: {
        type: 'SimpleRetriever',
        requester: {
          type: 'HttpRequester',
          url: `{{ config['url_base'] }}/data/${kind}`,
          http_method: 'GET',
          authenticator,
          // A header the manifest itself renders from a secret.
          ...(kind === 'noauth' ? { request_headers: { 'X-Signature': cfg('manifest_header_secret') } } : {}),
          ...(kind === 'legacy_session' ? { url_base: "{{ config['url_base'] }}/", path: `data/${kind}`, url: undefined } : {}),
        },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
    })),
  };
}

function config(): Record<string, unknown> {
  const { refresh_token, ...rest } = S;
  return {
    ...rest,
    url_base: api.base,
    auth_type: 'bearer',
    credentials: { refresh_token: current === S.refresh_token ? refresh_token : current },
  };
}

type Needle = { encoding: string; value: string };
let encodedNeedles: (s: string) => Needle[];
before(async () => {
  ({ encodedNeedles } = await import('../../e2e/secretEncodings.mjs'));
});

/** Every secret seen so far, each in every encoding, plus the Basic header's base64 of user:password. */
function leaksIn(text: string): string[] {
  const secrets = [...SECRET_FIELDS.map((f) => S[f]), current, ...issued];
  const hits: string[] = [];
  for (const s of secrets)
    for (const n of encodedNeedles(s)) if (text.includes(n.value)) hits.push(`${JSON.stringify(s)} as ${n.encoding}`);
  const basic = b64(`${S.username}:${S.basic_password}`).replace(/=+$/, '');
  if (text.includes(basic)) hits.push('Basic user:password');
  return hits;
}

const KINDS = Object.keys(AUTHENTICATORS);

test('the StreamRead of a read with each authenticator kind holds no secret in any encoding', async () => {
  const seenKinds: string[] = [];
  for (const kind of KINDS) {
    const read = await testRead(manifest(), config(), kind);
    const errors = read.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
    assert.deepEqual(errors, [], kind);
    const records = read.slices.flatMap((s) => s.pages).flatMap((p) => p.records);
    assert.equal(records.length, 1, `${kind}: the API accepted the credentials and echoed them`);
    assert.deepEqual(leaksIn(JSON.stringify(read)), [], kind);
    seenKinds.push(kind);
  }
  assert.deepEqual(seenKinds, KINDS);
  assert.ok(issued.length >= 6, 'access, rotated refresh and session tokens were issued and checked too');
});

test('the StreamRead of a failing read (401 echoing the credentials) holds no secret either', async () => {
  const read = await testRead(manifest(), { ...config(), bearer_token: `${S.bearer_token}-wrong` }, 'bearer');
  assert.ok(read.logs.some((l) => l.level === 'ERROR'));
  assert.deepEqual(leaksIn(JSON.stringify(read)), []);
  assert.ok(!JSON.stringify(read).includes(`${S.bearer_token}-wrong`.slice(0, 10)));
});

test('the CLI output (json and pretty) with each authenticator kind holds no secret in any encoding', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'secrets-cli-'));
  try {
    const manifestFile = join(dir, 'manifest.json');
    writeFileSync(manifestFile, JSON.stringify(manifest()));
    const configFile = join(dir, 'config.json');
    for (const kind of KINDS) {
      for (const format of ['json', 'pretty']) {
        writeFileSync(configFile, JSON.stringify(config()));
        const out = Object.assign(new PassThrough(), { isTTY: false });
        const err = Object.assign(new PassThrough(), { isTTY: false });
        let text = '';
        out.on('data', (c) => (text += String(c)));
        err.on('data', (c) => (text += String(c)));
        const code = await readCommand([manifestFile, '--stream', kind, '--config', configFile, '--format', format], out, err);
        assert.equal(code, 0, `${kind} ${format}: ${text}`);
        assert.ok(text.length > 50, `${kind} ${format} printed a result`);
        assert.deepEqual(leaksIn(text), [], `${kind} ${format}`);
        // The single-use variant rewrote the config file with the rotated token (secrets belong there).
        if (kind === 'oauth_single_use')
          assert.equal((JSON.parse(readFileSync(configFile, 'utf8')).credentials as Record<string, string>).refresh_token, current);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

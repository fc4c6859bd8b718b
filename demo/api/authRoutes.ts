// Authentication routes of the demo API: protected data sets for each scheme (Basic, Bearer, API key
// in header/query/form/JSON, JWT HS256/RS256, OAuth, session) and the endpoints that issue tokens:
// an OAuth token endpoint with rotating single-use refresh tokens, session logins, and a consent +
// code exchange pair for the declarative OAuth flow. Accepted values live in authCredentials.ts.
import type { ServerResponse } from 'node:http';
import { createHash, createPublicKey, randomBytes } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { DemoRequest, DemoState, RouteModule } from './types';
import { DEMO_CREDENTIALS as C, DEMO_RSA_PUBLIC_KEY } from './authCredentials';

type AuthState = {
  accessTokens: Map<string, number>;
  sessions: Map<string, number>;
  codes: Map<string, { redirectUri: string; challenge: string | null }>;
  refreshToken: string;
  refreshCount: number;
};

function authState(state: DemoState): AuthState {
  state.auth ??= { accessTokens: new Map(), sessions: new Map(), codes: new Map(), refreshToken: C.oauth.initialRefreshToken, refreshCount: 0 } satisfies AuthState;
  return state.auth as AuthState;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
  return true;
}

const unauthorized = (res: ServerResponse, why: string) => send(res, 401, { error: 'unauthorized', message: why }, { 'WWW-Authenticate': 'Bearer' });
const records = (scheme: string) => ({ data: [1, 2, 3, 4, 5].map((id) => ({ id, scheme, name: `${scheme} item ${id}` })) });

/** Parses a form or JSON body into a flat map (JSON objects keep nesting). */
function parseBody(req: DemoRequest): Record<string, unknown> {
  if (!req.body) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('json') || req.body.trimStart().startsWith('{')) {
    try {
      const v = JSON.parse(req.body);
      return v && typeof v === 'object' ? v : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(req.body));
}

function header(req: DemoRequest, name: string): string {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : (v ?? '');
}

function bearerToken(req: DemoRequest): string {
  const auth = header(req, 'authorization');
  return auth.startsWith('Bearer ') ? auth.slice(7) : auth;
}

function issue(map: Map<string, number>, prefix: string, seconds: number, now: number): string {
  const token = `${prefix}-${randomBytes(12).toString('hex')}`;
  map.set(token, now + seconds * 1000);
  return token;
}

/** Checks a token against issued ones: missing/unknown → 401, expired → 401 saying so. */
function checkIssued(res: ServerResponse, map: Map<string, number>, token: string, now: number): boolean {
  const expiry = map.get(token);
  if (expiry === undefined) return !unauthorized(res, 'unknown token');
  if (now > expiry) return !unauthorized(res, 'token expired');
  return true;
}

async function protectedData(req: DemoRequest, res: ServerResponse, st: AuthState, now: number): Promise<boolean> {
  const scheme = req.path.slice('/auth/'.length, -'/items'.length);
  const body = parseBody(req);
  const k = C.apiKey;
  switch (scheme) {
    case 'basic': {
      const expected = `Basic ${Buffer.from(`${C.basic.username}:${C.basic.password}`).toString('base64')}`;
      return header(req, 'authorization') === expected ? send(res, 200, records(scheme)) : unauthorized(res, 'bad basic credentials');
    }
    case 'bearer':
      return header(req, 'authorization') === `Bearer ${C.bearer.token}` ? send(res, 200, records(scheme)) : unauthorized(res, 'bad bearer token');
    case 'api-key/header':
      return header(req, k.header) === k.key ? send(res, 200, records(scheme)) : unauthorized(res, `missing or bad ${k.header}`);
    case 'api-key/query':
      return req.query.get(k.queryParam) === k.key ? send(res, 200, records(scheme)) : unauthorized(res, `missing or bad ${k.queryParam}`);
    case 'api-key/form':
      return body[k.formField] === k.key ? send(res, 200, records(scheme)) : unauthorized(res, `missing or bad form field ${k.formField}`);
    case 'api-key/json':
      return (body.auth as Record<string, unknown> | undefined)?.api_key === k.key ? send(res, 200, records(scheme)) : unauthorized(res, 'missing or bad auth.api_key');
    case 'jwt/hs256':
    case 'jwt/rs256': {
      const key = scheme === 'jwt/hs256' ? new TextEncoder().encode(C.jwt.hs256Secret) : createPublicKey(DEMO_RSA_PUBLIC_KEY);
      try {
        await jwtVerify(bearerToken(req), key, {
          algorithms: [scheme === 'jwt/hs256' ? 'HS256' : 'RS256'],
          issuer: C.jwt.issuer,
          audience: C.jwt.audience,
          currentDate: new Date(now),
          // Real APIs tolerate some clock skew between the signer and the verifier.
          clockTolerance: 30,
        });
        return send(res, 200, records(scheme));
      } catch (err) {
        return unauthorized(res, `invalid JWT: ${(err as Error).message}`);
      }
    }
    case 'oauth':
      return checkIssued(res, st.accessTokens, bearerToken(req), now) ? send(res, 200, records(scheme)) : true;
    case 'session': {
      const token = header(req, C.session.header) || bearerToken(req);
      return checkIssued(res, st.sessions, token, now) ? send(res, 200, records(scheme)) : true;
    }
    default:
      return false;
  }
}

/** POST /auth/oauth/token: refresh_token (rotating, single use) and client_credentials grants. */
function tokenEndpoint(req: DemoRequest, res: ServerResponse, st: AuthState, now: number): true {
  const args = { ...Object.fromEntries(req.query), ...parseBody(req) } as Record<string, string>;
  let { client_id: id, client_secret: secret } = args;
  const basic = header(req, 'authorization');
  if (basic.startsWith('Basic ')) [id, secret] = Buffer.from(basic.slice(6), 'base64').toString().split(':');
  if (id !== C.oauth.clientId || secret !== C.oauth.clientSecret) return send(res, 401, { error: 'invalid_client' });
  const seconds = Number(args.expires_in_seconds ?? C.oauth.accessTokenSeconds);
  const token: Record<string, unknown> = { access_token: issue(st.accessTokens, 'access', seconds, now), token_type: 'Bearer', expires_in: seconds };
  if (args.grant_type === 'refresh_token') {
    if (args.refresh_token !== st.refreshToken) return send(res, 400, { error: 'invalid_grant', error_description: 'refresh token unknown or already used' });
    st.refreshCount += 1;
    st.refreshToken = `demo-refresh-${st.refreshCount}`;
    token.refresh_token = st.refreshToken;
  } else if (args.grant_type !== 'client_credentials') {
    return send(res, 400, { error: 'unsupported_grant_type' });
  }
  return send(res, 200, req.query.get('nested') ? { data: token } : token);
}

/** GET|POST /auth/session/login with username/password (query for GET, JSON or form for POST). */
function sessionLogin(req: DemoRequest, res: ServerResponse, st: AuthState, now: number): true {
  const args = req.method === 'GET' ? Object.fromEntries(req.query) : parseBody(req);
  if (args.username !== C.session.username || args.password !== C.session.password) return unauthorized(res, 'bad username or password');
  const seconds = Number(req.query.get('ttl') ?? C.session.tokenSeconds);
  return send(res, 200, { data: { token: issue(st.sessions, 'session', seconds, now), expires_in: seconds } });
}

/** GET /auth/oauth/authorize: approves at once and redirects back with a code (and the state). */
function consent(req: DemoRequest, res: ServerResponse, st: AuthState): true {
  const q = req.query;
  const redirectUri = q.get('redirect_uri');
  if (q.get('client_id') !== C.oauth.clientId) return send(res, 400, { error: 'invalid_client' });
  if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return send(res, 400, { error: 'invalid_request', error_description: 'redirect_uri must be an http(s) URL' });
  const code = `code-${randomBytes(8).toString('hex')}`;
  st.codes.set(code, { redirectUri, challenge: q.get('code_challenge') });
  const target = new URL(redirectUri);
  target.searchParams.set('code', code);
  if (q.get('state')) target.searchParams.set('state', q.get('state') as string);
  res.writeHead(302, { Location: target.toString(), 'Content-Length': '0' });
  res.end();
  return true;
}

/** POST /auth/oauth/access_token: exchanges a code (single use; PKCE checked when a challenge was sent). */
function codeExchange(req: DemoRequest, res: ServerResponse, st: AuthState, now: number): true {
  const args = parseBody(req) as Record<string, string>;
  let { client_id: id, client_secret: secret } = args;
  const basic = header(req, 'authorization');
  if (basic.startsWith('Basic ')) [id, secret] = Buffer.from(basic.slice(6), 'base64').toString().split(':');
  if (id !== C.oauth.clientId || secret !== C.oauth.clientSecret) return send(res, 401, { error: 'invalid_client' });
  const grant = st.codes.get(args.code);
  st.codes.delete(args.code);
  if (!grant || grant.redirectUri !== args.redirect_uri) return send(res, 400, { error: 'invalid_grant', error_description: 'unknown code or redirect_uri mismatch' });
  if (grant.challenge && createHash('sha256').update(String(args.code_verifier ?? '')).digest('base64url') !== grant.challenge) {
    return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
  }
  st.refreshCount += 1;
  st.refreshToken = `demo-refresh-${st.refreshCount}`;
  const seconds = C.oauth.accessTokenSeconds;
  return send(res, 200, { access_token: issue(st.accessTokens, 'access', seconds, now), refresh_token: st.refreshToken, expires_in: seconds, token_type: 'Bearer' });
}

/** The demo API's authentication routes (RouteModule of demo/api/types.ts). */
export const authRoutes: RouteModule = async (req, res, state) => {
  if (!req.path.startsWith('/auth/')) return false;
  const st = authState(state);
  const now = state.now().getTime();
  if (req.path === '/auth/oauth/token' && req.method === 'POST') return tokenEndpoint(req, res, st, now);
  if (req.path === '/auth/session/login' && (req.method === 'GET' || req.method === 'POST')) return sessionLogin(req, res, st, now);
  if (req.path === '/auth/oauth/authorize' && req.method === 'GET') return consent(req, res, st);
  if (req.path === '/auth/oauth/access_token' && req.method === 'POST') return codeExchange(req, res, st, now);
  if (req.path.endsWith('/items') && (req.method === 'GET' || req.method === 'POST')) return protectedData(req, res, st, now);
  return false;
};

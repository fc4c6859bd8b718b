// Which parts of a captured request are credentials, and what they become: one authenticator (the
// first credential found: basic user info, then the Authorization header, then an API-key-like header,
// then an API-key-like query parameter) and a spec input marked airbyte_secret for each. Further
// credentials stay request headers or parameters, templated from their own secret input.
import type { RequestSketch } from './requestSketch';

/** A connector input the stream reads from `config`. */
export type SpecInput = { key: string; title: string; secret: boolean; comment: string };

/** What the credentials of a request become; indexes point into the sketch's headers and query. */
export type CredentialPlan = {
  authenticator?: Record<string, unknown>;
  authenticatorComment?: string;
  inputs: SpecInput[];
  /** Headers and query parameters that are now read from an input: index → template and comment. */
  headerTemplates: Map<number, { value: string; comment: string }>;
  queryTemplates: Map<number, { value: string; comment: string }>;
  /** Headers the authenticator sends, so they are not repeated in request_headers. */
  consumedHeaders: Set<number>;
  consumedQuery: Set<number>;
};

const SECRET_HEADER = /^(x-)?(.*[-_])?(api[-_]?key|apikey|key|token|secret|access[-_]?token|auth[-_]?token|session[-_]?id|password)$/i;
const SECRET_QUERY =
  /^(api[-_]?key|apikey|key|token|access[-_]?token|auth[-_]?token|auth|secret|client[-_]?secret|app[-_]?key|app[-_]?id|signature|sig|password)$/i;

const config = (key: string) => `{{ config['${key}'] }}`;

/** The snake_case input name for a header or parameter name (`X-Api-Key` → `api_key`). */
export function inputKeyFor(name: string): string {
  const key = name
    .replace(/^x-/i, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return /^[a-z_]/.test(key) ? key || 'api_key' : `input_${key}`;
}

/** Finds the credentials of a request; `takenKeys` are input names already used for something else. */
export function planCredentials(request: RequestSketch, reuse: (key: string) => boolean): CredentialPlan {
  const plan: CredentialPlan = {
    inputs: [],
    headerTemplates: new Map(),
    queryTemplates: new Map(),
    consumedHeaders: new Set(),
    consumedQuery: new Set(),
  };
  const used = new Set<string>();
  const input = (wanted: string, title: string, secret: boolean, comment: string): string => {
    let key = wanted;
    for (let n = 2; used.has(key); n++) key = `${wanted}_${n}`;
    used.add(key);
    // An input of that name already in the manifest is reused as it is (not declared twice).
    if (!reuse(key)) plan.inputs.push({ key, title, secret, comment });
    return key;
  };
  const basic = (user: string, where: string) => {
    const u = input('username', 'Username', false, `user name of the basic credentials in ${where}`);
    const p = input('password', 'Password', true, `password of the basic credentials in ${where}`);
    plan.authenticator = { type: 'BasicHttpAuthenticator', username: config(u), password: config(p) };
    plan.authenticatorComment = `basic credentials in ${where}${user ? '' : ' (empty user name)'}`;
  };

  if (request.basicAuth) basic(request.basicAuth.user, `${request.origin} (-u)`);
  request.headers.forEach(([name, value], i) => {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const [scheme, ...rest] = value.split(' ');
      const token = rest.join(' ');
      if (!plan.authenticator && /^bearer$/i.test(scheme) && token) {
        const k = input('api_key', 'API Key', true, `the Bearer token of the Authorization header in ${request.origin}`);
        plan.authenticator = { type: 'BearerAuthenticator', api_token: config(k) };
        plan.authenticatorComment = `Authorization: Bearer … in ${request.origin}`;
        plan.consumedHeaders.add(i);
        return;
      }
      if (!plan.authenticator && /^basic$/i.test(scheme) && decodesAsBasic(token)) {
        basic(decodeBasic(token).split(':')[0], `the Authorization header of ${request.origin}`);
        plan.consumedHeaders.add(i);
        return;
      }
      const prefix = token ? `${scheme} ` : '';
      const k = input(
        'api_key',
        'API Key',
        true,
        `the ${token ? `${scheme} ` : ''}credential of the Authorization header in ${request.origin}`,
      );
      if (!plan.authenticator) {
        plan.authenticator = apiKey(`${prefix}${config(k)}`, 'header', name);
        plan.authenticatorComment = `Authorization header in ${request.origin}`;
        plan.consumedHeaders.add(i);
      } else plan.headerTemplates.set(i, { value: `${prefix}${config(k)}`, comment: `credential in ${request.origin}` });
      return;
    }
    if (lower === 'cookie' || SECRET_HEADER.test(name)) {
      const k = input(inputKeyFor(name), name, true, `the ${name} header in ${request.origin}`);
      if (!plan.authenticator && lower !== 'cookie') {
        plan.authenticator = apiKey(config(k), 'header', name);
        plan.authenticatorComment = `API-key-like header ${name} in ${request.origin}`;
        plan.consumedHeaders.add(i);
      } else
        plan.headerTemplates.set(i, { value: config(k), comment: `${lower === 'cookie' ? 'cookies' : 'credential'} in ${request.origin}` });
    }
  });
  request.query.forEach(([name], i) => {
    if (!SECRET_QUERY.test(name)) return;
    const k = input(inputKeyFor(name), name, true, `the ${name} query parameter in ${request.origin}`);
    if (!plan.authenticator) {
      plan.authenticator = apiKey(config(k), 'request_parameter', name);
      plan.authenticatorComment = `API-key-like query parameter ${name} in ${request.origin}`;
      plan.consumedQuery.add(i);
    } else plan.queryTemplates.set(i, { value: config(k), comment: `credential in ${request.origin}` });
  });
  return plan;
}

function apiKey(token: string, where: 'header' | 'request_parameter', name: string): Record<string, unknown> {
  return { type: 'ApiKeyAuthenticator', api_token: token, inject_into: { type: 'RequestOption', inject_into: where, field_name: name } };
}

function decodeBasic(token: string): string {
  return Buffer.from(token, 'base64').toString('utf8');
}

function decodesAsBasic(token: string): boolean {
  return /^[A-Za-z0-9+/]+=*$/.test(token) && decodeBasic(token).includes(':');
}

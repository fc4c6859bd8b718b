// The connector-wide part of a scaffold: the base URL from `servers` (Swagger 2: schemes, host,
// basePath), server variables as spec inputs, and the authenticator from the security schemes.
import { addInput, configRef, type Noted, type NotedComponent, type SpecInput } from '../connectorDraft';
import { credentialAuthenticator, type Credential } from '../credentialAuthenticator';
import type { OpenApiDocument } from './loadOpenApi';
import { obj, type ApiOperation } from './operations';

/** `url_base` (no trailing slash), adding server variables (or a `base_url` input) to `inputs`. */
export function inferBaseUrl(doc: OpenApiDocument, inputs: SpecInput[]): Noted<string> {
  const api = doc.api;
  let url: string | undefined;
  let why: string;
  if (doc.version === 2) {
    const schemes = Array.isArray(api.schemes) ? (api.schemes as string[]) : [];
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
    const basePath = typeof api.basePath === 'string' ? api.basePath : '';
    url = typeof api.host === 'string' && api.host ? `${scheme}://${api.host}${basePath}` : basePath || undefined;
    why = 'Swagger 2 schemes, host and basePath';
  } else {
    const servers = (Array.isArray(api.servers) ? api.servers : []).map(obj).filter((s) => typeof s.url === 'string');
    const server = servers[0];
    if (server) {
      url = server.url as string;
      const variables = obj(server.variables);
      url = url.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const v = obj(variables[name]);
        const values = Array.isArray(v.enum) ? v.enum.map(String) : undefined;
        const input = addInput(inputs, {
          name: safeKey(name),
          title: name,
          type: 'string',
          required: true,
          ...(v.default !== undefined ? { default: String(v.default) } : {}),
          ...(values ? { enum: values } : {}),
          ...(typeof v.description === 'string' ? { description: v.description } : {}),
          why: `server variable {${name}} of ${server.url as string}`,
        });
        return configRef(input);
      });
      const others = servers.length - 1;
      why = `servers[0]${typeof server.description === 'string' ? ` (${server.description})` : ''}${others > 0 ? `; ${others} other server${others > 1 ? 's' : ''} listed` : ''}`;
    } else {
      why = 'the document lists no servers';
    }
  }
  if (!url || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url.replace(/\{\{[^}]*\}\}/g, 'x'))) {
    // A relative server (or none) is relative to wherever the document is hosted: ask for it.
    const input = addInput(inputs, {
      name: 'base_url',
      title: 'Base URL',
      type: 'string',
      required: true,
      description: "The API's base URL (scheme and host).",
      why: `${url ? `the server "${url}" is relative` : 'the document names no server'}: the host is an input`,
    });
    url = `${configRef(input)}${url && url !== '/' ? (url.startsWith('/') ? url : `/${url}`) : ''}`;
    why = `${why}; the host is the input base_url`;
  }
  return { value: url.replace(/\/+$/, ''), why };
}

/** What the security schemes add to every request: an authenticator, and further API keys the same requirement asks for. */
export type InferredAuth = {
  authenticator?: NotedComponent;
  headers?: Noted<Record<string, string>>;
  parameters?: Noted<Record<string, string>>;
};

/** The authentication of the picked operations (empty when the document declares no supported scheme). */
export function inferAuthentication(doc: OpenApiDocument, picked: ApiOperation[], urlBase: string, inputs: SpecInput[]): InferredAuth {
  const schemes = doc.version === 2 ? obj(doc.api.securityDefinitions) : obj(obj(doc.api.components).securitySchemes);
  const names = Object.keys(schemes);
  if (names.length === 0) return {};
  // The schemes the picked operations require, in order, then every declared one.
  const requirements = picked.flatMap((op) => (op.security ?? []).map((r) => Object.keys(obj(r))));
  const required: string[] = [];
  for (const req of requirements) for (const name of req) if (!required.includes(name)) required.push(name);
  const order = [...required, ...names.filter((n) => !required.includes(n))];
  for (const name of order) {
    const credential = credentialOf(obj(schemes[name]), doc.version, urlBase);
    if (!credential) continue;
    // Schemes required together with this one (`[{ api_key: [], partner_id: [] }]`): the API keys among them are sent too.
    const together = (requirements.find((r) => r.includes(name)) ?? [name]).filter((n) => n !== name);
    const others = names.filter((n) => n !== name && !together.includes(n));
    const why = `security scheme "${name}" (${describe(obj(schemes[name]))})${required.includes(name) ? '' : ', required by no picked operation'}${others.length ? `; also declared: ${others.slice(0, 3).join(', ')}${others.length > 3 ? '…' : ''}` : ''}`;
    const result: InferredAuth = { authenticator: credentialAuthenticator(credential, why, inputs) };
    const headers: Record<string, string> = {};
    const parameters: Record<string, string> = {};
    const sent: string[] = [];
    for (const extra of together) {
      const s = obj(schemes[extra]);
      if (String(s.type).toLowerCase() !== 'apikey' || typeof s.name !== 'string' || (s.in !== 'header' && s.in !== 'query')) continue;
      const value = configRef(
        addInput(inputs, {
          name: safeKey(extra),
          title: extra,
          type: 'string',
          secret: true,
          required: true,
          description: `Sent as the ${s.in === 'query' ? 'query parameter' : 'header'} "${s.name}".`,
          why: `security scheme "${extra}", required together with "${name}"`,
        }),
      );
      (s.in === 'query' ? parameters : headers)[s.name] = value;
      sent.push(`"${extra}"`);
    }
    const alongside = `security scheme${sent.length > 1 ? 's' : ''} ${sent.join(', ')}, required together with "${name}"`;
    if (Object.keys(headers).length > 0) result.headers = { value: headers, why: alongside };
    if (Object.keys(parameters).length > 0) result.parameters = { value: parameters, why: alongside };
    return result;
  }
  return {};
}

function credentialOf(s: Record<string, unknown>, version: 2 | 3, urlBase: string): Credential | undefined {
  const type = String(s.type ?? '').toLowerCase();
  if (type === 'apikey' && typeof s.name === 'string' && s.name) {
    const where = s.in === 'query' ? 'query' : s.in === 'cookie' ? 'cookie' : 'header';
    return { kind: 'apiKey', in: where, name: s.name };
  }
  if (type === 'basic') return { kind: 'basic' };
  if (type === 'http') {
    const scheme = String(s.scheme ?? '').toLowerCase();
    if (scheme === 'basic') return { kind: 'basic' };
    if (scheme === 'bearer') return { kind: 'bearer' };
    return undefined;
  }
  if (type === 'oauth2') {
    const scopes = (flowScopes: unknown) => Object.keys(obj(flowScopes));
    if (version === 2) {
      const tokenUrl = typeof s.tokenUrl === 'string' ? absolute(s.tokenUrl, urlBase) : undefined;
      if (s.flow === 'application' && tokenUrl) return { kind: 'oauth2ClientCredentials', tokenUrl, scopes: scopes(s.scopes) };
      if (s.flow === 'accessCode' && tokenUrl) return { kind: 'oauth2RefreshToken', tokenUrl, scopes: scopes(s.scopes) };
      return { kind: 'bearer' };
    }
    const flows = obj(s.flows);
    const cc = obj(flows.clientCredentials);
    if (typeof cc.tokenUrl === 'string')
      return { kind: 'oauth2ClientCredentials', tokenUrl: absolute(cc.tokenUrl, urlBase), scopes: scopes(cc.scopes) };
    const code = obj(flows.authorizationCode);
    if (typeof code.tokenUrl === 'string')
      return { kind: 'oauth2RefreshToken', tokenUrl: absolute(code.tokenUrl, urlBase), scopes: scopes(code.scopes) };
    // Implicit and password flows end in an access token the author pastes in.
    return { kind: 'bearer' };
  }
  if (type === 'openidconnect') return { kind: 'bearer' };
  return undefined;
}

function describe(s: Record<string, unknown>): string {
  const type = String(s.type ?? '');
  if (type === 'apiKey') return `API key in ${String(s.in)} "${String(s.name)}"`;
  if (type === 'http') return `HTTP ${String(s.scheme)}`;
  if (type === 'oauth2') return `OAuth 2${s.flow ? ` ${String(s.flow)}` : ` ${Object.keys(obj(s.flows)).join('/')}`} flow`;
  return type;
}

/** A token URL written relative to the API (`/oauth/token`) joined to the base URL's origin. */
function absolute(url: string, urlBase: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]+/i.exec(urlBase)?.[0];
  return origin ? `${origin}${url.startsWith('/') ? '' : '/'}${url}` : url;
}

/** A config key from a name in the document: snake_case letters, digits and underscores. */
export function safeKey(name: string): string {
  const key = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return key === '' ? 'value' : /^\d/.test(key) ? `_${key}` : key;
}

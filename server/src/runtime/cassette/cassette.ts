// The cassette format (docs/cassettes.md): every HTTP exchange of one test read, in order, with every
// secret masked, as YAML. JSON bodies are stored as YAML structures so that a diff shows the field that
// changed; any other body is stored as text (or base64 when binary).
import { LineCounter, parseDocument, stringify } from 'yaml';
import type { HttpRequest, HttpResponse, TestReadLimits } from '../types';

export const CASSETTE_VERSION = 1;

/** A body: text, a JSON value (when the text is exactly its compact JSON serialisation), or base64 bytes. */
export type CassetteBody = null | { text: string } | { json: unknown } | { base64: string; text: string };

export type CassetteExchange = {
  request: { method: string; url: string; headers: Record<string, string>; body: CassetteBody };
  /** null when no response arrived; `error` then says why. */
  response: { status: number; headers: Record<string, string>; body: CassetteBody } | null;
  error?: { message: string; code: string | null };
};

export type Cassette = {
  version: number;
  /** When the read started (ISO 8601): replay runs its clock from here so date-based requests repeat. */
  recorded_at: string;
  stream: string;
  /** The config of the read with secret values masked (replay uses it when no config is given). */
  config: Record<string, unknown>;
  limits: TestReadLimits;
  exchanges: CassetteExchange[];
};

/** Encodes a body for the cassette. */
export function encodeBody(text: string | null, bytes?: Uint8Array): CassetteBody {
  if (bytes) return { base64: Buffer.from(bytes).toString('base64'), text: text ?? '' };
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    // Only bodies that re-serialise to the same text become structures: replay must return the exact text.
    if (value !== null && typeof value === 'object' && JSON.stringify(value) === text) return { json: value };
  } catch {
    /* not JSON */
  }
  return { text };
}

/** The text of a cassette body (what the runtime saw). */
export function bodyTextOf(body: CassetteBody): string | null {
  if (body === null) return null;
  if ('json' in body) return JSON.stringify(body.json);
  return body.text;
}

/** The HttpResponse a cassette exchange replays. */
export function toHttpResponse(r: NonNullable<CassetteExchange['response']>): HttpResponse {
  const body = r.body;
  if (body && 'base64' in body) {
    const bytes = new Uint8Array(Buffer.from(body.base64, 'base64'));
    const res: HttpResponse = { status: r.status, headers: { ...r.headers }, body: body.text };
    Object.defineProperty(res, 'bodyBytes', { value: bytes, enumerable: false, writable: true, configurable: true });
    return res;
  }
  return { status: r.status, headers: { ...r.headers }, body: bodyTextOf(body) ?? '' };
}

/** Serialises a cassette as YAML: one exchange per list entry, keys in a fixed order. */
export function formatCassette(c: Cassette): string {
  const header = '# Cassette of a connector-manifest test read (docs/cassettes.md). Secrets are masked as ****.\n';
  return header + stringify(c, { lineWidth: 0, blockQuote: 'literal', aliasDuplicateObjects: false });
}

/** Parses a cassette; returns an error text (with the line when YAML is broken) instead of throwing. */
export function parseCassette(text: string, file: string): Cassette | string {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  if (doc.errors.length) {
    const e = doc.errors[0];
    return `${file}:${lineCounter.linePos(e.pos[0]).line}: not a valid cassette: ${e.message.split('\n')[0]}`;
  }
  const value = doc.toJS() as Partial<Cassette> | null;
  if (!value || typeof value !== 'object') return `${file}: not a cassette (expected a mapping with version and exchanges)`;
  if (value.version !== CASSETTE_VERSION)
    return `${file}: unsupported cassette version ${JSON.stringify(value.version)} (expected ${CASSETTE_VERSION})`;
  if (!Array.isArray(value.exchanges)) return `${file}: the cassette has no exchanges list`;
  for (const [i, x] of value.exchanges.entries()) {
    const r = (x as Partial<CassetteExchange>)?.request;
    if (!r || typeof r.method !== 'string' || typeof r.url !== 'string') return `${file}: exchange ${i + 1} has no request method and url`;
    const res = (x as Partial<CassetteExchange>).response;
    if (res !== null && (typeof res !== 'object' || typeof res.status !== 'number'))
      return `${file}: exchange ${i + 1} (${r.method} ${r.url}) has no response status`;
  }
  return {
    version: value.version,
    recorded_at: typeof value.recorded_at === 'string' ? value.recorded_at : new Date(0).toISOString(),
    stream: typeof value.stream === 'string' ? value.stream : '',
    config: value.config && typeof value.config === 'object' ? value.config : {},
    limits: value.limits && typeof value.limits === 'object' ? value.limits : {},
    exchanges: value.exchanges as CassetteExchange[],
  };
}

/** The identity of a request for replay: method, URL and body text, all already masked. */
export function requestKey(method: string, url: string, body: string | null): string {
  return `${method.toUpperCase()} ${url}\n${body ?? ''}`;
}

export type { HttpRequest };

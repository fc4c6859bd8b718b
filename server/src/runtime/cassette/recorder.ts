// Recording a read: wraps the runtime's fetch, keeps every exchange in memory, and masks them only once
// the read is over, when the masker knows every token obtained during it (a token is learned from a
// response that itself must be masked).
import type { FetchFunction } from '../http/transport';
import type { HttpRequest, HttpResponse, TestReadLimits } from '../types';
import { CASSETTE_VERSION, encodeBody, type Cassette, type CassetteExchange } from './cassette';
import type { CassetteMasker } from './cassetteMasker';

type RawExchange = { request: HttpRequest; response: HttpResponse | null; error: { message: string; code: string | null } | null };

export class CassetteRecorder {
  private readonly raw: RawExchange[] = [];
  readonly startedAt: Date;

  constructor(startedAt: Date = new Date()) {
    this.startedAt = startedAt;
  }

  /** A fetch that forwards to `inner` and records the exchange, failures included. */
  wrap(inner: FetchFunction): FetchFunction {
    return async (req) => {
      const request = { ...req, headers: { ...req.headers } };
      try {
        const response = await inner(req);
        this.raw.push({ request, response, error: null });
        return response;
      } catch (e) {
        const err = e as { message?: string; code?: string };
        this.raw.push({
          request,
          response: null,
          error: { message: err?.message ?? String(e), code: typeof err?.code === 'string' ? err.code : null },
        });
        throw e;
      }
    };
  }

  get size(): number {
    return this.raw.length;
  }

  /** The masked cassette of everything recorded so far. */
  cassette(masker: CassetteMasker, stream: string, config: Record<string, unknown>, limits: TestReadLimits): Cassette {
    return {
      version: CASSETTE_VERSION,
      recorded_at: this.startedAt.toISOString(),
      stream,
      config: masker.maskValue(config),
      limits,
      exchanges: this.raw.map((x) => maskExchange(x, masker)),
    };
  }
}

function maskExchange(x: RawExchange, masker: CassetteMasker): CassetteExchange {
  const out: CassetteExchange = {
    request: {
      method: x.request.method,
      url: masker.maskText(x.request.url),
      headers: masker.maskRequestHeaders(x.request.headers),
      body: encodeBody(x.request.body === null ? null : masker.maskText(x.request.body)),
    },
    response: x.response
      ? {
          status: x.response.status,
          headers: masker.maskValue(x.response.headers),
          // Binary bodies (gzip, zip) are kept as bytes: a secret inside them cannot be masked without breaking them.
          body: encodeBody(masker.maskText(x.response.body), x.response.bodyBytes),
        }
      : null,
  };
  if (x.error) out.error = { message: masker.maskText(x.error.message), code: x.error.code };
  return out;
}

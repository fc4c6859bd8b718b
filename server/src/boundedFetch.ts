// The HTTP transport handed to the runtime for editor test reads: Node's fetch bounded by the user's
// settings (per-request timeout, response size cap) and by the run's cancellation signal.

type WireRequest = { method: string; url: string; headers: Record<string, string>; body: string | null };
type WireResponse = { status: number; headers: Record<string, string>; body: string };

/** Options of {@link createBoundedFetch}; both bounds are required to be positive. */
export type FetchBounds = { timeoutMs: number; maxResponseBytes: number; signal?: AbortSignal };

function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A `RuntimeEnv.fetch` that fails with a clear, coded error on timeout, oversize body or cancellation. */
export function createBoundedFetch(bounds: FetchBounds): (req: WireRequest) => Promise<WireResponse> {
  return async (req) => {
    const timeout = AbortSignal.timeout(bounds.timeoutMs);
    const signal = bounds.signal ? AbortSignal.any([bounds.signal, timeout]) : timeout;
    const origin = safeOrigin(req.url);
    let res: Response;
    try {
      res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body ?? undefined, signal });
    } catch (e) {
      throw translate(e, bounds, timeout, origin);
    }
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => { headers[key] = value; });
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      const reader = res.body?.getReader();
      for (;;) {
        if (!reader) break;
        const { done, value: chunk } = await reader.read();
        if (done) break;
        size += chunk.byteLength;
        if (size > bounds.maxResponseBytes) {
          await reader.cancel().catch(() => undefined);
          throw coded(`The response from ${origin} is larger than ${bounds.maxResponseBytes} bytes (setting airbyte.http.maxResponseBytes).`, 'ERESPONSETOOLARGE');
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (e) {
      if ((e as { code?: string }).code === 'ERESPONSETOOLARGE') throw e;
      throw translate(e, bounds, timeout, origin);
    }
    return { status: res.status, headers, body: Buffer.concat(chunks).toString('utf8') };
  };
}

function translate(e: unknown, bounds: FetchBounds, timeout: AbortSignal, origin: string): Error {
  if (bounds.signal?.aborted) return coded('The test read was cancelled.', 'ABORT_ERR');
  if (timeout.aborted) return coded(`No response from ${origin} within ${bounds.timeoutMs} ms (setting airbyte.http.requestTimeoutSeconds).`, 'ETIMEDOUT');
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (e as { code?: string }).code ?? 'EFETCH';
  return coded(`Request to ${origin} failed: ${cause?.message ?? (e as Error).message ?? String(e)}`, code);
}

/** Scheme, host and port only: query strings can carry secrets, so messages never include them. */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}

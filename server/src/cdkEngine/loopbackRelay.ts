// The CDK engine's HTTP goes through a loopback relay when a cassette is involved: the bootstrap of
// cdkProcess.ts re-points every request of the CDK's `requests` here, with the original URL in a
// header, and the relay answers it with a runtime FetchFunction — the cassette replayer (offline) or
// the recorder around the real transport — so both engines replay and record by the same rules.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchFunction } from '../runtime';

/** The header carrying the URL the CDK meant to call. */
export const RELAY_URL_HEADER = 'x-relay-url';

// Headers about this hop, not about the recorded request or response.
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'content-encoding',
  RELAY_URL_HEADER,
]);

export type LoopbackRelay = { url: string; close(): Promise<void> };

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length ? Buffer.concat(chunks).toString('utf8') : null));
    req.on('error', reject);
  });
}

/** Starts the relay on 127.0.0.1 (an ephemeral port), answering with `fetch`. */
export async function startLoopbackRelay(fetch: FetchFunction): Promise<LoopbackRelay> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = req.headers[RELAY_URL_HEADER];
      if (typeof url !== 'string') {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Only the CDK engine of Airbyte Manifest Studio talks to this server.');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP_HEADERS.has(k) && typeof v === 'string') headers[k] = v;
      const body = await readBody(req);
      try {
        const r = await fetch({ method: req.method ?? 'GET', url, headers, body });
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (!HOP_HEADERS.has(k.toLowerCase())) out[k] = v;
        const bytes = (r as { bodyBytes?: Uint8Array }).bodyBytes;
        const payload = bytes ? Buffer.from(bytes) : Buffer.from(r.body, 'utf8');
        res.writeHead(r.status, { ...out, 'content-length': String(payload.length) }).end(payload);
      } catch (e) {
        // A request the cassette does not hold, or a network failure while recording: a client error,
        // so the CDK fails the read at once instead of retrying it.
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (e as Error).message }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/relay`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

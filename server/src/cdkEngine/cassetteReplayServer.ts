// Feeds a cassette to the CDK engine: a loopback HTTP server that answers every request of the CDK's
// `requests` (re-pointed here by the bootstrap of cdkProcess.ts, the original URL in a header) from
// the cassette, through the runtime's own CassetteReplayer, so both engines replay by the same rules.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cassette } from '../runtime/cassette/cassette';
import { CassetteMasker } from '../runtime/cassette/cassetteMasker';
import { CassetteReplayer, type ReplayMiss } from '../runtime/cassette/replay';

/** The header carrying the URL the CDK meant to call. */
export const REPLAY_URL_HEADER = 'x-replay-url';

// Headers about this hop, not about the recorded request or response.
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'content-encoding', REPLAY_URL_HEADER]);

export type CassetteReplayServer = { url: string; misses(): ReplayMiss[]; close(): Promise<void> };

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length ? Buffer.concat(chunks).toString('utf8') : null));
    req.on('error', reject);
  });
}

/** Starts the server on 127.0.0.1 (an ephemeral port); `config` is the masked config the CDK reads with. */
export async function startCassetteReplayServer(cassette: Cassette, config: Record<string, unknown>, name: string): Promise<CassetteReplayServer> {
  const masker = new CassetteMasker();
  masker.addCredentialsOf(config);
  const replayer = new CassetteReplayer(cassette, masker, name);
  const fetch = replayer.fetch();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = req.headers[REPLAY_URL_HEADER];
      if (typeof url !== 'string') {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('Only the CDK engine replaying a cassette talks to this server.');
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
        // A request the cassette does not hold: a client error, so the CDK fails the read instead of retrying it.
        const message = (e as Error).message;
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: message }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/replay`,
    misses: () => replayer.misses,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// A scripted loopback API for test-read tests: each test supplies a handler; every request is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Recorded = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
export type Handler = (req: Recorded, res: ServerResponse, base: string) => void;

/** Starts a server on 127.0.0.1:0; `base` is its URL. */
export async function startLoopback(handler: Handler): Promise<{ base: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(r);
      handler(r, res, base);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A one-stream manifest around a retriever fragment. */
export function manifestWith(retriever: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['items'] },
    streams: [
      { type: 'DeclarativeStream', name: 'items', primary_key: ['id'], retriever: { type: 'SimpleRetriever', ...retriever }, ...extra },
    ],
  };
}

// A tiny node:http wrapper that serves demo/api/authRoutes.ts on 127.0.0.1 (port 0) with a clock the
// test controls; `/fail` answers 500 so tests can make a data request fail after authentication.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authRoutes } from '../../../demo/api/authRoutes';
import type { DemoState } from '../../../demo/api/types';

export type DemoAuthServer = { baseUrl: string; state: DemoState; advance(seconds: number): void; now(): Date; close(): Promise<void> };

/** Starts the server; the clock starts at `start` and only moves through advance(). */
export async function startDemoAuthServer(start = '2024-05-01T12:00:00Z'): Promise<DemoAuthServer> {
  let t = Date.parse(start);
  const state: DemoState = { baseUrl: '', now: () => new Date(t) };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const demoReq = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (url.pathname === '/fail') {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"boom"}');
        return;
      }
      const handled = await authRoutes(demoReq, res, state);
      if (!handled) res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: state.baseUrl,
    state,
    advance: (seconds) => (t += seconds * 1000),
    now: () => new Date(t),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

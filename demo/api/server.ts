// The demo API: a real node:http server on 127.0.0.1 that offers each request to its route modules in
// turn (auth, faults, async reports, table catalog, data, hostile). Tests, the CLI smoke test, the benchmark and the extension demo use it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoRequest, DemoState, RouteModule } from './types';
import { dataRoutes, sendJson } from './dataRoutes';
import { faultRoutes } from './faultRoutes';
import { hostileRoutes } from './hostileRoutes';
import { authRoutes } from './authRoutes';
import { asyncReportRoutes } from './asyncReportRoutes';
import { catalogRoutes } from './catalogRoutes';

export type DemoApiOptions = {
  /** Port to listen on; 0 or absent picks a free port. */
  port?: number;
  /** Mounts the hostile routes (endless pagination, 50 MB body, stall, redirect loop, non-JSON). */
  hostile?: boolean;
  /** Route modules tried before the built-in ones (e.g. authentication routes). */
  routes?: RouteModule[];
  /** Clock of the demo (token expiry); defaults to real time. */
  now?: () => Date;
};

export type DemoApi = { url: string; state: DemoState; close(): Promise<void> };

const MAX_REQUEST_BODY = 1024 * 1024;

/** Starts the demo API and resolves once it listens. */
export async function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const state: DemoState = { baseUrl: '', now: options.now ?? (() => new Date()), requestCount: 0 };
  const modules: RouteModule[] = [...(options.routes ?? []), faultRoutes, authRoutes, asyncReportRoutes, catalogRoutes, dataRoutes, ...(options.hostile ? [hostileRoutes] : [])];
  const server = createServer((req, res) => {
    handle(req, res, modules, state).catch((e) => {
      if (!res.headersSent) sendJson(res, 500, { error: `demo API failure: ${(e as Error).message}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  state.baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: state.baseUrl,
    state,
    close: () => new Promise<void>((resolve) => {
      // Stalled responses never end on their own; drop every connection.
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, modules: RouteModule[], state: DemoState): Promise<void> {
  const body = await readBody(req);
  if (body === null) {
    sendJson(res, 413, { error: `request body larger than ${MAX_REQUEST_BODY} bytes` });
    return;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const demoReq: DemoRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
  state.requestCount = (state.requestCount as number) + 1;
  for (const m of modules) if (await m(demoReq, res, state)) return;
  sendJson(res, 404, { error: `no demo route for ${demoReq.method} ${demoReq.path}` });
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_REQUEST_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

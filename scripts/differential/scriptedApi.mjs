// A small scripted HTTP API on 127.0.0.1 for the component fixtures (test/fixtures/components): each
// request is answered by the first route whose method, path and query subset match, and every exchange
// is logged the way the differential harness logs them (method, url, headers, body, response).
import { createServer } from 'node:http';

/**
 * How long the harness's APIs keep an idle connection open. They share a process with our runtime while
 * the reference CDK calls them from another; with Node's 5 s default, a stall of that process (a starved
 * machine) made the server reset a request that arrived during the stall, on either side
 * (test/unit/scripts/harnessApiKeepAlive.test.mjs).
 */
export const KEEP_ALIVE_MS = 15 * 60_000;

/**
 * routes: [{ method?, path, query?: {k: v}, status?, headers?, body }] — `body` is sent as JSON unless
 * it is a string. A request no route matches gets 404 with a JSON error naming it.
 */
export async function startScriptedApi(routes) {
  const exchanges = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const route = routes.find(
        (r) =>
          (r.method ?? 'GET') === req.method &&
          r.path === url.pathname &&
          Object.entries(r.query ?? {}).every(([k, v]) => (v === null ? !url.searchParams.has(k) : url.searchParams.get(k) === String(v))),
      );
      const status = route ? (route.status ?? 200) : 404;
      const payload = route
        ? typeof route.body === 'string'
          ? route.body
          : JSON.stringify(route.body ?? {})
        : JSON.stringify({ error: `no scripted route for ${req.method} ${req.url}` });
      const headers = { 'content-type': 'application/json', ...(route?.headers ?? {}) };
      exchanges.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body,
        status,
        responseHeaders: headers,
        responseBody: payload,
      });
      res.writeHead(status, headers);
      res.end(payload);
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Replaces the `{{ORIGIN}}` placeholder everywhere in a JSON value. */
export const withOrigin = (value, origin) => JSON.parse(JSON.stringify(value).split('{{ORIGIN}}').join(origin));

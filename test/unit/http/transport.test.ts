// The default transport over real loopback HTTP: bodies, caps, timeouts, redirects, cancellation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { createHttpFetch, resolveFetch } from '../../../server/src/runtime/http/transport';

const seen: { url: string; headers: IncomingMessage['headers']; body: string; method: string }[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ url: req.url ?? '', headers: req.headers, body, method: req.method ?? '' });
    const u = new URL(req.url ?? '/', 'http://x');
    switch (u.pathname) {
      case '/echo':
        res.setHeader('X-Custom', 'v');
        res.end(JSON.stringify({ method: req.method, body, q: u.search }));
        return;
      case '/big':
        res.end('x'.repeat(5000));
        return;
      case '/gzip':
        res.setHeader('Content-Encoding', 'gzip');
        res.end(gzipSync(Buffer.from('{"zipped":true}')));
        return;
      case '/gzip-bomb-streamed': {
        // Sent in two writes, so the client stops the body while it is still arriving.
        const bomb = gzipSync(Buffer.alloc(20_000_000, 0x20));
        res.setHeader('Content-Encoding', 'gzip');
        res.write(bomb.subarray(0, 10));
        setTimeout(() => res.end(bomb.subarray(10)), 30);
        return;
      }
      case '/stall':
        res.writeHead(200);
        res.write('{"partial":');
        return; // never ends
      case '/loop':
        res.writeHead(302, { Location: '/loop' });
        res.end();
        return;
      case '/see-other':
        res.writeHead(303, { Location: '/echo?after=1' });
        res.end();
        return;
      default:
        res.writeHead(404);
        res.end('no');
    }
  });
});
let base = '';
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

test('sends method, headers and body; returns status, headers named as sent, and text', async () => {
  const res = await createHttpFetch()({
    method: 'POST',
    url: `${base}/echo?a=1`,
    headers: { 'Content-Type': 'application/json' },
    body: '{"k": 1}',
  });
  assert.equal(res.status, 200);
  // The reference keeps response header names as the server sent them (reference-incremental.md §7).
  assert.equal(res.headers['X-Custom'], 'v');
  assert.equal(res.headers['x-custom'], undefined);
  assert.deepEqual(JSON.parse(res.body), { method: 'POST', body: '{"k": 1}', q: '?a=1' });
});

test('decompresses gzip bodies', async () => {
  const res = await createHttpFetch()({ method: 'GET', url: `${base}/gzip`, headers: {}, body: null });
  assert.equal(res.body, '{"zipped":true}');
});

test('refuses a body over the size cap with a clear error', async () => {
  await assert.rejects(
    createHttpFetch({ maxResponseBytes: 1000 })({ method: 'GET', url: `${base}/big`, headers: {}, body: null }),
    (e: Error & { code?: string; failureType?: string }) => {
      assert.equal(e.code, 'ERR_RESPONSE_TOO_LARGE');
      assert.match(e.message, /exceeds the size limit of 1000 bytes/);
      return true;
    },
  );
});

test('a gzip body inflating past the cap while it streams fails the request and leaves no unhandled error event', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  process.on('uncaughtException', onUncaught);
  try {
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        createHttpFetch({ maxResponseBytes: 100_000 })({ method: 'GET', url: `${base}/gzip-bomb-streamed`, headers: {}, body: null }),
        /exceeds the size limit of 100000 bytes/,
      );
    }
    // The aborted body reported its 'error' on a later tick: wait for it.
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(uncaught, []);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});

test('a stalled response times out with ETIMEDOUT', async () => {
  await assert.rejects(
    createHttpFetch({ timeoutMs: 200 })({ method: 'GET', url: `${base}/stall`, headers: {}, body: null }),
    (e: Error & { code?: string; failureType?: string }) => {
      assert.equal(e.code, 'ETIMEDOUT');
      assert.equal(e.failureType, 'transient_error');
      return true;
    },
  );
});

test('a redirect loop ends after the redirect limit', async () => {
  seen.length = 0;
  await assert.rejects(
    createHttpFetch({ maxRedirects: 3 })({ method: 'GET', url: `${base}/loop`, headers: {}, body: null }),
    /Too many redirects \(more than 3\)/,
  );
  assert.equal(seen.length, 4);
});

test('303 turns a POST into a bodiless GET on the new location', async () => {
  const res = await createHttpFetch()({
    method: 'POST',
    url: `${base}/see-other`,
    headers: { 'Content-Type': 'text/plain' },
    body: 'data',
  });
  assert.deepEqual(JSON.parse(res.body), { method: 'GET', body: '', q: '?after=1' });
});

test('connection refused rejects with ECONNREFUSED and no query string in the message', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await assert.rejects(
    createHttpFetch()({ method: 'GET', url: `http://127.0.0.1:${port}/x?api_key=SECRET`, headers: {}, body: null }),
    (e: Error & { code?: string }) => {
      assert.equal(e.code, 'ECONNREFUSED');
      assert.doesNotMatch(e.message, /SECRET/);
      return true;
    },
  );
});

test('an AbortSignal cancels an in-flight request', async () => {
  const ctrl = new AbortController();
  const p = createHttpFetch({ signal: ctrl.signal })({ method: 'GET', url: `${base}/stall`, headers: {}, body: null });
  setImmediate(() => ctrl.abort());
  await assert.rejects(p, /cancelled/);
});

test('non-http schemes are config errors; env.fetch overrides the transport', async () => {
  await assert.rejects(
    createHttpFetch()({ method: 'GET', url: 'ftp://x/y', headers: {}, body: null }),
    (e: Error & { failureType?: string }) => e.failureType === 'config_error',
  );
  const fake = async () => ({ status: 204, headers: {}, body: '' });
  assert.equal(resolveFetch({ fetch: fake }), fake);
});

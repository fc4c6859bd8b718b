import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBoundedFetch } from '../../../server/src/boundedFetch';

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('returns status, lower-cased headers and the body text; sends method, headers and body', async () => {
  let seen = '';
  const { url, server } = await serve((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      seen = `${req.method} ${req.url} ${req.headers['x-key']} ${body}`;
      res.writeHead(201, { 'X-Reply': 'yes', 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  try {
    const fetch = createBoundedFetch({ timeoutMs: 5000, maxResponseBytes: 1000 });
    const res = await fetch({ method: 'POST', url: `${url}/items?a=1`, headers: { 'X-Key': 'k' }, body: 'q=1' });
    assert.equal(res.status, 201);
    assert.equal(res.headers['x-reply'], 'yes');
    assert.equal(res.body, '{"ok":true}');
    assert.equal(seen, 'POST /items?a=1 k q=1');
  } finally {
    server.close();
  }
});

test('a response larger than the cap fails with ERESPONSETOOLARGE and names the setting', async () => {
  const { url, server } = await serve((_req, res) => res.end('x'.repeat(5000)));
  try {
    const fetch = createBoundedFetch({ timeoutMs: 5000, maxResponseBytes: 1000 });
    await assert.rejects(fetch({ method: 'GET', url, headers: {}, body: null }), (e: Error & { code?: string }) => e.code === 'ERESPONSETOOLARGE' && /airbyte\.http\.maxResponseBytes/.test(e.message));
  } finally {
    server.close();
  }
});

test('a stalled server fails with ETIMEDOUT; the message never contains the query string', async () => {
  const { url, server } = await serve(() => { /* never answers */ });
  try {
    const fetch = createBoundedFetch({ timeoutMs: 200, maxResponseBytes: 1000 });
    await assert.rejects(fetch({ method: 'GET', url: `${url}/x?api_key=hunter22`, headers: {}, body: null }), (e: Error & { code?: string }) => e.code === 'ETIMEDOUT' && !e.message.includes('hunter22'));
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('cancellation through the signal fails with ABORT_ERR; a refused connection keeps its code', async () => {
  const { url, server } = await serve(() => { /* never answers */ });
  const controller = new AbortController();
  try {
    const fetch = createBoundedFetch({ timeoutMs: 5000, maxResponseBytes: 1000, signal: controller.signal });
    const pending = fetch({ method: 'GET', url, headers: {}, body: null });
    controller.abort();
    await assert.rejects(pending, (e: Error & { code?: string }) => e.code === 'ABORT_ERR');
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const fetch = createBoundedFetch({ timeoutMs: 5000, maxResponseBytes: 1000 });
  await assert.rejects(fetch({ method: 'GET', url, headers: {}, body: null }), (e: Error & { code?: string }) => e.code === 'ECONNREFUSED');
});

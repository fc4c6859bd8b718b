// HTTP_PROXY / HTTPS_PROXY are honoured by the default transport: a child process with the proxy
// variables set opens a CONNECT tunnel through a loopback proxy, which answers for the upstream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

test('requests go through the proxy named by HTTP_PROXY', async () => {
  const seen: string[] = [];
  const proxy = createServer((_req, res) => {
    res.writeHead(502);
    res.end();
  });
  // undici tunnels every proxied request with CONNECT; the proxy plays the upstream inside the tunnel.
  proxy.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    socket.once('data', (chunk) => {
      seen.push(String(chunk).split('\r\n')[0]);
      const body = '{"via":"proxy"}';
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as AddressInfo).port;
  try {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(__dirname, '../../fixtures/proxyFetch.ts'), 'http://upstream.invalid/items?x=1'],
        {
          timeout: 20_000,
          env: {
            ...process.env,
            NODE_TEST_CONTEXT: '',
            HTTP_PROXY: `http://127.0.0.1:${port}`,
            HTTPS_PROXY: `http://127.0.0.1:${port}`,
            NO_PROXY: '',
          },
        },
        (err, stdout) => (err && !stdout ? reject(err) : resolve(stdout)),
      );
    });
    assert.deepEqual(JSON.parse(out), { status: 200, body: '{"via":"proxy"}' });
    assert.deepEqual(seen, ['CONNECT upstream.invalid:80', 'GET /items?x=1 HTTP/1.1']);
  } finally {
    proxy.closeAllConnections();
    proxy.close();
  }
});

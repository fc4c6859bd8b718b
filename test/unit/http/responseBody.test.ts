// The transport keeps a response's raw bytes (non-enumerably) and shows binary bodies as a placeholder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createHttpFetch } from '../../../server/src/runtime/http/transport';
import { bodyBytes, bodyText, binaryKind } from '../../../server/src/runtime/http/responseBody';

const gz = gzipSync('{"id":1}\n');
const server = createServer((req, res) => {
  if (req.url === '/gz') {
    res.writeHead(200, { 'Content-Type': 'application/gzip' });
    return res.end(gz);
  }
  if (req.url === '/latin1') {
    res.writeHead(200, { 'Content-Type': 'text/csv' });
    return res.end(Buffer.from('Zürich', 'latin1'));
  }
  if (req.url === '/latin1-declared') {
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=latin1' });
    return res.end(Buffer.from('Zürich', 'latin1'));
  }
  if (req.url === '/text') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    return res.end('héllo');
  }
  res.writeHead(404);
  res.end();
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

test('a gzip body is shown as a placeholder; its bytes and the size cap ride along without changing the shape', async () => {
  const res = await createHttpFetch({ maxResponseBytes: 4096 })({ method: 'GET', url: `${base}/gz`, headers: {}, body: null });
  assert.equal(res.body, `<${gz.length} bytes of gzip data>`);
  assert.deepEqual(Buffer.from(res.bodyBytes ?? []), gz);
  assert.equal(res.maxBodyBytes, 4096);
  assert.deepEqual(Object.keys(res).sort(), ['body', 'headers', 'status']);
  assert.ok(!JSON.stringify(res).includes('bodyBytes'));
});

test('a valid UTF-8 text body stays text; its bytes are not kept twice (the text re-encodes to them)', async () => {
  const res = await createHttpFetch()({ method: 'GET', url: `${base}/text`, headers: {}, body: null });
  assert.equal(res.body, 'héllo');
  assert.equal(res.bodyBytes, undefined);
  assert.deepEqual(bodyBytes(res), Buffer.from('héllo'));
});

test('invalid UTF-8 and other charsets keep their bytes for the decoders', async () => {
  for (const path of ['/latin1', '/latin1-declared']) {
    const res = await createHttpFetch()({ method: 'GET', url: `${base}${path}`, headers: {}, body: null });
    assert.deepEqual(Buffer.from(res.bodyBytes ?? []), Buffer.from('Zürich', 'latin1'), path);
  }
});

test('binary kinds: gzip and zip magic numbers, NUL bytes; the charset of the content type is honoured', () => {
  assert.equal(binaryKind(gz), 'gzip');
  assert.equal(binaryKind(Buffer.from('PK\x03\x04rest', 'latin1')), 'zip');
  assert.equal(binaryKind(Buffer.from([0x41, 0x00, 0x42])), 'binary');
  assert.equal(binaryKind(Buffer.from('plain')), null);
  assert.equal(bodyText(Buffer.from([1, 0, 2])), '<3 bytes of binary data>');
  assert.equal(bodyText(Buffer.from('Zürich', 'latin1'), 'text/csv; charset=ISO-8859-1'), 'Zürich');
});

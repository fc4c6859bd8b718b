// Gzip-wrapped JSON lines in a test read over loopback: a gzip file body (no Content-Encoding), a body
// the transport already inflated (Content-Encoding: gzip), and a gzip bomb refused at the size cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { testRead, createHttpFetch } from '../../../server/src/runtime';
import { manifestWith, startLoopback } from './loopback';

const exportLines = '{"id":1,"event":"open"}\n{"id":2,"event":"click"}\n';

function streamOf(url: string) {
  return manifestWith({
    requester: { type: 'HttpRequester', url },
    decoder: { type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
  });
}

test('a gzip file body is inflated and read as JSON lines; the page shows a short placeholder, not the bytes', async () => {
  const body = gzipSync(exportLines);
  const api = await startLoopback((req, res) => {
    if (req.url === '/file') {
      res.writeHead(200, { 'Content-Type': 'application/gzip' });
      return res.end(body);
    }
    // Content-Encoding: the transport inflates it, so the decoder receives plain JSON lines.
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip' });
    res.end(body);
  });
  try {
    for (const path of ['/file', '/encoded']) {
      const r = await testRead(streamOf(`${api.base}${path}`), {}, 'items');
      assert.deepEqual(
        r.slices[0].pages[0].records,
        [
          { id: 1, event: 'open' },
          { id: 2, event: 'click' },
        ],
        path,
      );
      assert.deepEqual(
        r.logs.filter((l) => l.level === 'ERROR'),
        [],
        path,
      );
      assert.equal(r.slices[0].pages[0].response?.body, path === '/file' ? `<${body.length} bytes of gzip data>` : exportLines);
    }
  } finally {
    await api.close();
  }
});

test('a gzip bomb is refused at the response size cap with a clear error; the page is still shown', async () => {
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
  const api = await startLoopback((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip' });
    res.end(bomb);
  });
  try {
    const r = await testRead(streamOf(`${api.base}/bomb`), {}, 'items', {}, { fetch: createHttpFetch({ maxResponseBytes: 1024 * 1024 }) });
    assert.equal(r.slices[0].pages.length, 1);
    assert.equal(r.slices[0].pages[0].response?.body, `<${bomb.length} bytes of gzip data>`);
    assert.deepEqual(r.slices[0].pages[0].records, []);
    const error = r.logs.find((l) => l.level === 'ERROR')?.message ?? '';
    assert.match(
      error,
      /Reading stream 'items' failed: The gzip data of the response inflates to more than 1048576 bytes, the response size limit/,
    );
  } finally {
    await api.close();
  }
});

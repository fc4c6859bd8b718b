// A zip of gzip files of JSON lines (source-amplitude's export format) in a test read over loopback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { testRead } from '../../../server/src/runtime';
import { manifestWith, startLoopback } from './loopback';
import { buildZip } from '../../fixtures/zipWriter';

test('ZipfileDecoder → GzipDecoder → JsonlDecoder reads every event of every file', async () => {
  const zip = buildZip([
    { name: '187520/187520_2024-01-01_0#0.json.gz', data: gzipSync('{"id":"e1","event_type":"open"}\n{"id":"e2","event_type":"click"}\n') },
    { name: '187520/187520_2024-01-01_1#0.json.gz', data: gzipSync('{"id":"e3","event_type":"close"}\n') },
  ]);
  const api = await startLoopback((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/zip' });
    res.end(zip);
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/2/export` },
      decoder: { type: 'ZipfileDecoder', decoder: { type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } } },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      r.slices[0].pages[0].records.map((x) => x.id),
      ['e1', 'e2', 'e3'],
    );
    assert.equal(r.slices[0].pages[0].response?.body, `<${zip.length} bytes of zip data>`);
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
  } finally {
    await api.close();
  }
});

// CsvDecoder in a test read over loopback: semicolon-separated latin-1 export with "null" markers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { manifestWith, startLoopback } from './loopback';

test('a latin-1, semicolon-separated CSV export becomes records; set_values_to_none values are null', async () => {
  const csv = Buffer.from('id;city;score\n1;Zürich;NULL\n2;Genève;7\n', 'latin1');
  const api = await startLoopback((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/csv; charset=iso-8859-1' });
    res.end(csv);
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/export.csv` },
      decoder: { type: 'CsvDecoder', delimiter: ';', encoding: 'iso-8859-1', set_values_to_none: ['NULL'] },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(r.slices[0].pages[0].records, [
      { id: '1', city: 'Zürich', score: null },
      { id: '2', city: 'Genève', score: '7' },
    ]);
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    // The body is shown as text in the charset the server declared.
    assert.equal(r.slices[0].pages[0].response?.body, 'id;city;score\n1;Zürich;NULL\n2;Genève;7\n');
  } finally {
    await api.close();
  }
});

test('a CSV stream with a DefaultPaginator is refused when the stream is built (§7.9)', async () => {
  const m = manifestWith({
    requester: { type: 'HttpRequester', url: 'http://127.0.0.1:9/x' },
    decoder: { type: 'CsvDecoder' },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
    paginator: {
      type: 'DefaultPaginator',
      pagination_strategy: { type: 'PageIncrement', page_size: 10 },
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
    },
  });
  await assert.rejects(testRead(m, {}, 'items'), /Decoder CsvDecoder is not supported for pagination/);
});

// ZipfileDecoder: every file through the inner decoder's parser; zip64; size cap on the inflated
// total; broken archives and unparsable files fail with a clear error naming the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createDecoder } from '../../../server/src/runtime/records/decoders';
import { readZip } from '../../../server/src/runtime/records/zipfileDecoder';
import { createPaginator } from '../../../server/src/runtime/pagination/defaultPaginator';
import { buildZip } from '../../fixtures/zipWriter';

const zipResponse = (bytes: Buffer, maxBodyBytes?: number) => ({
  body: `<${bytes.length} bytes of zip data>`,
  bodyBytes: bytes,
  maxBodyBytes,
});

test('ZipfileDecoder → GzipDecoder → JsonlDecoder (source-amplitude) reads every file in order', () => {
  const zip = buildZip([
    { name: '123/2024-01-01_0#0.json.gz', data: gzipSync('{"id":1}\n{"id":2}\n'), method: 0 },
    { name: '123/2024-01-01_1#0.json.gz', data: gzipSync('{"id":3}\n') },
  ]);
  const dec = createDecoder({ type: 'ZipfileDecoder', decoder: { type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } } });
  assert.equal(dec.name, 'ZipfileDecoder(GzipDecoder(JsonlDecoder))');
  assert.deepEqual(dec.decode(zipResponse(zip)), [{ id: 1 }, { id: 2 }, { id: 3 }]);
});

test('ZipfileDecoder with CsvDecoder and with JsonDecoder inside', () => {
  const csv = createDecoder({ type: 'ZipfileDecoder', decoder: { type: 'CsvDecoder', delimiter: '\\t' } });
  assert.deepEqual(csv.decode(zipResponse(buildZip([{ name: 'r.tsv', data: 'a\tb\n1\t2\n' }]))), [{ a: '1', b: '2' }]);
  const json = createDecoder({ type: 'ZipfileDecoder', decoder: { type: 'JsonDecoder' } });
  assert.deepEqual(
    json.decode(
      zipResponse(
        buildZip([
          { name: 'x.json', data: '[{"a":1},{"a":2}]' },
          { name: 'y.json', data: '{"a":3}' },
        ]),
      ),
    ),
    [{ a: 1 }, { a: 2 }, { a: 3 }],
  );
});

test('zip64 archives and directory entries are handled', () => {
  const zip = buildZip(
    [
      { name: 'dir/', data: '', method: 0 },
      { name: 'dir/a.jsonl', data: '{"k":"v"}\n' },
    ],
    { zip64: true },
  );
  assert.deepEqual(
    readZip(zip, 1e6).map((e) => [e.name, e.data.toString()]),
    [['dir/a.jsonl', '{"k":"v"}\n']],
  );
});

test('the inflated total may not exceed the response size cap', () => {
  const zip = buildZip([
    { name: 'a.jsonl', data: Buffer.alloc(600_000, 0x20) },
    { name: 'b.jsonl', data: Buffer.alloc(600_000, 0x20) },
  ]);
  const dec = createDecoder({ type: 'ZipfileDecoder', decoder: { type: 'JsonlDecoder' } });
  assert.throws(
    () => dec.decode(zipResponse(zip, 1_000_000)),
    (e: Error & { failureType?: string }) => {
      assert.equal(e.failureType, 'system_error');
      assert.match(e.message, /The zip data of file "b\.jsonl" of the zip response inflates to more than 1000000 bytes/);
      return true;
    },
  );
  assert.deepEqual(dec.decode(zipResponse(zip, 2_000_000)), []);
  const stored = buildZip([{ name: 'big.bin', data: Buffer.alloc(2000), method: 0 }]);
  assert.throws(() => readZip(stored, 1000), /inflates to more than 1000 bytes/);
});

test('a body that is not a zip, a truncated zip and an unparsable file fail clearly', () => {
  const dec = createDecoder({ type: 'ZipfileDecoder', decoder: { type: 'JsonDecoder' } });
  assert.throws(
    () => dec.decode({ body: '{"not":"zip"}' }),
    /Received an invalid zip file in the response: no end-of-central-directory record was found in 13 bytes/,
  );
  const zip = buildZip([{ name: 'a.json', data: '{"a":1}'.repeat(50) }]);
  assert.throws(
    () => dec.decode(zipResponse(Buffer.concat([zip.subarray(0, 20), zip.subarray(zip.length - 60)]))),
    /Received an invalid zip file/,
  );
  assert.throws(
    () => dec.decode(zipResponse(buildZip([{ name: 'bad.json', data: 'oops' }]))),
    /Failed to parse file "bad\.json" from the zip file: Response JSON data failed to be parsed/,
  );
});

test('§7.9: ZipfileDecoder cannot paginate', () => {
  const paginator = { type: 'DefaultPaginator', pagination_strategy: { type: 'PageIncrement', page_size: 10 } };
  assert.throws(
    () => createPaginator(paginator, {}, { decoder: { type: 'ZipfileDecoder', decoder: { type: 'JsonDecoder' } } }),
    /ZipfileDecoder \(JsonDecoder\) is not supported for pagination/,
  );
});

// GzipDecoder / GzipParser: inflate before the inner parser, pass plain data through, refuse to
// inflate past the size cap, fail clearly on corrupt data; §7.9 pagination with gzip-wrapped JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { createDecoder } from '../../../server/src/runtime/records/decoders';
import { createPaginator } from '../../../server/src/runtime/pagination/defaultPaginator';

const lines = '{"id":1}\n{"id":2}\n';
const gz = (s: string | Buffer) => gzipSync(s);

test('GzipDecoder(JsonlDecoder) inflates gzip bytes, then reads JSON lines', () => {
  const dec = createDecoder({ type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } });
  assert.equal(dec.name, 'GzipDecoder(JsonlDecoder)');
  assert.deepEqual(dec.decode({ body: '<x bytes of gzip data>', bodyBytes: gz(lines) }), [{ id: 1 }, { id: 2 }]);
});

test('data without the gzip magic bytes goes to the inner parser as is (already decoded Content-Encoding)', () => {
  const dec = createDecoder({ type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } });
  assert.deepEqual(dec.decode({ body: lines }), [{ id: 1 }, { id: 2 }]);
});

test('multi-member gzip files are read whole; gzip inside gzip needs nested decoders', () => {
  const twoMembers = Buffer.concat([gz('{"id":1}\n'), gz('{"id":2}\n')]);
  assert.deepEqual(createDecoder({ type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } }).decode({ body: '', bodyBytes: twoMembers }), [
    { id: 1 },
    { id: 2 },
  ]);
  const nested = createDecoder({ type: 'GzipDecoder', decoder: { type: 'GzipDecoder', decoder: { type: 'JsonDecoder' } } });
  assert.deepEqual(nested.decode({ body: '', bodyBytes: gz(gz('[{"a":1},{"a":2}]')) }), [{ a: 1 }, { a: 2 }]);
});

test('CompositeRawDecoder with GzipParser(JsonLineParser) and with GzipParser(CsvParser)', () => {
  const jsonl = createDecoder({ type: 'CompositeRawDecoder', parser: { type: 'GzipParser', inner_parser: { type: 'JsonLineParser' } } });
  assert.deepEqual(jsonl.decode({ body: '', bodyBytes: gz(lines) }), [{ id: 1 }, { id: 2 }]);
  const csv = createDecoder({ type: 'CompositeRawDecoder', parser: { type: 'GzipParser', inner_parser: { type: 'CsvParser' } } });
  assert.deepEqual(csv.decode({ body: '', bodyBytes: gz('a,b\n1,2\n') }), [{ a: '1', b: '2' }]);
});

test('a gzip bomb is refused at the size cap with a clear error', () => {
  const bomb = gz(Buffer.alloc(5 * 1024 * 1024, 0x20));
  assert.ok(bomb.length < 10_000);
  const dec = createDecoder({ type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } });
  assert.throws(
    () => dec.decode({ body: '', bodyBytes: bomb, maxBodyBytes: 1024 * 1024 }),
    (e: Error & { failureType?: string }) => {
      assert.equal(e.failureType, 'system_error');
      assert.match(e.message, /inflates to more than 1048576 bytes, the response size limit; refusing to decompress it/);
      return true;
    },
  );
  // Under a larger cap the same data inflates (and is only whitespace: no records).
  assert.deepEqual(dec.decode({ body: '', bodyBytes: bomb, maxBodyBytes: 6 * 1024 * 1024 }), []);
});

test('corrupt gzip data fails clearly; the inner JsonParser is strict about invalid JSON', () => {
  const broken = gz(lines).subarray(0, 15);
  assert.throws(
    () => createDecoder({ type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } }).decode({ body: '', bodyBytes: broken }),
    /The gzip data of the response cannot be decompressed/,
  );
  assert.throws(
    () => createDecoder({ type: 'GzipDecoder', decoder: { type: 'JsonDecoder' } }).decode({ body: '', bodyBytes: gz('<html>') }),
    /Response JSON data failed to be parsed/,
  );
});

test('§7.9: gzip-wrapped JSON may paginate; gzip-wrapped JSON lines may not', () => {
  const paginator = { type: 'DefaultPaginator', pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}' } };
  const p = createPaginator(paginator, {}, { decoder: { type: 'GzipDecoder', decoder: { type: 'JsonDecoder' } } });
  // The cursor template sees the first element the gzip decoder yields.
  assert.deepEqual(p.nextPageToken({ status: 200, headers: {}, body: '', bodyBytes: gz('{"next":"n2","data":[]}') }, 0, null, null), {
    next_page_token: 'n2',
  });
  createPaginator(
    paginator,
    {},
    { decoder: { type: 'CompositeRawDecoder', parser: { type: 'GzipParser', inner_parser: { type: 'JsonParser' } } } },
  );
  assert.throws(
    () => createPaginator(paginator, {}, { decoder: { type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } } }),
    /GzipDecoder \(JsonlDecoder\) is not supported for pagination/,
  );
  assert.throws(
    () =>
      createPaginator(
        paginator,
        {},
        { decoder: { type: 'CompositeRawDecoder', parser: { type: 'GzipParser', inner_parser: { type: 'CsvParser' } } } },
      ),
    /not supported for pagination/,
  );
});

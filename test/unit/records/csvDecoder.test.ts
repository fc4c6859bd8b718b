// CsvDecoder / CompositeRawDecoder(CsvParser): header-keyed string records, delimiter, encoding,
// set_values_to_none, ragged rows, and the §7.9 pagination refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDecoder } from '../../../server/src/runtime/records/decoders';
import { createPaginator } from '../../../server/src/runtime/pagination/defaultPaginator';

const bytes = (s: string, enc: BufferEncoding = 'utf8') => ({ body: '', bodyBytes: Buffer.from(s, enc) });

test('each row is a record keyed by the header; values stay strings', () => {
  const dec = createDecoder({ type: 'CsvDecoder' });
  assert.deepEqual(dec.decode(bytes('id,name,amount\n1,Ann,10.5\n2,"Bo, Jr.",007\n')), [
    { id: '1', name: 'Ann', amount: '10.5' },
    { id: '2', name: 'Bo, Jr.', amount: '007' },
  ]);
});

test('quoted fields keep newlines and doubled quotes; blank lines are skipped; CRLF works', () => {
  const dec = createDecoder({ type: 'CsvDecoder' });
  assert.deepEqual(dec.decode(bytes('a,b\r\n"x\r\ny","say ""hi"""\r\n\r\n3,4\r\n')), [
    { a: 'x\r\ny', b: 'say "hi"' },
    { a: '3', b: '4' },
  ]);
});

test('delimiter: a single character, or an escape such as \\t', () => {
  assert.deepEqual(createDecoder({ type: 'CsvDecoder', delimiter: ';' }).decode(bytes('a;b\n1;2\n')), [{ a: '1', b: '2' }]);
  assert.deepEqual(createDecoder({ type: 'CsvDecoder', delimiter: '\\t' }).decode(bytes('a\tb\n1\t2\n')), [{ a: '1', b: '2' }]);
  assert.throws(() => createDecoder({ type: 'CsvDecoder', delimiter: '||' }), /single character/);
});

test('set_values_to_none turns the listed values into null, header untouched', () => {
  const dec = createDecoder({ type: 'CsvDecoder', set_values_to_none: ['', 'N/A'] });
  assert.deepEqual(dec.decode(bytes('id,note,NA\n1,,N/A\n2,ok,x\n')), [
    { id: '1', note: null, NA: null },
    { id: '2', note: 'ok', NA: 'x' },
  ]);
});

test('short rows get null for missing columns; extra cells are kept under "null" as Python keys them by None', () => {
  const dec = createDecoder({ type: 'CsvDecoder' });
  assert.deepEqual(dec.decode(bytes('a,b\n1\n1,2,3,4\n')), [
    { a: '1', b: null },
    { a: '1', b: '2', null: ['3', '4'] },
  ]);
});

test('encoding: latin-1 bytes, utf-8-sig strips the BOM, utf-8 keeps it like Python, undecodable bytes fail clearly', () => {
  assert.deepEqual(createDecoder({ type: 'CsvDecoder', encoding: 'latin-1' }).decode(bytes('city\nZürich\n', 'latin1')), [
    { city: 'Zürich' },
  ]);
  const bom = '\ufeffid\n1\n';
  assert.deepEqual(createDecoder({ type: 'CsvDecoder', encoding: 'utf-8-sig' }).decode(bytes(bom)), [{ id: '1' }]);
  assert.deepEqual(createDecoder({ type: 'CsvDecoder' }).decode(bytes(bom)), [{ '\ufeffid': '1' }]);
  assert.throws(
    () => createDecoder({ type: 'CsvDecoder' }).decode(bytes('city\nZürich\n', 'latin1')),
    (e: Error & { failureType?: string }) => {
      assert.equal(e.failureType, 'system_error');
      assert.match(e.message, /not valid utf-8 text; set the decoder's encoding/);
      return true;
    },
  );
  assert.throws(
    () => createDecoder({ type: 'CsvDecoder', encoding: 'klingon-8' }).decode(bytes('a\n1\n')),
    /unknown text encoding "klingon-8"/,
  );
});

test('a header-only or empty body yields no records', () => {
  assert.deepEqual(createDecoder({ type: 'CsvDecoder' }).decode(bytes('a,b\n')), []);
  assert.deepEqual(createDecoder({ type: 'CsvDecoder' }).decode(bytes('')), []);
});

test('CompositeRawDecoder with CsvParser is the same decoder', () => {
  const dec = createDecoder({ type: 'CompositeRawDecoder', parser: { type: 'CsvParser', delimiter: '|', set_values_to_none: ['-'] } });
  assert.equal(dec.name, 'CompositeRawDecoder(CsvParser)');
  assert.deepEqual(dec.decode(bytes('a|b\n-|2\n')), [{ a: null, b: '2' }]);
});

test('§7.9: CSV with a DefaultPaginator is a build error', () => {
  const paginator = { type: 'DefaultPaginator', pagination_strategy: { type: 'PageIncrement', page_size: 10 } };
  for (const decoder of [
    { type: 'CsvDecoder' },
    { type: 'CompositeRawDecoder', parser: { type: 'CsvParser' } },
    { type: 'GzipDecoder', decoder: { type: 'CsvDecoder' } },
  ]) {
    assert.throws(
      () => createPaginator(paginator, {}, { decoder }),
      (e: Error & { failureType?: string }) => {
        assert.equal(e.failureType, 'config_error');
        assert.match(e.message, /is not supported for pagination/);
        return true;
      },
    );
  }
});

test('a header named __proto__ is an ordinary column', () => {
  const [row] = createDecoder({ type: 'CsvDecoder', set_values_to_none: ['x'] }).decode(bytes('__proto__,b\nx,2\n')) as Record<
    string,
    unknown
  >[];
  assert.deepEqual(Object.keys(row), ['__proto__', 'b']);
  assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, null);
  assert.equal(Object.getPrototypeOf(row), Object.prototype);
});

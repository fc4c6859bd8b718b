// Decoders, DpathExtractor, RecordFilter and transformations (§8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJson, createDecoder } from '../../../server/src/runtime/records/decoders';
import { createDpathExtractor } from '../../../server/src/runtime/records/dpathExtractor';
import { createRecordSelector } from '../../../server/src/runtime/records/recordSelector';
import { emptySlice } from '../../../server/src/runtime/records/streamSlice';

const extract = (path: string[], body: unknown) => {
  const ex = createDpathExtractor({ type: 'DpathExtractor', field_path: path }, {}, {});
  return decodeJson(JSON.stringify(body)).flatMap((e) => ex.extract(e));
};

test('JsonDecoder: arrays yield items; empty, invalid and null bodies yield one {} (§8.1)', () => {
  assert.deepEqual(decodeJson('[{"a":1},{"a":2}]'), [{ a: 1 }, { a: 2 }]);
  assert.deepEqual(decodeJson(''), [{}]);
  assert.deepEqual(decodeJson('<html>'), [{}]);
  assert.deepEqual(decodeJson('null'), [{}]);
  assert.deepEqual(decodeJson('[]'), [{}]);
  assert.deepEqual(createDecoder({ type: 'JsonlDecoder' }).decode('{"a":1}\n\n{"a":2}\n'), [{ a: 1 }, { a: 2 }]);
  // JsonItemsDecoder: the elements of the array at the dotted items_path (ijson's `<path>.item`).
  assert.deepEqual(
    createDecoder({ type: 'JsonItemsDecoder', items_path: 'data.users' }).decode('{"data": {"users": [{"id": 1}, {"id": 2}]}}'),
    [{ id: 1 }, { id: 2 }],
  );
  assert.deepEqual(createDecoder({ type: 'JsonItemsDecoder', items_path: 'data' }).decode('{"data": {"id": 1}}'), []);
  assert.throws(() => createDecoder({ type: 'JsonItemsDecoder', items_path: '' }), /requires a non-empty items_path/);
  assert.throws(
    () => createDecoder({ type: 'SomethingDecoder' }),
    /supported: JsonDecoder, JsonItemsDecoder, JsonlDecoder, IterableDecoder, XmlDecoder, CsvDecoder, GzipDecoder, ZipfileDecoder/,
  );
});

test('DpathExtractor examples of §8.2', () => {
  assert.equal(extract(['data'], { data: [{ id: 1 }, { id: 2 }] }).length, 2);
  assert.deepEqual(extract(['data'], { data: { id: 1 } }), [{ id: 1 }]);
  assert.deepEqual(extract(['record'], { id: 1 }), []);
  assert.deepEqual(extract([], { id: 1 }), [{ id: 1 }]);
  assert.deepEqual(extract(['data'], { data: {} }), []);
  assert.deepEqual(extract(['data', '0'], { data: [{ id: 7 }] }), [{ id: 7 }]);
  const nested = { data: [{ list: { data2: [{ x: 1 }, { x: 2 }] } }, { list: { data2: [{ x: 3 }] } }] };
  assert.deepEqual(extract(['data', '*', 'list', 'data2', '*'], nested), [{ x: 1 }, { x: 2 }, { x: 3 }]);
  // A glob ending on a list-valued field yields the lists themselves (not flattened).
  assert.deepEqual(extract(['data', '*', 'list', 'data2'], nested), [[{ x: 1 }, { x: 2 }], [{ x: 3 }]]);
});

test('field_path segments are interpolated with config', () => {
  assert.deepEqual(extract.call(null, ['data'], { data: [1] }), [1]);
  const ex = createDpathExtractor({ type: 'DpathExtractor', field_path: ["{{ config['root'] }}"] }, { root: 'rows' }, {});
  assert.deepEqual(ex.extract({ rows: [{ a: 1 }] }), [{ a: 1 }]);
});

test('RecordFilter drops records whose condition is false; an empty condition drops all (reference quirk)', () => {
  const response = {
    status: 200,
    headers: {},
    body: JSON.stringify({
      data: [
        { id: 1, keep: true },
        { id: 2, keep: false },
      ],
    }),
  };
  const sel = createRecordSelector(
    {
      type: 'RecordSelector',
      extractor: { type: 'DpathExtractor', field_path: ['data'] },
      record_filter: { type: 'RecordFilter', condition: '{{ record.keep }}' },
    },
    undefined,
    undefined,
    {},
    {},
  );
  assert.deepEqual(
    sel.select(response, emptySlice(), null).map((r) => r.id),
    [1],
  );
  assert.equal(sel.extract(response).length, 2);
  const empty = createRecordSelector(
    { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] }, record_filter: { type: 'RecordFilter' } },
    undefined,
    undefined,
    {},
    {},
  );
  assert.deepEqual(empty.select(response, emptySlice(), null), []);
});

test('transformations: AddFields, RemoveFields (with *), KeysToLower; unsupported types fail clearly', () => {
  const response = { status: 200, headers: {}, body: JSON.stringify([{ Id: 1, meta: { a: 1, b: 2 }, tags: [{ x: 1, y: 2 }] }]) };
  const sel = createRecordSelector(
    { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
    undefined,
    [
      {
        type: 'AddFields',
        fields: [
          { type: 'AddedFieldDefinition', path: ['source'], value: "{{ config['name'] }}" },
          { type: 'AddedFieldDefinition', path: ['nested', 'k'], value: 'v' },
        ],
      },
      {
        type: 'RemoveFields',
        field_pointers: [
          ['meta', 'a'],
          ['tags', '*', 'y'],
        ],
      },
      { type: 'KeysToLower' },
    ],
    { name: 'demo' },
    {},
  );
  assert.deepEqual(sel.select(response, emptySlice(), null), [
    { id: 1, meta: { b: 2 }, tags: [{ x: 1 }], source: 'demo', nested: { k: 'v' } },
  ]);
  assert.throws(
    () => createRecordSelector(undefined, undefined, [{ type: 'CustomTransformation', class_name: 'x' }], {}, {}),
    /not runnable outside the Python CDK/,
  );
});

test('IterableDecoder wraps each line in {record}; CompositeRawDecoder(JsonParser) is strict about invalid JSON', () => {
  const lines = createDecoder({ type: 'IterableDecoder' });
  assert.deepEqual(lines.decode({ body: 'alpha\r\nbeta\n\ngamma\n' }), [
    { record: 'alpha' },
    { record: 'beta' },
    { record: '' },
    { record: 'gamma' },
  ]);
  const strict = createDecoder({ type: 'CompositeRawDecoder', parser: { type: 'JsonParser' } });
  assert.deepEqual(strict.decode({ body: '[{"a":1},{"a":2}]' }), [{ a: 1 }, { a: 2 }]);
  assert.throws(
    () => strict.decode({ body: '<html>' }),
    (e: Error & { failureType?: string }) => e.failureType === 'system_error' && /Response JSON data failed to be parsed/.test(e.message),
  );
  assert.throws(
    () => createDecoder({ type: 'CompositeRawDecoder', parser: { type: 'XmlParser' } }),
    /parser "XmlParser" is not supported by this runtime \(supported: JsonParser, JsonLineParser, CsvParser, GzipParser\)/,
  );
});

test('JsonlDecoder reports a body in which no line is JSON, and stays quiet about a few broken lines', () => {
  const dec = createDecoder({ type: 'JsonlDecoder' });
  assert.match(dec.problem({ body: '<html>\n<body>oops</body>\n</html>' }) ?? '', /is not valid JSON Lines/);
  assert.equal(dec.problem({ body: '{"a":1}\nbroken\n' }), null);
  assert.equal(dec.problem({ body: '' }), null);
});

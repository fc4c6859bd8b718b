// The regression comparison and the cassette masker on their own: composite and nested primary keys,
// streams without one, duplicate keys, schema changes; secrets in their wire encodings and credential
// headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareWithExpectation,
  formatDiff,
  isEmptyDiff,
  primaryKeyPaths,
  type Expectation,
} from '../../../server/src/runtime/cassette/regression';
import { CassetteMasker } from '../../../server/src/runtime/cassette/cassetteMasker';
import { encodeBody, bodyTextOf } from '../../../server/src/runtime/cassette/cassette';

const exp = (records: Record<string, unknown>[], pk: string[][], schema: Record<string, unknown> | null = null): Expectation => ({
  stream: 's',
  primary_key: pk,
  records,
  inferred_schema: schema,
});

test('primary keys: a string, a list, a composite with a nested path', () => {
  assert.deepEqual(primaryKeyPaths('id'), [['id']]);
  assert.deepEqual(primaryKeyPaths(['id', 'region']), [['id'], ['region']]);
  assert.deepEqual(primaryKeyPaths([['owner', 'id'], ['n']]), [['owner', 'id'], ['n']]);
  assert.deepEqual(primaryKeyPaths(undefined), []);
});

test('records are matched by a composite nested key; changed nested fields are dotted paths', () => {
  const pk = [['owner', 'id'], ['n']];
  const before = exp(
    [
      { owner: { id: 1 }, n: 1, v: { a: 1, b: 2 } },
      { owner: { id: 1 }, n: 2, v: { a: 1 } },
    ],
    pk,
  );
  const after = exp(
    [
      { owner: { id: 1 }, n: 1, v: { a: 1, b: 3 } },
      { owner: { id: 2 }, n: 2, v: { a: 1 } },
    ],
    pk,
  );
  const d = compareWithExpectation(before, after);
  assert.deepEqual(d.added, ['owner.id=2, n=2']);
  assert.deepEqual(d.removed, ['owner.id=1, n=2']);
  assert.deepEqual(d.changed, [{ key: 'owner.id=1, n=1', fields: [{ path: 'v.b', before: 2, after: 3 }] }]);
  assert.match(formatDiff('s', d), /~ record owner\.id=1, n=1\n {6}v\.b: 2 → 3/);
});

test('without a primary key a record is its own identity; duplicates are counted', () => {
  const d = compareWithExpectation(exp([{ a: 1 }, { a: 1 }], []), exp([{ a: 1 }, { a: 2 }], []));
  assert.deepEqual(d.added, ['{"a":2}']);
  assert.deepEqual(d.removed, ['{"a":1} (#2)']);
  assert.ok(isEmptyDiff(compareWithExpectation(exp([{ a: 1 }], []), exp([{ a: 1 }], []))));
});

test('schema: added, removed and retyped fields, nested properties, required', () => {
  const s1 = {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' }, gone: { type: 'string' }, o: { type: 'object', properties: { x: { type: 'number' } } } },
  };
  const s2 = {
    type: 'object',
    required: [],
    properties: {
      id: { type: ['string', 'null'] },
      added: { type: 'string', format: 'date-time' },
      o: { type: 'object', properties: { x: { type: 'string' } } },
    },
  };
  const d = compareWithExpectation(exp([], [['id']], s1), exp([], [['id']], s2));
  assert.deepEqual(
    d.schema.sort(),
    [
      '+ added: string (date-time)',
      '- gone: string',
      '~ id: integer → string|null',
      '~ o.x: number → string',
      '~ required: ["id"] → []',
    ].sort(),
  );
});

test('the cassette masker masks URL-encoded and base64 forms and credential headers whole', () => {
  const m = new CassetteMasker();
  m.add('s3cr*t value!');
  assert.equal(m.maskText('a=s3cr%2At%20value%21&b=s3cr*t+value%21&d=s3cr%2At+value%21&c=s3cr*t%20value!'), 'a=****&b=****&d=****&c=****');
  assert.equal(m.maskText(Buffer.from('s3cr*t value!').toString('base64')), '****');
  assert.deepEqual(m.maskRequestHeaders({ Authorization: 'Basic dXNlcjpwYXNz', Cookie: 'sid=1', 'X-Key': 'k s3cr*t value!' }), {
    Authorization: 'Basic ****',
    Cookie: '****',
    'X-Key': 'k ****',
  });
  m.addCredentialsOf({ nested: { client_secret: 'abc123', page_size: 50 }, list: [{ api_key: 'kkk999' }] });
  assert.equal(m.maskText('abc123 kkk999 50'), '**** **** 50');
});

test('bodies: compact JSON becomes a structure, anything else stays text, both give back the exact text', () => {
  for (const text of ['{"a":1,"b":[1,2]}', '{ "a": 1 }', 'plain', '[]', '"x"']) {
    assert.equal(bodyTextOf(encodeBody(text)), text);
  }
  assert.deepEqual(encodeBody('{"a":1}'), { json: { a: 1 } });
  assert.deepEqual(encodeBody('{ "a": 1 }'), { text: '{ "a": 1 }' });
  assert.equal(encodeBody(null), null);
});

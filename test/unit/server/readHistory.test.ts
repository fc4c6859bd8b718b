// The language server's memory of past reads for the cassette commands: the last two reads per
// (manifest, stream) for comparisons, the last recorded cassette, and a bound on how many streams it keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadHistory, type ReadSnapshot } from '../../../server/src/readHistory';
import type { Cassette } from '../../../server/src/runtime/cassette/cassette';

const snapshot = (n: number, replayedFrom: string | null = null): ReadSnapshot => ({
  expectation: { stream: 's', primary_key: [['id']], records: Array.from({ length: n }, (_, i) => ({ id: i })), inferred_schema: null },
  at: new Date(0).toISOString(),
  replayedFrom,
});
const cassette = (stream: string): Cassette => ({
  version: 1,
  recorded_at: new Date(0).toISOString(),
  stream,
  config: {},
  limits: {},
  exchanges: [],
});

test('each read becomes the current one and the current one the previous', () => {
  const h = new ReadHistory();
  assert.deepEqual(h.reads('m', 's'), { current: null, previous: null });
  h.addRead('m', 's', snapshot(1));
  assert.equal(h.reads('m', 's').current?.expectation.records.length, 1);
  assert.equal(h.reads('m', 's').previous, null);
  h.addRead('m', 's', snapshot(2, 'cassettes/s.cassette.yaml'));
  h.addRead('m', 's', snapshot(3));
  const { current, previous } = h.reads('m', 's');
  assert.equal(current?.expectation.records.length, 3);
  assert.equal(previous?.replayedFrom, 'cassettes/s.cassette.yaml');
  assert.deepEqual(h.reads('m', 'other'), { current: null, previous: null }, 'streams are apart');
  assert.deepEqual(h.reads('m2', 's'), { current: null, previous: null }, 'manifests are apart');
});

test('the cassette of the last recorded read is kept beside its expectation; a replay does not replace it', () => {
  const h = new ReadHistory();
  h.setCassette('m', 's', cassette('s'), snapshot(4).expectation);
  h.addRead('m', 's', snapshot(9, 'x.cassette.yaml'));
  assert.equal(h.cassette('m', 's')?.expectation.records.length, 4);
  assert.equal(h.cassette('m', 'other'), null);
});

test('only the most recently read streams are remembered', () => {
  const h = new ReadHistory(3);
  for (const s of ['a', 'b', 'c']) h.addRead('m', s, snapshot(1));
  h.addRead('m', 'a', snapshot(2)); // a is now the most recent
  h.setCassette('m', 'd', cassette('d'), snapshot(1).expectation); // evicts b, the least recent
  assert.equal(h.reads('m', 'b').current, null);
  assert.equal(h.reads('m', 'a').current?.expectation.records.length, 2);
  assert.ok(h.reads('m', 'c').current);
  assert.ok(h.cassette('m', 'd'));
});

// OffsetIncrement through createPaginator / createPaginationStrategy (§7.3, §12.1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPaginator, createPaginationStrategy } from '../../../server/src/runtime';
import { dataPage, DATA_EXTRACTOR } from './scripted';

const paginator = (strategy: object) => ({
  type: 'DefaultPaginator',
  page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
  page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
  pagination_strategy: strategy,
});

test('§12.1: no offset on the first request, then previous offset + records returned, stop on a short page', () => {
  const p = createPaginator(paginator({ type: 'OffsetIncrement', page_size: 2 }), {}, { recordExtractor: DATA_EXTRACTOR });
  const t0 = p.initialToken();
  assert.equal(t0, null);
  assert.deepEqual(p.requestOptions(t0).request_parameters, { limit: 2 });
  const t1 = p.nextPageToken(dataPage(2), 2, { id: 2 }, null);
  assert.deepEqual(t1, { next_page_token: 2 });
  assert.deepEqual(p.requestOptions(t1).request_parameters, { offset: 2, limit: 2 });
  const t2 = p.nextPageToken(dataPage(2, 2), 2, { id: 4 }, 2);
  assert.deepEqual(t2, { next_page_token: 4 });
  assert.equal(p.nextPageToken(dataPage(1, 4), 1, { id: 5 }, 4), null);
});

test('inject_on_first_request sends offset 0 first', () => {
  const p = createPaginator(
    paginator({ type: 'OffsetIncrement', page_size: 2, inject_on_first_request: true }),
    {},
    { recordExtractor: DATA_EXTRACTOR },
  );
  const t0 = p.initialToken();
  assert.equal(t0, 0);
  assert.deepEqual(p.requestOptions(t0).request_parameters, { offset: 0, limit: 2 });
});

test('records are counted raw with the extractor, not after filtering (§13)', () => {
  const s = createPaginationStrategy({ type: 'OffsetIncrement', page_size: 2 }, {}, { recordExtractor: DATA_EXTRACTOR });
  // The retriever saw 0 records after its filter, but the page held 2 raw records.
  assert.equal(s.nextPageToken(dataPage(2), 0, null, null), 2);
});

test('an empty page stops even without page_size; offsets grow by records returned', () => {
  const s = createPaginationStrategy({ type: 'OffsetIncrement' }, {}, { recordExtractor: DATA_EXTRACTOR });
  assert.equal(s.nextPageToken(dataPage(0), 0, null, 10), null);
  assert.equal(s.nextPageToken(dataPage(7), 7, null, 10), 17);
});

test('page_size from config must be an int; digit strings become ints', () => {
  const s = createPaginationStrategy({ type: 'OffsetIncrement', page_size: "{{ config['size'] }}" }, { size: 3 }, {});
  assert.equal(s.pageSize(), 3);
  assert.equal(createPaginationStrategy({ type: 'OffsetIncrement', page_size: '25' }, {}, {}).pageSize(), 25);
  const bad = createPaginationStrategy({ type: 'OffsetIncrement', page_size: "{{ config['size'] }}" }, { size: 'abc' }, {});
  assert.throws(() => bad.pageSize(), /expected type int/);
});

test('a non-integer previous token is an error', () => {
  const s = createPaginationStrategy({ type: 'OffsetIncrement', page_size: 2 }, {}, { recordExtractor: DATA_EXTRACTOR });
  assert.throws(() => s.nextPageToken(dataPage(2), 2, null, 'abc'), /not an integer offset/);
});

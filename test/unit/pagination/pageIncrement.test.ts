// PageIncrement (§7.4, §12.2) and the test-read page cap (§7.10).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPaginator, createPaginationStrategy } from '../../../server/src/runtime';
import { dataPage, DATA_EXTRACTOR } from './scripted';

const component = (strategy: object) => ({
  type: 'DefaultPaginator',
  page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
  page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'per_page' },
  pagination_strategy: strategy,
});

test('§12.2: start_from_page 1 injected: page=1&per_page=100, then 2, until a short page', () => {
  const p = createPaginator(
    component({ type: 'PageIncrement', page_size: 100, start_from_page: 1, inject_on_first_request: true }),
    {},
    { recordExtractor: DATA_EXTRACTOR },
  );
  const t0 = p.initialToken();
  assert.deepEqual(p.requestOptions(t0).request_parameters, { page: 1, per_page: 100 });
  const t1 = p.nextPageToken(dataPage(100), 100, null, 1);
  assert.deepEqual(p.requestOptions(t1).request_parameters, { page: 2, per_page: 100 });
  assert.equal(p.nextPageToken(dataPage(99), 99, null, 2), null);
});

test('without injection the first request has no page and the second sends start_from_page + 1', () => {
  const p = createPaginator(
    component({ type: 'PageIncrement', page_size: 2, start_from_page: 1 }),
    {},
    { recordExtractor: DATA_EXTRACTOR },
  );
  const t0 = p.initialToken();
  assert.deepEqual(p.requestOptions(t0).request_parameters, { per_page: 2 });
  assert.deepEqual(p.nextPageToken(dataPage(2), 2, null, null), { next_page_token: 2 });
});

test('reference quirk: start_from_page -1 gives token 0, which is falsy and stops', () => {
  const p = createPaginator(
    component({ type: 'PageIncrement', page_size: 2, start_from_page: -1 }),
    {},
    { recordExtractor: DATA_EXTRACTOR },
  );
  assert.equal(p.nextPageToken(dataPage(2), 2, null, null), null);
});

test('§7.10: the test-read page cap allows at most max pages per slice and restarts per slice', () => {
  const p = createPaginator(
    component({ type: 'PageIncrement', page_size: 2 }),
    {},
    { recordExtractor: DATA_EXTRACTOR, testReadMaxPages: 3 },
  );
  p.initialToken();
  assert.notEqual(p.nextPageToken(dataPage(2), 2, null, null), null);
  assert.notEqual(p.nextPageToken(dataPage(2), 2, null, 1), null);
  assert.equal(p.nextPageToken(dataPage(2), 2, null, 2), null);
  p.initialToken();
  assert.notEqual(p.nextPageToken(dataPage(2), 2, null, null), null);
  assert.throws(() => createPaginator(component({ type: 'PageIncrement', page_size: 2 }), {}, { testReadMaxPages: 0 }), /at least 1/);
});

test('page size is evaluated once at build time and must be an int', () => {
  assert.equal(createPaginationStrategy({ type: 'PageIncrement', page_size: "{{ config['n'] }}" }, { n: 7 }, {}).pageSize(), 7);
  assert.throws(
    () => createPaginationStrategy({ type: 'PageIncrement', page_size: "{{ config['n'] }}" }, { n: 'x' }, {}),
    /expected type int/,
  );
});

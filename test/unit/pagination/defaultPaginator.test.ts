// DefaultPaginator build rules and injection (§7.1, §7.2, §7.6, §4.5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPaginator, createPaginationStrategy } from '../../../server/src/runtime';
import { dataPage } from './scripted';

test('NoPagination (and an absent paginator) makes exactly one request', () => {
  for (const c of [{ type: 'NoPagination' }, undefined]) {
    const p = createPaginator(c as object, {});
    assert.equal(p.initialToken(), null);
    assert.equal(p.nextPageToken(dataPage(5), 5, null, null), null);
    assert.deepEqual(p.requestOptions(null), {
      path: null,
      request_parameters: {},
      request_headers: {},
      request_body_data: {},
      request_body_json: {},
    });
  }
});

test('CustomPaginationStrategy is a clear config error at build time', () => {
  assert.throws(
    () => createPaginationStrategy({ type: 'CustomPaginationStrategy', class_name: 'source_x.Paginator' }, {}),
    (e: Error & { failureType?: string }) => e.failureType === 'config_error' && /not runnable outside the Python CDK/.test(e.message),
  );
});

test('page_size_option without a strategy page size is rejected', () => {
  assert.throws(
    () =>
      createPaginator(
        {
          type: 'DefaultPaginator',
          page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
          pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}' },
        },
        {},
      ),
    /page_size_option cannot be set if the pagination strategy does not have a page_size\. /,
  );
});

test('page size and page token options writing the same key collide at build time', () => {
  assert.throws(
    () =>
      createPaginator(
        {
          type: 'DefaultPaginator',
          page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'p' },
          page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'p' },
          pagination_strategy: { type: 'PageIncrement', page_size: 5 },
        },
        {},
      ),
    /both write "p"/,
  );
});

test('tokens go where page_token_option says: header (as text), JSON body path, or the path (RequestPath)', () => {
  const header = createPaginator(
    {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Page' },
      pagination_strategy: { type: 'PageIncrement', page_size: 2 },
    },
    {},
  );
  assert.deepEqual(header.requestOptions({ next_page_token: 3 }).request_headers, { 'X-Page': '3' });
  const json = createPaginator(
    {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestOption', inject_into: 'body_json', field_path: ['page', 'number'] },
      pagination_strategy: { type: 'PageIncrement', page_size: 2 },
    },
    {},
  );
  assert.deepEqual(json.requestOptions({ next_page_token: 3 }).request_body_json, { page: { number: 3 } });
  const path = createPaginator(
    {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestPath' },
      pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}' },
    },
    {},
  );
  assert.equal(path.requestOptions(null).path, null);
  assert.equal(path.requestOptions({ next_page_token: 'https://x/items?page=2' }).path, 'https://x/items?page=2');
});

test('a decoder that cannot paginate is rejected with a DefaultPaginator', () => {
  assert.throws(
    () =>
      createPaginator(
        { type: 'DefaultPaginator', pagination_strategy: { type: 'PageIncrement', page_size: 2 } },
        {},
        { decoder: { type: 'JsonlDecoder' } },
      ),
    /not supported for pagination/,
  );
});

// CursorPagination (§7.5): template context, stop condition first, typed tokens, falsy tokens stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPaginator, createPaginationStrategy } from '../../../server/src/runtime';
import type { HttpResponse } from '../../../server/src/runtime/types';

const res = (body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status: 200,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const cursor = (fields: object) => createPaginationStrategy({ type: 'CursorPagination', ...fields }, { c: 'x' });

test('`response` is the first decoded element: first item of a top-level array, {} for an empty body', () => {
  assert.equal(cursor({ cursor_value: '{{ response.id }}' }).nextPageToken(res([{ id: 'a' }, { id: 'b' }]), 2, null, null), 'a');
  assert.equal(cursor({ cursor_value: "{{ response.get('next') }}" }).nextPageToken(res(''), 0, null, null), null);
});

test('last_record and last_page_size are the post-filter values passed in', () => {
  const s = cursor({ cursor_value: "{{ last_record['id'] }}", stop_condition: '{{ last_page_size == 0 }}' });
  assert.equal(s.nextPageToken(res({ data: [1, 2, 3] }), 1, { id: 42 }, null), 42);
  assert.equal(s.nextPageToken(res({ data: [1, 2, 3] }), 0, null, null), null);
});

test('the stop condition is checked first; null is true there (reference quirk), a missing key false', () => {
  const s = cursor({ cursor_value: '{{ response.next }}', stop_condition: '{{ response.done }}' });
  assert.equal(s.nextPageToken(res({ next: 'n', done: null }), 1, null, null), null);
  assert.equal(s.nextPageToken(res({ next: 'n' }), 1, null, null), 'n');
});

test('tokens keep their literal-evaluated type; a falsy token stops the DefaultPaginator', () => {
  assert.equal(cursor({ cursor_value: '{{ response.next }}' }).nextPageToken(res({ next: '12345' }), 1, null, null), 12345);
  const p = createPaginator(
    { type: 'DefaultPaginator', pagination_strategy: { type: 'CursorPagination', cursor_value: '{{ response.next }}' } },
    {},
  );
  assert.equal(p.nextPageToken(res({ next: 0 }), 1, null, null), null);
  assert.equal(p.nextPageToken(res({ next: '' }), 1, null, null), null);
  assert.deepEqual(p.nextPageToken(res({ next: 'abc' }), 1, null, null), { next_page_token: 'abc' });
});

test('headers: raw header values plus the parsed link map; {} without a Link header', () => {
  const s = cursor({ cursor_value: "{{ headers['link']['next']['url'] }}", stop_condition: "{{ 'next' not in headers['link'] }}" });
  assert.equal(s.nextPageToken(res([], { link: '<https://x/items?page=2>; rel="next"' }), 0, null, null), 'https://x/items?page=2');
  assert.equal(s.nextPageToken(res([], {}), 0, null, null), null);
  assert.equal(cursor({ cursor_value: "{{ headers['x-next'] }}" }).nextPageToken(res({}, { 'x-next': 'h1' }), 0, null, null), 'h1');
});

test('variables that do not exist in this context are errors (next_page_token; last_records unless the records are passed)', () => {
  assert.throws(() => cursor({ cursor_value: '{{ last_records[-1].id }}' }).nextPageToken(res({}), 0, null, null), /last_records/);
  assert.throws(() => cursor({ cursor_value: '{{ next_page_token }}' }).nextPageToken(res({}), 0, null, null), /next_page_token/);
});

test('with the page records passed, templates see last_records (Connector Builder documentation)', () => {
  const s = cursor({ cursor_value: "{{ last_records[-1]['id'] }}", stop_condition: '{{ last_records | length == 0 }}' });
  assert.equal(s.nextPageToken(res({}), 2, { id: 2 }, null, [{ id: 1 }, { id: 2 }]), 2);
  assert.equal(s.nextPageToken(res({}), 0, null, null, []), null);
});

test('cursor_value is required; page_size is evaluated once and exposed for page_size_option', () => {
  assert.throws(() => createPaginationStrategy({ type: 'CursorPagination' }, {}), /requires cursor_value/);
  assert.equal(
    createPaginationStrategy(
      { type: 'CursorPagination', cursor_value: '{{ response.n }}', page_size: "{{ config['n'] }}" },
      { n: 30 },
    ).pageSize(),
    30,
  );
});

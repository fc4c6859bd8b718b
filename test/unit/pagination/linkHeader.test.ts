// Link header parsing as CursorPagination exposes it (§7.5, §12.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLinkHeader } from '../../../server/src/runtime/pagination/linkHeader';

test('links are keyed by rel with url and params', () => {
  const parsed = parseLinkHeader(
    '<https://api.example.com/v1/items?page=2>; rel="next", <https://api.example.com/v1/items?page=9>; rel="last"',
  );
  assert.deepEqual(parsed, {
    next: { url: 'https://api.example.com/v1/items?page=2', rel: 'next' },
    last: { url: 'https://api.example.com/v1/items?page=9', rel: 'last' },
  });
});

test('a link without rel is keyed by its URL; commas inside URLs survive; absent header gives {}', () => {
  assert.deepEqual(parseLinkHeader('<https://x/a?ids=1,2>; title="t"'), {
    'https://x/a?ids=1,2': { url: 'https://x/a?ids=1,2', title: 't' },
  });
  assert.deepEqual(parseLinkHeader(undefined), {});
});

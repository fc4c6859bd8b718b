// joinUrl follows Python's urljoin as the reference requester uses it (reference-behaviour.md §4.2),
// including its quirk of dropping empty path segments between the base and a relative path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinUrl } from '../../../server/src/runtime/http/requestOptions';

test('joinUrl: the table of reference-behaviour.md §4.2', () => {
  assert.equal(joinUrl('https://a.com/v1', 'users'), 'https://a.com/v1/users');
  assert.equal(joinUrl('https://a.com/v1', '/users'), 'https://a.com/users');
  assert.equal(joinUrl('https://a.com/v1/', 'https://b.com/x?y=1'), 'https://b.com/x?y=1');
  assert.equal(joinUrl('https://a.com/v1/items', '?page=2'), 'https://a.com/v1/items/?page=2');
  assert.equal(joinUrl('https://a.com/v1', '12345'), 'https://a.com/v1/12345');
  assert.equal(joinUrl('https://a.com/v1', '//cdn.com/x'), 'https://cdn.com/x');
  assert.equal(joinUrl('https://a.com/v1/', ''), 'https://a.com/v1/');
});

test('joinUrl: empty segments in a relative path collapse as urljoin collapses them (source-bitly)', () => {
  assert.equal(joinUrl('https://api-ssl.bitly.com', 'v4/groups//abc/bitlinks'), 'https://api-ssl.bitly.com/v4/groups/abc/bitlinks');
  assert.equal(joinUrl('https://a.com//v1', 'x//y?q=a//b'), 'https://a.com/v1/x/y?q=a//b');
  assert.equal(joinUrl('https://a.com/v1', 'a/../b/./c'), 'https://a.com/v1/b/c');
  assert.equal(joinUrl('https://a.com/v1', 'items/'), 'https://a.com/v1/items/');
});

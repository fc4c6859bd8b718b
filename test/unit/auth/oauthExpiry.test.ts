import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expiryFromResponse, formatExpiry, parseExpiryMoment } from '../../../server/src/runtime/auth/oauthExpiry';

const NOW = Date.parse('2024-05-01T12:00:00Z');

test('absolute expiry moments: Unix seconds, dates, ISO with and without zone (§6.7.5)', () => {
  assert.equal(parseExpiryMoment('1714564800', 'x'), Date.parse('2024-05-01T12:00:00Z'));
  assert.equal(parseExpiryMoment(1714564800, 'x'), Date.parse('2024-05-01T12:00:00Z'));
  assert.equal(parseExpiryMoment('2024-05-01', 'x'), Date.parse('2024-05-01T00:00:00Z'));
  assert.equal(parseExpiryMoment('2024-05-01 12:30:00', 'x'), Date.parse('2024-05-01T12:30:00Z'));
  assert.equal(parseExpiryMoment('2024-05-01T12:30:00.123456+02:00', 'x'), Date.parse('2024-05-01T10:30:00.123Z'));
  assert.equal(parseExpiryMoment('Wed, 01 May 2024 12:00:00 GMT', 'x'), NOW);
  assert.throws(() => parseExpiryMoment('-5', 'x'), { failureType: 'config_error' });
  assert.throws(() => parseExpiryMoment('17145648000', 'x'), /not a valid Unix timestamp/);
  assert.throws(() => parseExpiryMoment('next week', 'The stored token expiry date'), /The stored token expiry date 'next week'/);
});

test('expiry from a token response: seconds, numeric strings, absent values', () => {
  assert.equal(expiryFromResponse(3600, false, NOW, 0), NOW + 3600_000);
  assert.equal(expiryFromResponse('59.9', false, NOW, 0), NOW + 59_000);
  assert.equal(expiryFromResponse(undefined, false, NOW, NOW + 10_000), NOW + 10_000, 'a future expiry is kept');
  assert.equal(expiryFromResponse(null, false, NOW, NOW - 1), NOW + 3600_000, 'else one hour');
  assert.equal(expiryFromResponse('2024-05-02', true, NOW, 0), Date.parse('2024-05-02T00:00:00Z'));
  assert.throws(() => expiryFromResponse('2024-05-02', false, NOW, 0), { failureType: 'system_error' });
});

test('written expiry format: T separator, +00:00, microseconds only when non-zero', () => {
  assert.equal(formatExpiry(NOW), '2024-05-01T12:00:00+00:00');
  assert.equal(formatExpiry(NOW + 5), '2024-05-01T12:00:00.005000+00:00');
});

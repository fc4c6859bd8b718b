// Which config values a manifest uses as credentials (shared/credentialFields.ts): masked in test reads
// although the spec does not flag them. `config.get('k', default)` must keep its chain: source-convertkit's
// `{{ config.get('credentials',{}).get('api_key') or config.get('api_secret') }}` took all of `credentials`
// (its auth_type, its expires_at), so a start date equal to the sample expires_at was masked in the slice
// descriptors where the reference shows it (the whole-corpus run of 2026-11-27).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credentialConfigPaths } from '../../../server/src/runtime/shared/credentialFields';
import { testRead } from '../../../server/src/runtime/testRead/testRead';
import { startLoopback, json } from '../testRead/loopback';

const withToken = (api_token: string) => ({
  streams: [{ type: 'DeclarativeStream', retriever: { requester: { authenticator: { type: 'ApiKeyAuthenticator', api_token } } } }],
});

test('config.get(key, literal default) continues the chain to the key read after it', () => {
  assert.deepEqual(credentialConfigPaths(withToken("{{ config.get('credentials',{}).get('api_key') or config.get('api_secret') }}")), [
    ['credentials', 'api_key'],
    ['api_secret'],
  ]);
  assert.deepEqual(credentialConfigPaths(withToken(`{{ config.get("auth", None)["token"] }}`)), [['auth', 'token']]);
  assert.deepEqual(credentialConfigPaths(withToken("{{ config.get('creds').get('key', '') }}")), [['creds', 'key']]);
  assert.deepEqual(credentialConfigPaths(withToken("{{ config['a'].b.get('c', 0) }}")), [['a', 'b', 'c']]);
});

test('a default that is not a plain literal ends the chain at its key: the whole value is taken (masks more, never less)', () => {
  assert.deepEqual(credentialConfigPaths(withToken("{{ config.get('credentials', config.fallback).get('api_key') }}")), [
    ['credentials'],
    ['fallback'],
  ]);
});

test('a test read masks the credential the template reads, not the other values beside it (slice descriptors keep the start date)', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [{ id: 1, updated: '2024-03-12T00:00:00Z' }] }));
  try {
    const config = {
      start_date: '2024-03-10T00:00:00Z',
      credentials: { auth_type: 'api_key', api_key: 'secret-key-1', expires_at: '2024-03-10T00:00:00Z' },
    };
    const manifest = {
      version: '6.44.0',
      type: 'DeclarativeSource',
      check: { type: 'CheckStream', stream_names: ['items'] },
      streams: [
        {
          type: 'DeclarativeStream',
          name: 'items',
          primary_key: ['id'],
          retriever: {
            type: 'SimpleRetriever',
            requester: {
              type: 'HttpRequester',
              url: `${api.base}/items`,
              authenticator: {
                type: 'ApiKeyAuthenticator',
                header: 'X-Kit-Api-Key',
                api_token: "{{ config.get('credentials',{}).get('api_key') or config.get('api_secret') }}",
              },
            },
            record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
          },
          incremental_sync: {
            type: 'DatetimeBasedCursor',
            cursor_field: 'updated',
            datetime_format: '%Y-%m-%dT%H:%M:%SZ',
            start_datetime: "{{ config['start_date'] }}",
          },
        },
      ],
    };
    const read = await testRead(manifest, config, 'items', {}, { now: () => new Date('2024-03-15T12:00:00Z') });
    assert.deepEqual(read.slices[0].slice_descriptor, { start_time: '2024-03-10T00:00:00Z', end_time: '2024-03-15T12:00:00Z' });
    assert.equal(api.requests[0].headers['x-kit-api-key'], 'secret-key-1');
    assert.ok(!JSON.stringify(read).includes('secret-key-1'), 'the api key itself is still masked');
  } finally {
    await api.close();
  }
});

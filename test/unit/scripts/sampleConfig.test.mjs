// The differential harness's made-up config (scripts/differential/sampleConfig.mjs) must pass the spec, or
// the reference refuses it before any request and the stream cannot be compared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignConfigLists, sampleConfig } from '../../../scripts/differential/sampleConfig.mjs';

test('an optional list stays empty, unless the spec asks for minItems (source-coinmarketcap: "[] should be non-empty")', () => {
  const spec = {
    type: 'object',
    required: ['api_key'],
    properties: {
      api_key: { type: 'string', airbyte_secret: true },
      symbols: { type: 'array', items: { type: 'string' }, minItems: 1, examples: ['AVAX', 'BTC'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };
  const config = sampleConfig(spec, 1234);
  assert.ok(Array.isArray(config.symbols) && config.symbols.length >= 1, JSON.stringify(config.symbols));
  assert.ok(config.symbols.every((s) => typeof s === 'string'));
  assert.deepEqual(config.tags, []);
});

test('an optional list a ListPartitionRouter iterates gets values, so that the stream has partitions (source-finnworlds)', () => {
  const spec = {
    type: 'object',
    required: ['key'],
    properties: {
      key: { type: 'string', airbyte_secret: true },
      tickers: { type: 'array', items: { type: 'string' } },
      unrelated: { type: 'array', items: { type: 'string' } },
    },
  };
  const resolved = {
    spec: { connection_specification: spec },
    streams: [
      {
        type: 'DeclarativeStream',
        retriever: { partition_router: { type: 'ListPartitionRouter', values: '{{ config.tickers }}', cursor_field: 'ticker' } },
      },
    ],
  };
  const config = alignConfigLists(sampleConfig(spec, 1234), resolved, 1234);
  assert.equal(config.tickers.length, 2);
  assert.deepEqual(config.unrelated, []);
});

test('an optional list of objects a template indexes ([0]) gets one made-up object (source-onesignal)', () => {
  const spec = {
    type: 'object',
    properties: {
      applications: {
        type: 'array',
        items: { type: 'object', required: ['app_id'], properties: { app_id: { type: 'string' }, app_api_key: { type: 'string' } } },
      },
    },
  };
  const resolved = {
    spec: { connection_specification: spec },
    streams: [{ type: 'DeclarativeStream', retriever: { requester: { path: "apps/{{ config['applications'][0]['app_id'] }}/outcomes" } } }],
  };
  const config = alignConfigLists(sampleConfig(spec, 1234), resolved, 1234);
  assert.equal(config.applications.length, 1);
  assert.equal(typeof config.applications[0].app_id, 'string');
});

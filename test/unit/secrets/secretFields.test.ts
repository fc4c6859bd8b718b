// One walker decides which config values are secret: the export without secrets leaves none of the
// values the runtime masks, inside arrays, allOf, anyOf, oneOf and maps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretValues, withoutSecrets } from '../../../server/src/runtime/shared/secretFields';
import { SecretMasker } from '../../../server/src/runtime/testRead/masking';

const spec = {
  type: 'object',
  allOf: [{ properties: { base_token: { type: 'string', airbyte_secret: true } } }],
  properties: {
    accounts: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, key: { type: 'string', airbyte_secret: true } } },
    },
    credentials: {
      type: 'object',
      anyOf: [
        {
          properties: {
            auth_type: { const: 'oauth' },
            client_id: { type: 'string' },
            client_secret: { type: 'string', airbyte_secret: true },
          },
        },
        { properties: { auth_type: { const: 'token' }, token: { type: 'string', airbyte_secret: true } } },
      ],
    },
    tokens: { type: 'array', items: { type: 'string', airbyte_secret: true } },
    per_region: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { password: { type: 'string', airbyte_secret: true }, host: { type: 'string' } },
      },
    },
    nested: {
      oneOf: [
        {
          type: 'object',
          properties: { deep: { type: 'array', items: { allOf: [{ properties: { pin: { type: 'string', airbyte_secret: true } } }] } } },
        },
      ],
    },
    start_date: { type: 'string' },
  },
};

const config = {
  base_token: 'base-secret-1',
  accounts: [
    { name: 'a', key: 'acct-secret-1' },
    { name: 'b', key: 'acct-secret-2' },
  ],
  credentials: { auth_type: 'oauth', client_id: 'cid', client_secret: 'client-secret-1' },
  tokens: ['list-secret-1', 'list-secret-2'],
  per_region: { eu: { password: 'eu-secret-1', host: 'eu.example' }, us: { password: 'us-secret-1', host: 'us.example' } },
  nested: { deep: [{ pin: 'pin-secret-1' }, { pin: 'pin-secret-2' }] },
  start_date: '2024-01-01',
};

const ALL = [
  'base-secret-1',
  'acct-secret-1',
  'acct-secret-2',
  'client-secret-1',
  'list-secret-1',
  'list-secret-2',
  'eu-secret-1',
  'us-secret-1',
  'pin-secret-1',
  'pin-secret-2',
];

test('secret values are found inside arrays, allOf, anyOf, oneOf and maps', () => {
  assert.deepEqual([...secretValues(spec, config)].sort(), [...ALL].sort());
});

test('the export without secrets keeps everything else and none of the secrets', () => {
  const exported = withoutSecrets(spec, config);
  const text = JSON.stringify(exported);
  for (const s of ALL) assert.ok(!text.includes(s), `${s} left in the export`);
  assert.deepEqual(exported, {
    accounts: [{ name: 'a' }, { name: 'b' }],
    credentials: { auth_type: 'oauth', client_id: 'cid' },
    per_region: { eu: { host: 'eu.example' }, us: { host: 'us.example' } },
    nested: { deep: [{}, {}] },
    start_date: '2024-01-01',
  });
  assert.equal(config.accounts[0].key, 'acct-secret-1', 'the input is not modified');
});

test('runtime masking and the export agree: what the runtime masks is what the export drops', () => {
  const masker = new SecretMasker();
  masker.addFromSpec({ connection_specification: spec }, config);
  const masked = masker.maskText(JSON.stringify(config));
  for (const s of ALL) assert.ok(!masked.includes(s), `${s} not masked`);
  assert.deepEqual(
    JSON.parse(masker.maskText(JSON.stringify(withoutSecrets(spec, config)))),
    withoutSecrets(spec, config),
    'the export holds nothing the runtime would mask',
  );
});

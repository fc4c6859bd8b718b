// Declared config keys of a connection specification: properties and oneOf options (with the
// option names), open and closed schemas, the finding for an undeclared key, spec paths both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  configKeyPathOf,
  declaredKeys,
  resolveConfigProperty,
  undeclaredConfigKey,
} from '../../../server/src/runtime/rules/templateConfigKeys';

const spec = {
  type: 'object',
  additionalProperties: true,
  properties: {
    api_key: { type: 'string', airbyte_secret: true },
    credentials: {
      type: 'object',
      oneOf: [
        { title: 'OAuth', properties: { auth_type: { const: 'oauth' }, client_id: { type: 'string' } } },
        { properties: { auth_type: { const: 'token' }, token: { type: 'string' } } },
      ],
    },
    options: { type: 'object', additionalProperties: false, properties: { page_size: { type: 'integer' } } },
  },
};

test('declared keys: an open schema still lists its properties; oneOf keys name their options', () => {
  const top = declaredKeys(spec)!;
  assert.equal(top.open, true);
  assert.deepEqual([...top.properties.keys()], ['api_key', 'credentials', 'options']);
  const credentials = declaredKeys(spec.properties.credentials)!;
  assert.deepEqual(
    [...credentials.properties].map(([k, p]) => [k, p.options]),
    [
      ['auth_type', ['OAuth', 'token']],
      ['client_id', ['OAuth']],
      ['token', ['token']],
    ],
  );
  assert.equal(declaredKeys(spec.properties.options)!.open, false);
  assert.equal(declaredKeys({ type: 'string' }), null);
});

test('undeclared keys: did-you-mean is a warning, an open schema gives a note, a closed one a warning', () => {
  assert.equal(undeclaredConfigKey(spec, ['api_key']), null);
  assert.equal(undeclaredConfigKey(spec, ['credentials', 'client_id']), null);
  assert.deepEqual(undeclaredConfigKey(spec, ['api_kye']), {
    severity: 'warning',
    message: "Config key 'api_kye' is not declared in spec.connection_specification. Did you mean 'api_key'?",
  });
  assert.equal(undeclaredConfigKey(spec, ['migrated_flag'])?.severity, 'information');
  assert.equal(undeclaredConfigKey(spec, ['migrated_flag'], true), null, 'config.get tolerates absence');
  assert.equal(undeclaredConfigKey(spec, ['options', 'sort'])?.severity, 'warning');
  assert.match(undeclaredConfigKey(spec, ['options', 'sort'])!.message, /config\.options, which allows no other keys/);
});

test('spec paths: a key path to the property schema and back', () => {
  const clientId = resolveConfigProperty(spec, ['credentials', 'client_id'])!;
  assert.deepEqual(clientId.specPath, ['properties', 'credentials', 'oneOf', 0, 'properties', 'client_id']);
  assert.deepEqual(clientId.options, ['OAuth']);
  assert.deepEqual(configKeyPathOf(clientId.specPath), ['credentials', 'client_id']);
  assert.equal(resolveConfigProperty(spec, ['credentials', 'nope']), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oauthInputsFromConfig } from '../../../server/src/oauthHandler';

const manifest = {
  spec: {
    advanced_auth: {
      auth_flow_type: 'oauth2.0',
      oauth_config_specification: {
        oauth_user_input_from_connector_config_specification: {
          properties: { subdomain: { type: 'string', path_in_connector_config: ['subdomain'] } },
        },
        complete_oauth_server_output_specification: {
          properties: {
            client_id: { type: 'string', path_in_connector_config: ['credentials', 'client_id'] },
            client_secret: { type: 'string', path_in_connector_config: ['credentials', 'client_secret'] },
          },
        },
      },
    },
  },
};

test('client credentials and user inputs are read at their path_in_connector_config', () => {
  const inputs = oauthInputsFromConfig(
    manifest,
    { subdomain: 'acme', credentials: { client_id: 'id', client_secret: 'sec' } },
    'http://127.0.0.1:1/callback',
  );
  assert.deepEqual(inputs, { redirect_uri: 'http://127.0.0.1:1/callback', client_id: 'id', client_secret: 'sec', subdomain: 'acme' });
});

test('without paths, top-level or credentials.* client credentials are used', () => {
  assert.deepEqual(oauthInputsFromConfig({}, { client_id: 'a', credentials: { client_secret: 'b' } }, 'r'), {
    redirect_uri: 'r',
    client_id: 'a',
    client_secret: 'b',
  });
});

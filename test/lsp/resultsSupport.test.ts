// The server requests behind the results view and the OAuth lens, over stdio: where a stream's
// component is written (to link an error to it), declared vs inferred schema, and the
// "Authenticate with OAuth" lens above spec.advanced_auth.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import {
  ComponentLocationRequest,
  SchemaDifferencesRequest,
  type ComponentLocationParams,
  type SchemaDifferencesParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

test('the OAuth consent manifest gets an Authenticate lens; its authenticator is located for error links', async () => {
  const uri = 'file:///fixtures/oauth-consent.yaml';
  const text = readFileSync(join(ROOT, 'demo', 'workspace', 'oauth-consent.yaml'), 'utf8');
  await client.open(uri, text);
  const lenses = await client.codeLenses(uri);
  const auth = lenses.find((l) => l.command?.title === 'Authenticate with OAuth');
  assert.ok(auth, JSON.stringify(lenses.map((l) => l.command?.title)));
  assert.equal(auth.command?.command, 'airbyte.authorizeOAuth');
  assert.equal(text.split('\n')[auth.range.start.line].trim(), 'advanced_auth:');

  const params: ComponentLocationParams = { uri, streamName: 'oauth_consented_items', component: 'authenticator' };
  const loc = await client.connection.sendRequest(ComponentLocationRequest, params);
  assert.ok(loc);
  assert.equal(loc.type, 'OAuthAuthenticator');
  assert.equal(text.split('\n')[loc.range.start.line].trim(), 'authenticator:');
  assert.equal(await client.connection.sendRequest(ComponentLocationRequest, { ...params, component: 'paginator' }), null);
});

test('schema differences of an open manifest: undeclared fields; an inferred number does not contradict a declared integer without fractions', async () => {
  const uri = 'file:///fixtures/offset-increment.yaml';
  await client.open(uri, readFileSync(join(ROOT, 'demo', 'workspace', 'offset-increment.yaml'), 'utf8'));
  const inferred = { type: 'object', properties: { id: { type: ['number', 'null'] }, name: { type: ['string', 'null'] } } };
  const params: SchemaDifferencesParams = { uri, streamName: 'items', inferred };
  const result = await client.connection.sendRequest(SchemaDifferencesRequest, params);
  assert.equal(result.declared, 'inline');
  assert.deepEqual(
    result.differences.map((d) => `${d.kind}:${d.path}`),
    ['missing:name'],
  );
});

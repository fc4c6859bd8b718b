// The resolved-manifest view over the real server: references merged, $parameters propagated,
// default types inserted, shared definitions written out in full.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { LspTestClient } from './lspClient';
import type { ResolvedManifestResult } from '../../server/src/protocol';

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
});
after(async () => {
  await client.stop();
});

const text = [
  'version: 6.44.0',
  'type: DeclarativeSource',
  'check:',
  '  type: CheckStream',
  '  stream_names: [users]',
  'definitions:',
  '  requester:',
  '    type: HttpRequester',
  '    url_base: https://api.example.test',
  '    http_method: GET',
  'streams:',
  '  - type: DeclarativeStream',
  '    $parameters:',
  '      name: users',
  '      path: /users',
  '    retriever:',
  '      type: SimpleRetriever',
  '      requester:',
  '        $ref: "#/definitions/requester"',
  '        http_method: POST',
  '      record_selector:',
  '        extractor:',
  '          field_path: [data]',
  '',
].join('\n');

test('the resolved manifest merges references, copies parameters and inserts default types', async () => {
  const uri = 'file:///w/resolved/manifest.yaml';
  await client.open(uri, text);
  const result = await client.request<ResolvedManifestResult>('airbyte/resolvedManifest', { uri });
  assert.equal(result.problems, 0);
  assert.match(result.text, /^# manifest\.yaml as the Airbyte CDK reads it/);
  const value = parse(result.text);
  const stream = value.streams[0];
  assert.equal(stream.name, 'users');
  const requester = stream.retriever.requester;
  assert.equal(requester.url_base, 'https://api.example.test');
  assert.equal(requester.http_method, 'POST'); // local keys win over the referenced ones (§1.1)
  assert.equal(requester.path, '/users'); // from $parameters (§1.3)
  assert.equal(stream.retriever.record_selector.type, 'RecordSelector'); // default types (§1.2)
  assert.equal(stream.retriever.record_selector.extractor.type, 'DpathExtractor');
  assert.ok(!result.text.includes('*a'), 'no YAML aliases: shared definitions are written out');
});

test('a broken reference is counted and named in the header; an unknown document gets a plain note', async () => {
  const uri = 'file:///w/resolved/broken.yaml';
  await client.open(uri, text.replace('#/definitions/requester', '#/definitions/nothing'));
  const result = await client.request<ResolvedManifestResult>('airbyte/resolvedManifest', { uri });
  assert.equal(result.problems, 1);
  assert.match(result.text, /1 reference problem\(s\) remain/);
  const missing = await client.request<ResolvedManifestResult>('airbyte/resolvedManifest', { uri: 'file:///w/resolved/not-open.yaml' });
  assert.match(missing.text, /not open/);
});

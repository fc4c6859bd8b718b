// Outline, stream list, code lenses and the spec over stdio on the shared fixture. Go to definition
// is tested by the cases in test/fixtures/features/definition/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';
import { positionOf, readFixture } from './fixtureText';
import { GetSpecRequest, ListStreamsRequest, type GetSpecResult, type ListStreamsResult } from '../../server/src/protocol';

const uri = 'file:///w/navigation/manifest.yaml';
const text = readFixture('manifest.yaml');
let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
  await client.open(uri, text);
});
after(async () => {
  await client.stop();
});

test('document symbols: sections, streams by name, definitions expanded', async () => {
  const symbols = await client.symbols(uri);
  assert.deepEqual(
    symbols.map((s) => s.name),
    ['version', 'type', 'check', 'definitions', 'streams', 'spec', 'schemas'],
  );
  const streams = symbols.find((s) => s.name === 'streams')!;
  assert.deepEqual(
    streams.children!.map((s) => s.name),
    ['customers', 'invoices', 'orders'],
  );
  const definitions = symbols.find((s) => s.name === 'definitions')!;
  assert.deepEqual(
    definitions.children!.map((s) => s.name),
    ['base_requester', 'streams', 'keys/with/slash'],
  );
  const nested = definitions.children!.find((s) => s.name === 'streams')!;
  assert.deepEqual(
    nested.children!.map((s) => [s.name, s.detail]),
    [
      ['customers', 'DeclarativeStream'],
      ['invoices', 'DeclarativeStream'],
    ],
  );
  assert.deepEqual(definitions.selectionRange.start, positionOf(text, 'definitions:'));
  const orders = streams.children![2];
  assert.deepEqual(orders.selectionRange.start, positionOf(text, 'type: DeclarativeStream\n    name: orders'));
});

test('airbyte/listStreams names $ref and "#/" streams from their targets, with item ranges', async () => {
  const result = await client.request<ListStreamsResult>(ListStreamsRequest, { uri });
  assert.deepEqual(
    result.streams.map((s) => s.name),
    ['customers', 'invoices', 'orders'],
  );
  assert.deepEqual(result.streams[0].range.start, positionOf(text, '$ref: "#/definitions/streams/customers"'));
  assert.deepEqual(result.streams[1].range.start, positionOf(text, '"#/definitions/streams/invoices"'));
  assert.deepEqual(result.streams[2].range.start, positionOf(text, 'type: DeclarativeStream\n    name: orders'));
  const unknown = await client.request<ListStreamsResult>(ListStreamsRequest, { uri: 'file:///not/open.yaml' });
  assert.deepEqual(unknown, { streams: [] });
});

test('code lenses: run and run-with-limits per stream, testing values above spec', async () => {
  const lenses = await client.codeLenses(uri);
  const runs = lenses.filter((l) => l.command?.command === 'airbyte.runStream');
  assert.deepEqual(
    runs.map((l) => l.command!.arguments),
    [[{ uri, streamName: 'customers' }], [{ uri, streamName: 'invoices' }], [{ uri, streamName: 'orders' }]],
  );
  assert.equal(lenses.filter((l) => l.command?.command === 'airbyte.runStreamWithLimits').length, 3);
  assert.equal(runs[2].range.start.line, positionOf(text, 'type: DeclarativeStream\n    name: orders').line);
  const spec = lenses.filter((l) => l.command?.command === 'airbyte.setTestingValues');
  assert.equal(spec.length, 1);
  assert.deepEqual(spec[0].command!.arguments, [{ uri }]);
  assert.equal(spec[0].range.start.line, positionOf(text, 'spec:').line);
});

test('airbyte/getSpec returns the connection specification and null advanced_auth', async () => {
  const spec = await client.request<GetSpecResult>(GetSpecRequest, { uri });
  assert.deepEqual(spec.connectionSpecification?.required, ['api_key']);
  assert.deepEqual((spec.connectionSpecification!.properties as Record<string, unknown>).api_key, { type: 'string', airbyte_secret: true });
  assert.equal(spec.advancedAuth, null);
});

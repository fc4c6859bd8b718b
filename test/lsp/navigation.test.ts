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
after(async () => { await client.stop(); });

test('definition of a $ref value jumps to the referenced key', async () => {
  const links = await client.definition(uri, positionOf(text, '"#/definitions/base_requester"', 5));
  assert.equal(links.length, 1);
  const keyAt = positionOf(text, 'base_requester:');
  assert.deepEqual(links[0].targetSelectionRange, { start: keyAt, end: { line: keyAt.line, character: keyAt.character + 'base_requester'.length } });
  assert.equal(links[0].targetUri, uri);
  // The origin is the whole reference string, quotes included.
  assert.deepEqual(links[0].originSelectionRange?.start, positionOf(text, '"#/definitions/base_requester"'));
});

test('definition of a plain "#/" string and of a nested path', async () => {
  const [invoices] = await client.definition(uri, positionOf(text, '"#/definitions/streams/invoices"', 3));
  assert.deepEqual(invoices.targetSelectionRange.start, positionOf(text, 'invoices:'));
  const [schema] = await client.definition(uri, positionOf(text, '"#/schemas/customers"', 4));
  assert.deepEqual(schema.targetSelectionRange.start, positionOf(text, 'customers:', 0, 1));
});

test('definition is empty off a reference and for a missing target', async () => {
  assert.deepEqual(await client.definition(uri, positionOf(text, 'url_base'), ), []);
  const broken = text.replace('"#/schemas/customers"', '"#/schemas/nowhere"');
  await client.change(uri, broken, 2);
  assert.deepEqual(await client.definition(uri, positionOf(broken, '"#/schemas/nowhere"', 4)), []);
  await client.change(uri, text, 3);
});

test('document symbols: sections, streams by name, definitions expanded', async () => {
  const symbols = await client.symbols(uri);
  assert.deepEqual(symbols.map((s) => s.name), ['version', 'type', 'check', 'definitions', 'streams', 'spec', 'schemas']);
  const streams = symbols.find((s) => s.name === 'streams')!;
  assert.deepEqual(streams.children!.map((s) => s.name), ['customers', 'invoices', 'orders']);
  const definitions = symbols.find((s) => s.name === 'definitions')!;
  assert.deepEqual(definitions.children!.map((s) => s.name), ['base_requester', 'streams', 'keys/with/slash']);
  const nested = definitions.children!.find((s) => s.name === 'streams')!;
  assert.deepEqual(nested.children!.map((s) => [s.name, s.detail]), [['customers', 'DeclarativeStream'], ['invoices', 'DeclarativeStream']]);
  assert.deepEqual(definitions.selectionRange.start, positionOf(text, 'definitions:'));
  const orders = streams.children![2];
  assert.deepEqual(orders.selectionRange.start, positionOf(text, 'type: DeclarativeStream\n    name: orders'));
});

test('airbyte/listStreams names $ref and "#/" streams from their targets, with item ranges', async () => {
  const result = await client.request<ListStreamsResult>(ListStreamsRequest, { uri });
  assert.deepEqual(result.streams.map((s) => s.name), ['customers', 'invoices', 'orders']);
  assert.deepEqual(result.streams[0].range.start, positionOf(text, '$ref: "#/definitions/streams/customers"'));
  assert.deepEqual(result.streams[1].range.start, positionOf(text, '"#/definitions/streams/invoices"'));
  assert.deepEqual(result.streams[2].range.start, positionOf(text, 'type: DeclarativeStream\n    name: orders'));
  const unknown = await client.request<ListStreamsResult>(ListStreamsRequest, { uri: 'file:///not/open.yaml' });
  assert.deepEqual(unknown, { streams: [] });
});

test('code lenses: run and run-with-limits per stream, testing values above spec', async () => {
  const lenses = await client.codeLenses(uri);
  const runs = lenses.filter((l) => l.command?.command === 'airbyte.runStream');
  assert.deepEqual(runs.map((l) => l.command!.arguments), [[{ uri, streamName: 'customers' }], [{ uri, streamName: 'invoices' }], [{ uri, streamName: 'orders' }]]);
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
  assert.deepEqual((spec.connectionSpecification?.properties as Record<string, unknown>).api_key, { type: 'string', airbyte_secret: true });
  assert.equal(spec.advancedAuth, null);
});

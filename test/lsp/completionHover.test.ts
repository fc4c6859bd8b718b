import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';
import { positionOf, readFixture } from './fixtureText';
import { fieldInfo, getComponent } from '../../server/src/runtime/schema/catalog';

const uri = 'file:///w/completion/manifest.yaml';
const text = readFixture('manifest.yaml');
let client: LspTestClient;
let version = 1;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
  await client.open(uri, text);
});
after(async () => { await client.stop(); });

/** Inserts `insert` after the first occurrence of `anchor` and returns the position at its end. */
async function insertAfter(anchor: string, insert: string) {
  const at = positionOf(text, anchor, anchor.length);
  await client.edit(uri, ++version, [{ range: { start: at, end: at }, text: insert }]);
  const lines = insert.split('\n');
  return { line: at.line + lines.length - 1, character: (lines.length === 1 ? at.character : 0) + lines[lines.length - 1].length };
}

async function restore() {
  await client.change(uri, text, ++version);
}

test('field names of the requester under the cursor: written keys left out, required first', async () => {
  const position = await insertAfter('path: /orders', '\n        ');
  const items = await client.completion(uri, position);
  const labels = items.map((i) => i.label);
  for (const expected of ['http_method', 'authenticator', 'request_parameters']) assert.ok(labels.includes(expected), `${expected} in ${labels.join(',')}`);
  assert.ok(!labels.includes('path'), 'path is already written');
  const requester = getComponent('HttpRequester')!;
  const firstOptional = items.findIndex((i) => !requester.fields[i.label]?.required && i.label !== 'type');
  assert.ok(items.slice(0, firstOptional).every((i) => i.label === 'type' || requester.fields[i.label]?.required));
  const doc = items.find((i) => i.label === 'http_method')!.documentation as { value: string };
  assert.match(doc.value, /\*\*http_method\*\*/);
  await restore();
});

test('`type` values allowed in the authenticator slot', async () => {
  const items = await client.completion(uri, positionOf(text, 'type: BearerAuthenticator', 'type: '.length));
  const labels = items.map((i) => i.label);
  for (const expected of ['BearerAuthenticator', 'ApiKeyAuthenticator', 'OAuthAuthenticator', 'BasicHttpAuthenticator']) assert.ok(labels.includes(expected), expected);
  assert.ok(!labels.includes('DeclarativeStream') && !labels.includes('DefaultPaginator'));
});

test('enum values of http_method', async () => {
  const items = await client.completion(uri, positionOf(text, 'http_method: GET', 'http_method: '.length));
  const labels = items.map((i) => i.label);
  assert.deepEqual(labels.slice().sort(), [...(fieldInfo('HttpRequester', 'http_method')!.enum ?? [])].map(String).sort());
});

test('an empty paginator offers complete paginators with their required fields', async () => {
  const position = await insertAfter('path: /orders', '\n      paginator:\n        ');
  const items = await client.completion(uri, position);
  // One complete paginator per strategy, each with the strategy's own fields.
  for (const strategy of ['PageIncrement', 'OffsetIncrement', 'CursorPagination']) {
    const complete = items.find((i) => i.label === `DefaultPaginator with ${strategy} (complete)`);
    assert.ok(complete, items.map((i) => i.label).join(','));
    assert.match((complete.textEdit as { newText: string }).newText, new RegExp(`^type: DefaultPaginator\\n\\s*pagination_strategy:\\n\\s+type: ${strategy}\\n`));
  }
  await restore();
});

test('reference strings complete to #/definitions paths, one segment at a time', async () => {
  const top = await client.completion(uri, await insertAfter('path: /orders', '\n        authenticator: "#/def'));
  const definitions = top.find((i) => i.label === 'definitions');
  assert.equal((definitions?.textEdit as { newText: string } | undefined)?.newText, '"#/definitions"');
  await restore();
  const children = (await client.completion(uri, await insertAfter('path: /orders', '\n        authenticator: "#/definitions/'))).map((i) => i.label);
  assert.ok(children.includes('base_requester') && children.includes('streams'), children.join(','));
  await restore();
  const streams = (await client.completion(uri, await insertAfter('path: /orders', '\n        authenticator: "#/definitions/streams/'))).map((i) => i.label);
  assert.ok(streams.includes('customers') && !streams.includes('base_requester'), streams.join(','));
  await restore();
});

test('hover on a key shows the catalog description and Builder label', async () => {
  const hover = await client.hover(uri, positionOf(text, 'url_base', 2));
  const value = (hover!.contents as { value: string }).value;
  const info = fieldInfo('HttpRequester', 'url_base')!;
  assert.ok(value.includes(info.description));
  if (info.label) assert.ok(value.includes(info.label));
  assert.deepEqual(hover!.range!.start, positionOf(text, 'url_base'));
});

test('hover on a type value describes the component; on a reference shows the target', async () => {
  const type = await client.hover(uri, positionOf(text, 'BearerAuthenticator', 3));
  assert.match((type!.contents as { value: string }).value, /^\*\*BearerAuthenticator\*\*/);
  const ref = await client.hover(uri, positionOf(text, '"#/definitions/streams/invoices"', 5));
  const value = (ref!.contents as { value: string }).value;
  assert.match(value, /Reference to `#\/definitions\/streams\/invoices`/);
  assert.match(value, /invoices:\n  type: DeclarativeStream/);
});

test('a key inside a definition used via $ref gets that slot\'s documentation', async () => {
  const hover = await client.hover(uri, positionOf(text, 'http_method: GET', 3));
  assert.match((hover!.contents as { value: string }).value, /Field of `HttpRequester`/);
});

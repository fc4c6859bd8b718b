// "New Connector from OpenAPI…" asks the real server over stdio (docs/scaffold.md): the operations
// of a document for the picker, then the manifest for the picked ones; a bad document is refused
// with file:line:column, never an exception.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import {
  OpenApiOperationsRequest,
  ScaffoldOpenApiRequest,
  type OpenApiOperationsParams,
  type ScaffoldOpenApiParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
const FILE = join(ROOT, 'test/fixtures/openapi/shop-3.0.yaml');
let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

const operations = (p: OpenApiOperationsParams) => client.connection.sendRequest(OpenApiOperationsRequest, p);
const scaffold = (p: ScaffoldOpenApiParams) => client.connection.sendRequest(ScaffoldOpenApiRequest, p);

test('the picker gets every operation with its tags; the GETs that return lists are marked', async () => {
  const result = await operations({ text: readFileSync(FILE, 'utf8'), fileName: FILE });
  assert.ok(result.ok);
  assert.equal(result.title, 'Shop API');
  assert.deepEqual(
    result.operations.map((o) => [o.key, o.tags.join(','), o.returnsList]),
    [
      ['GET /users', 'users', true],
      ['GET /users/{user_id}', 'users', false],
      ['GET /users/{user_id}/posts', 'posts', true],
      ['GET /events', 'events', true],
      ['GET /orders', 'orders', true],
      ['POST /orders', 'orders', false],
    ],
  );
});

test("the picked operations become the manifest's streams", async () => {
  const result = await scaffold({
    text: readFileSync(FILE, 'utf8'),
    fileName: FILE,
    operations: ['GET /users', 'GET /users/{user_id}/posts'],
  });
  assert.ok(result.ok);
  assert.deepEqual(result.streams, ['users', 'posts']);
  assert.deepEqual(result.inputs, ['region', 'api_key']);
  assert.match(result.manifest, /# path parameter \{user_id\} takes the "id" of each users record \(GET \/users is picked too\)/);
});

test('a document that is not OpenAPI is refused with where and why', async () => {
  const result = await operations({ text: 'name: x\n', fileName: '/tmp/notes.yaml' });
  assert.deepEqual(result, {
    ok: false,
    where: '/tmp/notes.yaml:1:1',
    message:
      "not an OpenAPI 3.0/3.1 or Swagger 2.0 document: it has no `openapi` or `swagger` key. Give the API's OpenAPI (or Swagger) description.",
  });
});

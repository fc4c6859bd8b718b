import { test } from 'node:test';
import assert from 'node:assert/strict';
import { provideCompletion } from '../../../server/src/features/completion';
import { docAt, fixtureIndex } from './fixtureCatalog';

const ctx = { index: fixtureIndex };
function complete(marked: string) {
  const { doc, position } = docAt(marked);
  return provideCompletion(ctx, doc, { textDocument: { uri: doc.uri }, position })?.items ?? [];
}

const stream = 'version: 1.0.0\nstreams:\n  - name: a\n    retriever:\n      requester:\n        ';

test('field names of the component in a default-typed slot, required first, present ones left out', () => {
  const items = complete(stream + 'url_base: x\n        |\n');
  assert.deepEqual(
    items.map((i) => i.label),
    ['type', 'path', 'http_method', 'authenticator'],
  );
  assert.ok(items.every((i) => !i.label.startsWith('url_base')));
  const required = complete(stream + '|\n').map((i) => i.label);
  assert.deepEqual(required.slice(0, 2), ['type', 'url_base']);
});

test('enum values of a field, the default marked', () => {
  const items = complete(stream + 'http_method: |\n');
  assert.deepEqual(
    items.map((i) => [i.label, i.detail]),
    [
      ['GET', 'default'],
      ['POST', undefined],
    ],
  );
});

test('`type` values are those the slot allows', () => {
  const items = complete(stream + 'authenticator:\n          type: |\n');
  assert.deepEqual(
    items.map((i) => i.label),
    ['BearerAuthenticator', 'ApiKeyAuthenticator'],
  );
  const paginators = complete('streams:\n  - retriever:\n      paginator:\n        type: D|\n');
  assert.deepEqual(
    paginators.map((i) => i.label),
    ['DefaultPaginator', 'NoPagination'],
  );
});

test('an empty component slot offers each allowed component whole, with its required fields', () => {
  const items = complete(stream + 'authenticator:\n          |\n');
  const apiKey = items.find((i) => i.label === 'ApiKeyAuthenticator (complete)')!;
  assert.ok(apiKey, JSON.stringify(items.map((i) => i.label)));
  const edit = apiKey.textEdit as { newText: string };
  // Lines 2+ relative to the line's indentation, which VS Code adds to each (adjustIndentation);
  // the one-choice RequestOption is written whole.
  assert.equal(
    edit.newText,
    'type: ApiKeyAuthenticator\napi_token: $1\ninject_into:\n  type: RequestOption\n  inject_into: ${2|request_parameter,header|}\n  field_name: $3',
  );
});

test('a definition used through $ref gets the type of the slot that references it', () => {
  const text =
    'definitions:\n  req:\n    url_base: x\n    |\nstreams:\n  - retriever:\n      requester:\n        $ref: "#/definitions/req"\n';
  assert.deepEqual(
    complete(text).map((i) => i.label),
    ['type', 'path', 'http_method', 'authenticator'],
  );
});

test('reference strings complete one path segment at a time', () => {
  const text = (typed: string) =>
    `definitions:\n  req:\n    type: HttpRequester\n  parts:\n    auth:\n      type: BearerAuthenticator\nstreams:\n  - retriever:\n      requester:\n        $ref: "${typed}|"\n`;
  assert.deepEqual(
    complete(text('#/')).map((i) => i.label),
    ['definitions', 'streams'],
  );
  const definitions = complete(text('#/definitions/'));
  assert.deepEqual(
    definitions.map((i) => i.label),
    ['req', 'parts'],
  );
  assert.equal((definitions[0].textEdit as { newText: string }).newText, '"#/definitions/req');
  const parts = complete(text('#/definitions/parts/'));
  assert.deepEqual(
    parts.map((i) => [i.label, i.detail]),
    [['auth', 'BearerAuthenticator · #/definitions/parts/auth']],
  );
  // A partly typed segment still lists the parent's children (the client filters them).
  assert.deepEqual(
    complete(text('#/definitions/pa')).map((i) => i.label),
    ['req', 'parts'],
  );
});

test('no YAML items inside a template: the template feature answers with template variables', () => {
  const labels = complete(stream + 'url_base: "{{ conf| }}"\n').map((i) => i.label);
  assert.ok(labels.includes('config'));
  assert.ok(!labels.includes('type') && !labels.includes('url_base'));
});

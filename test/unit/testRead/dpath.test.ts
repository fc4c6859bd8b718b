// The dpath operations dynamic streams rely on: set only writes existing paths (globs included),
// new creates them, ** spans any number of levels (source-linkedin-ads maps ["**", "name"]).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dpathGet, dpathNew, dpathSet } from '../../../server/src/runtime/testRead/dpath';

test('set writes every existing match and counts them; a missing path is left alone', () => {
  const doc = { name: 'x', retriever: { requester: { path: '' } }, list: [{ name: 'a' }, { name: 'b' }] };
  assert.equal(dpathSet(doc, ['retriever', 'requester', 'path'], 'p'), 1);
  assert.equal(doc.retriever.requester.path, 'p');
  assert.equal(dpathSet(doc, ['retriever', 'requester', 'url'], 'u'), 0);
  assert.equal('url' in doc.retriever.requester, false);
  assert.equal(dpathSet(doc, ['list', '*', 'name'], 'z'), 2);
  assert.deepEqual(doc.list, [{ name: 'z' }, { name: 'z' }]);
  assert.equal(dpathSet(doc, ['list', '1', 'name'], 'one'), 1);
  assert.equal(doc.list[1].name, 'one');
});

test('** matches zero or more levels', () => {
  const doc = { name: 'top', schema_loader: { retriever: { name: 'inner' } }, other: 1 };
  assert.equal(dpathSet(doc, ['**', 'name'], 'n'), 2);
  assert.deepEqual(doc, { name: 'n', schema_loader: { retriever: { name: 'n' } }, other: 1 });
});

test('new creates missing levels as mappings; get reads with a fallback', () => {
  const doc: Record<string, unknown> = { $parameters: {} };
  dpathNew(doc, ['$parameters', 'report', 'kind'], 'daily');
  assert.deepEqual(doc, { $parameters: { report: { kind: 'daily' } } });
  assert.equal(dpathGet(doc, ['$parameters', 'report', 'kind'], null), 'daily');
  assert.deepEqual(dpathGet(doc, ['nope'], []), []);
  // A path through a prototype is refused (docs/security.md, "Prototype-safe data"), before any write.
  assert.throws(() => dpathNew(doc, ['__proto__', 'polluted'], 1), /field_path: the path segment "__proto__" is not allowed/);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

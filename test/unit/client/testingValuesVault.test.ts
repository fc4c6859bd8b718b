// Testing values are bound to the manifest's absolute URI: two repositories with `manifest.yaml` at
// their root never share them; values of another manifest and of the old workspace-relative key are
// only offered, and copied when the user picks them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestingValuesVault, legacyTestingValuesKey, testingValuesKey, type SecretStore } from '../../../client/src/testingValuesVault';

function memoryStore(): SecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (k) => data.get(k),
    store: async (k, v) => {
      data.set(k, v);
    },
    delete: async (k) => {
      data.delete(k);
    },
  };
}

const WORK = 'file:///home/me/work/connector/manifest.yaml';
const CLONED = 'file:///home/me/clones/untrusted/manifest.yaml';

test('values stored for one repository are not returned for another with the same relative path', async () => {
  const vault = new TestingValuesVault(memoryStore());
  await vault.set(WORK, { api_key: 'production-key' });
  assert.deepEqual(await vault.get(WORK), { api_key: 'production-key' });
  assert.equal(await vault.get(CLONED), undefined, 'the cloned manifest gets nothing silently');
  assert.notEqual(testingValuesKey(WORK), testingValuesKey(CLONED));
});

test('values of another manifest are offered, and copied only on request', async () => {
  const vault = new TestingValuesVault(memoryStore());
  await vault.set(WORK, { api_key: 'production-key' });
  assert.deepEqual(await vault.candidates(CLONED, 'manifest.yaml'), [{ kind: 'manifest', uri: WORK }]);
  assert.deepEqual(await vault.candidates(WORK, 'manifest.yaml'), [], 'a manifest is not offered its own values');
  assert.equal(await vault.copyFrom({ kind: 'manifest', uri: WORK }, CLONED), true);
  assert.deepEqual(await vault.get(CLONED), { api_key: 'production-key' });
});

test('an old workspace-relative key is never applied to an absolute manifest; it is offered instead', async () => {
  const store = memoryStore();
  store.data.set(legacyTestingValuesKey('manifest.yaml'), JSON.stringify({ api_key: 'old-key' }));
  const vault = new TestingValuesVault(store);
  assert.equal(await vault.get(CLONED), undefined);
  assert.deepEqual(await vault.candidates(CLONED, 'manifest.yaml'), [{ kind: 'legacy', relativePath: 'manifest.yaml' }]);
  assert.deepEqual(await vault.candidates(CLONED, 'other/manifest.yaml'), []);
  assert.equal(await vault.copyFrom({ kind: 'legacy', relativePath: 'manifest.yaml' }, CLONED), true);
  assert.deepEqual(await vault.get(CLONED), { api_key: 'old-key' });
});

test('clearing removes the values and the offer; the index holds no values', async () => {
  const store = memoryStore();
  const vault = new TestingValuesVault(store);
  await vault.set(WORK, { api_key: 'production-key' });
  const index = [...store.data.entries()].find(([k]) => k.endsWith('.index'));
  assert.ok(index && !index[1].includes('production-key'));
  await vault.clear(WORK);
  assert.equal(await vault.get(WORK), undefined);
  assert.deepEqual(await vault.candidates(CLONED, undefined), []);
});

// The language server analyses each version of an open manifest incrementally (the model reuses the
// unchanged blocks, resolution the unchanged subtrees: runtime/manifest/resolutionMemo.ts). After
// every random edit — characters typed or deleted in keys and values, lines and list items removed or
// copied, definitions and references edited, the YAML broken and fixed — its diagnostics and resolved
// manifest must equal, byte for byte, those of a fresh open of the same text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sampleManifest } from '../../../server/src/warmUpSamples';
import { generateManifest } from '../../../bench/lspManifest.mjs';
import { checkRandomEdits } from './randomEdits';

const repo = join(__dirname, '..', '..', '..');

/** Every manifest checked into the repository (fixtures and demo workspace). */
function repositoryManifests(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.yaml')) {
        const text = readFileSync(full, 'utf8');
        if (text.includes('DeclarativeSource')) out.push({ name: full.slice(repo.length + 1), text });
      }
    }
  };
  walk(join(repo, 'test', 'fixtures'));
  walk(join(repo, 'demo', 'workspace'));
  return out;
}

test('after random edits of every repository manifest, incremental analysis equals a fresh one', () => {
  const manifests = repositoryManifests();
  assert.ok(manifests.length >= 40, `found ${manifests.length} manifests`);
  manifests.forEach(({ name, text }, i) => {
    assert.equal(checkRandomEdits(text, 1000 + i, 12), undefined, name);
  });
});

test('the same on the varied sample manifest and a generated 3,000-line one (split into blocks)', () => {
  for (let seed = 1; seed <= 4; seed++) assert.equal(checkRandomEdits(sampleManifest(), seed, 25), undefined, 'sample');
  const large = generateManifest(3000);
  for (let seed = 1; seed <= 2; seed++) assert.equal(checkRandomEdits(large, seed, 20), undefined, 'generated');
});

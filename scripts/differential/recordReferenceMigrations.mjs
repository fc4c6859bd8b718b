// Records the reference CDK's own manifest migrations (referenceMigrations.py, run with the reference's
// Python) on a fixed set of corpus manifests into test/fixtures/reference-migrations.json, with each
// manifest's text, so that test/unit/server/cdkMigrations.test.ts compares the editor's "Apply all CDK
// migrations" with the reference without Python or the corpus.
//
// Usage: node scripts/differential/recordReferenceMigrations.mjs [--refcdk DIR] [--corpus DIR]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const refcdk = opt('--refcdk', process.env.REFCDK_DIR ?? '../refcdk');
const corpus = opt('--corpus', '../shared/corpus/manifests');
// Small manifests with request_body_json / request_body_data, then some with url_base + path only.
const MANIFESTS = [
  'source-dremio',
  'source-commercetools',
  'source-dockerhub',
  'source-slack',
  'source-senseforce',
  'source-plaid',
  'source-dixa',
  'source-ebay-finance',
  'source-aws-cloudtrail',
  'source-iterable',
  'source-simplesat',
  'source-airbyte',
  'source-public-apis',
  'source-zapier-supported-storage',
  'source-rss',
  'source-n8n',
  'source-harness',
  'source-xkcd',
  'source-avni',
  'source-us-census',
];
const files = MANIFESTS.map((m) => join(corpus, `${m}.yaml`));
const out = execFileSync(join(refcdk, 'venv/bin/python'), ['-W', 'ignore', 'scripts/differential/referenceMigrations.py', ...files], {
  encoding: 'utf8',
  maxBuffer: 1 << 26,
});
const reference = JSON.parse(out);
const fixture = {
  about:
    "The reference CDK's manifest migrations (airbyte_cdk/manifest_migrations at the pinned commit) on corpus manifests: per stream, the requester fields they touch, before and after. Recorded by scripts/differential/recordReferenceMigrations.mjs.",
  manifests: MANIFESTS.map((m) => ({ name: m, text: readFileSync(join(corpus, `${m}.yaml`), 'utf8'), reference: reference[`${m}.yaml`] })),
};
writeFileSync('test/fixtures/reference-migrations.json', JSON.stringify(fixture, null, 1) + '\n');
console.log(`recorded ${MANIFESTS.length} manifests`);

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { resolveManifest } from '../../../server/src/runtime/manifest/resolve';
import { buildManifestSchema } from '../../../server/src/runtime/schema/jsonSchema';
import { fixture } from './helpers';

const committed = join(__dirname, '..', '..', '..', 'schemas', 'manifest.schema.json');

test('schemas/manifest.schema.json is up to date with the catalog (run `npm run schema`)', () => {
  assert.deepEqual(JSON.parse(readFileSync(committed, 'utf8')), buildManifestSchema());
});

test('the published schema compiles as draft-07 and accepts the resolved fixture', () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(buildManifestSchema());
  const parsed = parseManifest(fixture('complete.yaml'));
  const resolved = resolveManifest(parsed.value, { parsed });
  assert.equal(validate(resolved.value), true, JSON.stringify(validate.errors?.slice(0, 3)));
});

test('the published schema rejects a resolved manifest with a misspelt type', () => {
  const validate = new Ajv({ strict: false }).compile(buildManifestSchema());
  const text = fixture('complete.yaml').replace('type: OffsetIncrement', 'type: OffsetIncrements');
  const resolved = resolveManifest(parseManifest(text).value);
  assert.equal(validate(resolved.value), false);
});

test('descriptions and Builder labels of the catalog reach the schema', () => {
  const defs = buildManifestSchema().definitions as Record<
    string,
    { properties: Record<string, { title?: string; description?: string }> }
  >;
  assert.equal(defs.OffsetIncrement.properties.inject_on_first_request.title, 'Inject Offset on First Request');
  assert.ok(defs.HttpRequester.properties.url_base.description!.length > 10);
});

// Writes schemas/manifest.schema.json from the component catalog. Run with `npm run schema`;
// test/unit/schema/jsonSchema.test.ts fails when the committed file is out of date.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildManifestSchema } from '../server/src/runtime/schema/jsonSchema';

const target = join(__dirname, '..', 'schemas', 'manifest.schema.json');
writeFileSync(target, JSON.stringify(buildManifestSchema(), null, 2) + '\n');
process.stdout.write(`wrote ${target}\n`);

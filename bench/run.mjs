// Runs every benchmark in bench/ (npm run bench).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let failed = false;
for (const name of readdirSync(here).sort()) {
  if (name === 'run.mjs' || !/^[a-zA-Z]+\.mjs$/.test(name) || /Client|Manifest/.test(name)) continue;
  console.log(`\n== bench/${name}`);
  const r = spawnSync(process.execPath, [join(here, name), ...process.argv.slice(2)], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);

// The language server is started with the Node flags the bench also uses (client/serverNodeFlags.json),
// before any caller's flags, and gets its sealing key through the pipe rather than its environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS, spawnLanguageServer } from '../../../client/src/serverProcess';

test('the server process runs with SERVER_NODE_FLAGS, then the caller’s flags; the key comes through fd 3', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-process-'));
  const module = join(dir, 'probe.js');
  // Stands in for out/server.js: reports its Node flags, arguments and the key read from its pipe.
  writeFileSync(
    module,
    "const fs = require('fs'); const key = fs.readFileSync(Number(process.env.AIRBYTE_MANIFEST_STUDIO_SEAL_KEY_FD), 'utf8');" +
      'process.stdout.write(JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2), key, envHasKey: Object.values(process.env).includes(key) }));',
  );
  const child = spawnLanguageServer(module, 'k-123', ['--enable-source-maps']);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
  const seen = JSON.parse(out);
  assert.deepEqual(SERVER_NODE_FLAGS, JSON.parse(readFileSync(join(__dirname, '../../../client/serverNodeFlags.json'), 'utf8')));
  assert.ok(SERVER_NODE_FLAGS.includes('--initial-old-space-size=128'));
  assert.deepEqual(seen.execArgv, [...SERVER_NODE_FLAGS, '--enable-source-maps']);
  assert.equal(seen.argv[0], '--stdio');
  assert.equal(seen.key, 'k-123');
  assert.equal(seen.envHasKey, false);
});

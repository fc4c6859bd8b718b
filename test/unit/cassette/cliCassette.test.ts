// The cassette commands of the built CLI against the demo API: read --record / --replay (offline,
// a clear failure naming an unknown request) and `test` (records by primary key and the inferred
// schema against a saved expectation, --update, exit codes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { startDemoApi } from '../../../demo/api/server';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-cassette-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Records a stream with a demo API that is closed afterwards: later replays cannot reach any network. */
async function record(manifest: string, stream: string, file: string, extra: string[] = []): Promise<{ cfg: string; json: string }> {
  const api = await startDemoApi();
  try {
    const cfg = join(dir, `config-${stream}.json`);
    writeFileSync(
      cfg,
      JSON.stringify({ ...JSON.parse(readFileSync(join(ROOT, 'demo/workspace/config.json'), 'utf8')), url_base: api.url }),
    );
    const r = await run(['read', manifest, '--stream', stream, '--config', cfg, '--format', 'json', '--record', file, ...extra]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /recorded \d+ HTTP exchanges? to /);
    return { cfg, json: r.stdout };
  } finally {
    await api.close();
  }
}

test('read --record then --replay offline gives the same StreamRead; the cassette is masked YAML', async () => {
  const file = join(dir, 'key_in_query.cassette.yaml');
  const { cfg, json } = await record('demo/workspace/api-key-auth.yaml', 'key_in_query', file);
  const text = readFileSync(file, 'utf8');
  assert.doesNotMatch(text, /demo-api-key|demo-pass|demo-secret/);
  assert.match(text, /api_key=\*\*\*\*/);
  assert.match(text, /^exchanges:\n {2}- request:\n {6}method: GET\n/m);
  const replay = await run([
    'read',
    'demo/workspace/api-key-auth.yaml',
    '--stream',
    'key_in_query',
    '--config',
    cfg,
    '--format',
    'json',
    '--replay',
    file,
  ]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.deepEqual(JSON.parse(replay.stdout), JSON.parse(json));
  // Without --config the cassette's own (masked) config is used.
  const own = await run(['read', 'demo/workspace/api-key-auth.yaml', '--stream', 'key_in_query', '--replay', file]);
  assert.equal(own.code, 0, own.stderr);
  assert.match(own.stdout, /^Stream 'key_in_query': \d+ records/);
});

test('a request the cassette does not hold fails the replay with exit 1, naming it', async () => {
  const file = join(dir, 'items.cassette.yaml');
  await record('demo/workspace/offset-increment.yaml', 'items', file, ['--max-records', '30']);
  // More records than recorded: the read asks for a page the cassette never saw.
  const r = await run([
    'read',
    'demo/workspace/offset-increment.yaml',
    '--stream',
    'items',
    '--replay',
    file,
    '--max-records',
    '100',
    '--max-pages',
    '5',
  ]);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /replay of .*items\.cassette\.yaml: no recorded response for GET http:\/\/127\.0\.0\.1:\d+\/offset\/items\?offset=50&limit=50 \(the cassette holds no exchange for it\)/,
  );
  const broken = join(dir, 'broken.cassette.yaml');
  writeFileSync(broken, 'version: 1\nexchanges: [\n');
  const bad = await run(['read', 'demo/workspace/offset-increment.yaml', '--stream', 'items', '--replay', broken]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /broken\.cassette\.yaml:\d+: not a valid cassette/);
  assert.equal(
    (await run(['read', 'demo/workspace/offset-increment.yaml', '--stream', 'items', '--record', file, '--replay', file])).code,
    2,
  );
});

test('connector-manifest test: expectation written with --update, then a changed API answer is a diff and exit 1', async () => {
  const cassettes = mkdtempSync(join(dir, 'cassettes-'));
  const file = join(cassettes, 'cursor_in_body.cassette.yaml');
  await record('demo/workspace/cursor-pagination.yaml', 'cursor_in_body', file, ['--max-records', '40']);
  const manifest = 'demo/workspace/cursor-pagination.yaml';

  const missing = await run(['test', manifest, '--cassettes', cassettes]);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, /stream 'cursor_in_body': no expectation .*; run with --update/);
  assert.match(missing.stdout, /stream 'link_header': skipped, no cassette/);

  const update = await run(['test', manifest, '--cassettes', cassettes, '--update']);
  assert.equal(update.code, 0, update.stdout + update.stderr);
  const expectation = JSON.parse(readFileSync(join(cassettes, 'cursor_in_body.expected.json'), 'utf8'));
  assert.equal(expectation.records.length, 40);
  assert.deepEqual(expectation.primary_key, [['id']]);

  const same = await run(['test', manifest, '--cassettes', cassettes]);
  assert.equal(same.code, 0, same.stdout);
  assert.match(same.stdout, /stream 'cursor_in_body': ok, 40 records as expected\n[\s\S]*1 of 1 stream passed/);

  // The API now answers differently: record 2 renamed, record 3 gone, a new record and a new field.
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const data = doc.getIn(['exchanges', 0, 'response', 'body', 'json', 'records']) as { items: { toJSON(): Record<string, unknown> }[] };
  const records = data.items.map((n) => n.toJSON());
  records[1].name = 'Renamed';
  records[1].rating = 4;
  records.splice(2, 1, { ...records[2], id: 999 });
  doc.setIn(['exchanges', 0, 'response', 'body', 'json', 'records'], records);
  writeFileSync(file, doc.toString());

  const changed = await run(['test', manifest, '--cassettes', cassettes]);
  assert.equal(changed.code, 1, changed.stdout);
  assert.match(changed.stdout, /stream 'cursor_in_body': 1 added, 1 removed, 1 changed record; 1 schema change/);
  assert.match(changed.stdout, /\+ record id=999/);
  assert.match(changed.stdout, /- record id=3/);
  assert.match(changed.stdout, /~ record id=2\n {6}name: "Item 2" → "Renamed"\n {6}rating: \(absent\) → 4/);
  assert.match(changed.stdout, /schema \+ rating: (integer|number)/);
  assert.match(changed.stdout, /0 of 1 stream passed/);

  assert.equal((await run(['test', manifest, '--cassettes', cassettes, '--update'])).code, 0);
  assert.equal((await run(['test', manifest, '--cassettes', cassettes])).code, 0);
  assert.equal((await run(['test', manifest])).code, 2);
  assert.equal((await run(['test', manifest, '--cassettes', join(dir, 'nowhere')])).code, 2);
});

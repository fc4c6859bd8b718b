// Smoke test of the built CLI (`out/cli.js read`) against the demo API: json and pretty output,
// exit codes 0/1/2, and no secret on stdout or stderr.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { readCommand } from '../../../server/src/runtime/cli/readCommand';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
let api: DemoApi;
let dir: string;
before(async () => {
  api = await startDemoApi();
  dir = mkdtempSync(join(tmpdir(), 'cli-read-'));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function config(values: object): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(values));
  return file;
}

test('json output is a StreamRead; the secret api key is masked', async () => {
  const cfg = config({ url_base: api.url, api_key: 'demo-api-key' });
  const r = await run(['read', 'demo/workspace/api-key-auth.yaml', '--stream', 'key_in_header', '--config', cfg, '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.slices[0].pages[0].response.status, 200);
  assert.equal(out.slices[0].pages[0].request.headers['X-API-Key'], '****');
  assert.doesNotMatch(r.stdout + r.stderr, /demo-api-key/);
});

test('pretty output summarises pages and records', async () => {
  const r = await run([
    'read',
    'demo/workspace/offset-increment.yaml',
    '--stream',
    'items',
    '--config',
    config({ url_base: api.url, page_size: 50 }),
    '--max-records',
    '60',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Stream 'items': 60 records in 2 pages over 1 slice \(test-read limit reached\)/);
  assert.match(r.stdout, /page 2: GET http:\/\/127\.0\.0\.1:\d+\/offset\/items\?offset=50&limit=50 → HTTP 200, 10 records/);
});

test('exit 2 for an unknown stream, bad arguments or an unreadable config (in process)', async () => {
  const cfg = config({ url_base: api.url });
  const manifest = join(ROOT, 'demo/workspace/offset-increment.yaml');
  const sink = () => Object.assign(new PassThrough(), { text: '' });
  const code = async (args: string[]) => {
    const err = sink();
    err.on('data', (d) => (err.text += String(d)));
    const c = await readCommand(args, sink(), err);
    return { c, text: err.text };
  };
  const unknown = await code([manifest, '--stream', 'nope', '--config', cfg]);
  assert.equal(unknown.c, 2);
  assert.match(unknown.text, /no stream named 'nope'.*streams: items/);
  assert.equal((await code([manifest, '--stream', 'items'])).c, 2);
  assert.equal((await code([manifest, '--stream', 'items', '--config', join(dir, 'missing.json')])).c, 2);
  assert.equal((await code([manifest, '--stream', 'items', '--config', cfg, '--max-pages', '0'])).c, 2);
  assert.equal((await code([manifest, '--stream', 'items', '--config', cfg, '--format', 'xml'])).c, 2);
});

test('exit 1 when the read fails; what was read and the error are printed', async () => {
  const failing = await run([
    'read',
    'demo/workspace/offset-increment.yaml',
    '--stream',
    'items',
    '--config',
    config({ url_base: `${api.url}/nowhere`, page_size: 10 }),
  ]);
  assert.equal(failing.code, 1);
  assert.match(failing.stdout, /ERROR: HTTP Status Code: 404. Error: Not found. The requested resource was not found on the server./);
});

test('pretty output never writes API-controlled escape sequences to the terminal raw', async () => {
  // An API whose record keys and error body carry terminal escapes (clear screen, window title, hyperlink).
  const { createServer } = await import('node:http');
  const hostile = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url?.includes('fail')) {
      res.statusCode = 400;
      res.end('{"error": "\u001b[2J\u001b]0;owned\u0007\u001b]8;;http://evil/\u001b\\\\click\u001b]8;;\u001b\\\\"}');
    } else res.end(JSON.stringify({ data: [{ id: 1, '\u001b[31mred\u001b[0m': 'x' }] }));
  });
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(hostile.address() as { port: number }).port}`;
  try {
    const manifest = join(ROOT, 'demo/workspace/offset-increment.yaml');
    const collect = async (base: string) => {
      const out = Object.assign(new PassThrough(), { text: '' });
      const err = Object.assign(new PassThrough(), { text: '' });
      out.on('data', (d) => (out.text += String(d)));
      err.on('data', (d) => (err.text += String(d)));
      await readCommand([manifest, '--stream', 'items', '--config', config({ url_base: base, page_size: 50 })], out, err);
      return out.text + err.text;
    };
    const ok = await collect(url);
    const failed = await collect(`${url}/fail`);
    for (const text of [ok, failed]) assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f]/, JSON.stringify(text));
    assert.match(ok, /\\x1b\[31mred\\x1b\[0m/);
    assert.match(failed, /\\x1b\[2J\\x1b\]0;owned\\x07/);
  } finally {
    hostile.close();
  }
});

test('`streams` lists static then resolved dynamic streams; `read --stream` runs a dynamic one', async () => {
  const cfg = config({ url_base: api.url, saved_views: [{ name: 'won_deals', table: 'tbl_deals', stage: 'won' }] });
  const listed = await run(['streams', 'demo/workspace/dynamic-streams.yaml', '--config', cfg]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(
    listed.stdout,
    [
      'tables',
      'contacts\t(dynamic: table_rows, HttpComponentsResolver)',
      'open_deals\t(dynamic: table_rows, HttpComponentsResolver)',
      'view_won_deals\t(dynamic: saved_views, ConfigComponentsResolver)',
      '',
    ].join('\n'),
  );
  const json = await run(['streams', 'demo/workspace/dynamic-streams.yaml', '--config', cfg, '--format', 'json']);
  assert.deepEqual(JSON.parse(json.stdout)[3], {
    name: 'view_won_deals',
    dynamic: true,
    definition: 'saved_views',
    resolver: 'ConfigComponentsResolver',
  });
  const read = await run(['read', 'demo/workspace/dynamic-streams.yaml', '--stream', 'contacts', '--config', cfg]);
  assert.equal(read.code, 0, read.stderr);
  assert.match(read.stdout, /^Stream 'contacts': 2 records in 1 page over 1 slice/);
  const bad = await run(['streams', 'demo/workspace/dynamic-streams.yaml', '--config', config({ url_base: 'http://127.0.0.1:1' })]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^streams: Resolving the dynamic streams of 'table_rows' \(HttpComponentsResolver\) failed/);
});

test('a body the decoder cannot read: the documented ERROR is logged, the read goes on, and the CLI exits 0 (issue 20)', async () => {
  const { startLoopback } = await import('./loopback');
  const html = await startLoopback((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<html>maintenance</html>');
  });
  try {
    const manifest = join(dir, 'not-json.yaml');
    writeFileSync(
      manifest,
      [
        'version: 6.44.0',
        'type: DeclarativeSource',
        'check: {type: CheckStream, stream_names: [items]}',
        'streams:',
        '  - type: DeclarativeStream',
        '    name: items',
        '    retriever:',
        '      type: SimpleRetriever',
        `      requester: {type: HttpRequester, url: "${html.base}/items"}`,
        '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}',
      ].join('\n'),
    );
    const r = await run(['read', manifest, '--stream', 'items', '--config', config({}), '--format', 'json']);
    const out = JSON.parse(r.stdout);
    assert.match(out.logs.find((l: { level: string }) => l.level === 'ERROR')?.message ?? '', /yields no records from it/);
    assert.equal(out.slices[0].pages[0].records.length, 0);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await html.close();
  }
});

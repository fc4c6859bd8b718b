// Hard bounds of a test read over stdio: limits a client (or a repository's workspace settings) lifts
// past the maximums are lowered to them, and a read stops with a clear ERROR when it passes its budget
// of bytes received or of time. The budgets are lowered for the test through the server's environment,
// which (unlike settings) only the extension controls and which can never raise them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LspTestClient } from './lspClient';
import { TestReadRequest, type StreamRead, type TestReadParams } from '../../server/src/protocol';
import { HARD_LIMITS, boundHttp, MAX_REQUEST_TIMEOUT_MS, MAX_RESPONSE_BYTES } from '../../server/src/readBounds';

let api: Server;
let base = '';
const uri = 'file:///w/read-bounds/manifest.yaml';

/** An API that always has a next page, each ~30 KB; `/slow` waits 400 ms before each answer. */
before(async () => {
  api = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 0);
    const send = () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ id: page, pad: 'x'.repeat(30_000) }], next: page + 1 }));
    };
    if (req.url?.startsWith('/slow')) setTimeout(send, 400);
    else send();
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((r) => api.close(r));
});

function manifest(path: string): string {
  return `version: 6.0.0
type: DeclarativeSource
check: {type: CheckStream, stream_names: [items]}
streams:
  - type: DeclarativeStream
    name: items
    retriever:
      type: SimpleRetriever
      requester: {type: HttpRequester, url: "${base}${path}"}
      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: [data]}}
      paginator:
        type: DefaultPaginator
        page_token_option: {type: RequestOption, inject_into: request_parameter, field_name: page}
        pagination_strategy: {type: CursorPagination, cursor_value: "{{ response.next }}"}
`;
}

async function readWith(client: LspTestClient, path: string, limits: TestReadParams['limits']): Promise<StreamRead> {
  await client.open(uri, manifest(path));
  return client.request<StreamRead>(TestReadRequest, {
    uri,
    streamName: 'items',
    config: {},
    limits,
    runId: 'bounds',
    http: { timeoutMs: 10 ** 9, maxResponseBytes: 10 ** 12 },
  } satisfies TestReadParams);
}

test('limits lifted past the maximums are lowered to them: 10^6 pages asked, 100 read', async () => {
  const client = await LspTestClient.start();
  try {
    const read = await readWith(client, '/items', { maxRecords: 10 ** 6, maxPagesPerSlice: 10 ** 6, maxSlices: 10 ** 6 });
    assert.equal(read.slices[0].pages.length, HARD_LIMITS.maxPagesPerSlice);
    assert.ok(!read.logs.some((l) => l.level === 'ERROR'), JSON.stringify(read.logs));
  } finally {
    await client.stop();
  }
});

test('a read stops when its responses pass the bytes budget, keeps what it read and says why', async () => {
  const client = await LspTestClient.start({}, { AIRBYTE_MANIFEST_STUDIO_READ_BYTES_BUDGET: '100000' });
  try {
    const read = await readWith(client, '/items', { maxPagesPerSlice: 50, maxRecords: 1000 });
    const error = read.logs.find((l) => l.level === 'ERROR' && /the most one test read may receive/.test(l.message));
    assert.ok(error, JSON.stringify(read.logs));
    assert.match(error!.message, /passed 100,000 bytes in all.*settings cannot raise it/);
    assert.ok(read.slices[0].pages.length >= 3 && read.slices[0].pages.length < 10, `${read.slices[0].pages.length} pages`);
  } finally {
    await client.stop();
  }
});

test('a read stops at its time budget, keeps what it read and says why', async () => {
  const client = await LspTestClient.start({}, { AIRBYTE_MANIFEST_STUDIO_READ_TIME_BUDGET_MS: '1500' });
  try {
    const read = await readWith(client, '/slow/items', { maxPagesPerSlice: 50, maxRecords: 1000 });
    const error = read.logs.find((l) => l.level === 'ERROR' && /the most one test read may take/.test(l.message));
    assert.ok(error, JSON.stringify(read.logs));
    assert.ok(read.slices[0]?.pages.length >= 1 && read.slices[0].pages.length < 50);
  } finally {
    await client.stop();
  }
});

test("the server's environment can lower the budgets, never raise them; transport bounds are capped too", () => {
  assert.deepEqual(boundHttp({ timeoutMs: 10 ** 9, maxResponseBytes: 10 ** 12 }), {
    timeoutMs: MAX_REQUEST_TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  });
  assert.deepEqual(boundHttp({ timeoutMs: 5000, maxResponseBytes: 2048 }), { timeoutMs: 5000, maxResponseBytes: 2048 });
  assert.deepEqual(boundHttp(undefined), { timeoutMs: MAX_REQUEST_TIMEOUT_MS, maxResponseBytes: MAX_RESPONSE_BYTES });
});

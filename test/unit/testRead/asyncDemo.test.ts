// The demo API's asynchronous reports through demo/workspace/async-job.yaml: pending twice, then a
// download; a failing report and a cancelled read; the API key never shows in the result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { testRead } from '../../../server/src/runtime';
import { prettySummary } from '../../../server/src/runtime/cli/readCommand';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';

const MANIFEST = parse(readFileSync(join(__dirname, '../../../demo/workspace/async-job.yaml'), 'utf8'));
const KEY = 'demo-api-key';
let api: DemoApi;
before(async () => {
  api = await startDemoApi();
});
after(async () => {
  await api.close();
});

test('report_lines: three polls (pending, pending, completed) with two 5 s waits, 20 JSON-lines records, then delete', async () => {
  const sleeps: number[] = [];
  const r = await testRead(
    MANIFEST,
    { url_base: api.url, api_key: KEY },
    'report_lines',
    {},
    {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
  );
  // No log: the demo's creation requester uses request_body (no deprecated field to warn about).
  assert.deepEqual(
    r.logs.map((l) => `${l.level} ${l.message}`),
    [],
  );
  assert.deepEqual(sleeps, [5000, 5000]);
  const slice = r.slices[0];
  assert.deepEqual(
    slice.auxiliary_requests.map((a) => `${a.type} ${a.request.http_method} ${a.response?.status}`),
    ['ASYNC_CREATE POST 201', 'ASYNC_POLL GET 200', 'ASYNC_POLL GET 200', 'ASYNC_POLL GET 200', 'ASYNC_DELETE POST 204'],
  );
  assert.deepEqual(
    slice.auxiliary_requests.slice(1, 4).map((a) => JSON.parse(a.response?.body ?? '{}').status),
    ['pending', 'pending', 'completed'],
  );
  assert.equal(slice.pages.length, 1);
  assert.match(slice.pages[0].request?.url ?? '', /\/async\/reports\/report-\d+\/download$/);
  assert.equal(slice.pages[0].records.length, 20);
  assert.deepEqual(slice.pages[0].request?.headers, { 'X-API-Key': '****' });
  assert.ok(!JSON.stringify(r).includes(KEY));
  // The CLI's summary lists the job requests under their slice.
  const text = prettySummary(r, 'report_lines');
  assert.match(text, /slice 1 \{\}\n {4}ASYNC_CREATE Async Job -- Create: POST http:\/\/127\.0\.0\.1:\d+\/async\/reports → HTTP 201\n/);
  assert.equal(text.match(/ASYNC_POLL Async Job -- Polling/g)?.length, 3);
});

test('a report that fails on the server ends the read with the status; cancelling sends the cancel request', async () => {
  const failing = structuredClone(MANIFEST);
  failing.definitions.report_retriever.creation_requester.request_body.value.fail = true;
  const r = await testRead(failing, { url_base: api.url, api_key: KEY }, 'report_lines', {}, { sleep: async () => {} });
  assert.match(r.logs.find((l) => l.level === 'ERROR')?.message ?? '', /async job failed: the API reported status 'failed'/);
  assert.equal(r.slices[0].pages.length, 0);

  const controller = new AbortController();
  const cancelled = await testRead(
    MANIFEST,
    { url_base: api.url, api_key: KEY },
    'report_lines',
    {},
    {
      signal: controller.signal,
      sleep: async () => {
        controller.abort();
      },
    },
  );
  const aux = cancelled.slices[0].auxiliary_requests;
  assert.deepEqual(
    aux.map((a) => a.type),
    ['ASYNC_CREATE', 'ASYNC_POLL', 'ASYNC_ABORT'],
  );
  assert.equal(JSON.parse(aux[2].response?.body ?? '{}').status, 'cancelled');
  assert.deepEqual(
    cancelled.logs.map((l) => `${l.level} ${l.message}`),
    ['ERROR The read was cancelled.'],
  );
});

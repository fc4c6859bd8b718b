// airbyte/testRead over stdio returns each page's pagination trace (the results view shows it): a read of
// the demo API's cursor-paginated stream, tokens chained page to page and the stop reason on the last.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import { TestReadRequest, type TestReadParams } from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
let client: LspTestClient;
let demo: DemoApi;

before(async () => {
  demo = await startDemoApi({ port: 0 });
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
  await demo.close();
});

test('the testRead handler returns the pagination trace of every page', async () => {
  const uri = 'file:///fixtures/cursor-pagination.yaml';
  const text = readFileSync(join(ROOT, 'demo', 'workspace', 'cursor-pagination.yaml'), 'utf8').replace(
    'request_parameters: {limit: "40"}',
    'request_parameters: {limit: "40", total: "100"}',
  );
  await client.open(uri, text);
  const params: TestReadParams = {
    uri,
    streamName: 'cursor_in_body',
    config: { url_base: demo.url },
    limits: { maxRecords: 500, maxPagesPerSlice: 5 },
    runId: 'trace-1',
  };
  const read = await client.connection.sendRequest(TestReadRequest, params);
  const traces = read.slices[0].pages.map((p) => p.pagination_trace);
  assert.deepEqual(
    traces.map((t) => [t?.record_count, t?.next_requested]),
    [
      [40, true],
      [40, true],
      [20, false],
    ],
  );
  assert.equal(traces[0]?.token_in, null);
  assert.equal(traces[1]?.token_in, traces[0]?.token_out);
  assert.equal(traces[2]?.token_in, traces[1]?.token_out);
  assert.equal(traces[2]?.token_out, null);
  assert.equal(traces[2]?.stop_reason, 'stop_condition "{{ response.meta.next_cursor is none }}" evaluated true');
});

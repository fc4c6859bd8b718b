// Bounded behaviour against the hostile demo API: endless pagination, a 50 MB body, a stalled
// response, a redirect loop, a non-JSON body, 429/5xx under the error handler, and cancellation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testRead, createHttpFetch } from '../../../server/src/runtime';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { manifestWith } from './loopback';

let api: DemoApi;
before(async () => {
  api = await startDemoApi({ hostile: true });
});
after(async () => {
  await api.close();
});

const stream = (url: string, paginator?: object) =>
  manifestWith({
    requester: { type: 'HttpRequester', url },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
    ...(paginator ? { paginator } : {}),
  });
const errors = (r: { logs: { level: string; message: string }[] }) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);

test('endless pagination stops at max pages per slice', async () => {
  const r = await testRead(
    stream(`${api.url}/hostile/endless`, {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestPath' },
      pagination_strategy: { type: 'CursorPagination', cursor_value: "{{ response['next'] }}" },
    }),
    {},
    'items',
    { maxPagesPerSlice: 4, maxRecords: 1000 },
  );
  assert.equal(r.slices[0].pages.length, 4);
  assert.equal(r.test_read_limit_reached, true);
  assert.deepEqual(errors(r), []);
});

test('a 50 MB body is refused with a clear error (cap configurable)', async () => {
  const r = await testRead(
    stream(`${api.url}/hostile/huge`),
    {},
    'items',
    {},
    { fetch: createHttpFetch({ maxResponseBytes: 5 * 1024 * 1024 }) },
  );
  assert.match(errors(r)[0], /exceeds the size limit of 5242880 bytes/);
  assert.equal(r.slices[0].pages[0].response, null);
});

test('a stalled server times out', async () => {
  const r = await testRead(stream(`${api.url}/hostile/stall`), {}, 'items', {}, { fetch: createHttpFetch({ timeoutMs: 300 }) });
  assert.match(errors(r)[0], /No complete response within 300 ms/);
});

test('a redirect loop ends', async () => {
  const r = await testRead(stream(`${api.url}/hostile/redirect-loop`), {}, 'items');
  assert.match(errors(r)[0], /Too many redirects/);
});

test('a non-JSON body gives a clear decode error and no records', async () => {
  const r = await testRead(stream(`${api.url}/hostile/not-json`), {}, 'items');
  assert.equal(r.slices[0].pages[0].records.length, 0);
  assert.match(errors(r)[0], /is not valid JSON \(text\/html; starts with "<html><body>Service/);
});

test('429 and 500 follow the error handler: a test read does not retry (§9.5), an IGNORE filter passes', async () => {
  const rl = await testRead(stream(`${api.url}/offset/items?fail=429&fail_key=a`), {}, 'items');
  assert.match(errors(rl)[0], /API rate limit exceeded/);
  assert.equal(rl.slices[0].pages[0].response?.status, 429);
  const five = await testRead(stream(`${api.url}/offset/items?fail=500&fail_key=b`), {}, 'items');
  assert.match(errors(five)[0], /Exhausted available request attempts/);
  const ignored = manifestWith({
    requester: {
      type: 'HttpRequester',
      url: `${api.url}/offset/items?fail=500&fail_key=c`,
      error_handler: {
        type: 'DefaultErrorHandler',
        response_filters: [{ type: 'HttpResponseFilter', action: 'IGNORE', http_codes: [500] }],
      },
    },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
  });
  const ig = await testRead(ignored, {}, 'items');
  assert.deepEqual(errors(ig), []);
  assert.equal(ig.slices[0].pages[0].records.length, 0);
  // The reference writes "Ignoring response …" to its Python logger only: the read has no log for it.
  assert.deepEqual(ig.logs, []);
});

test('cancellation by AbortSignal ends the read with what was read so far', async () => {
  const controller = new AbortController();
  const r = await testRead(
    stream(`${api.url}/hostile/endless`, {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestPath' },
      pagination_strategy: { type: 'CursorPagination', cursor_value: "{{ response['next'] }}" },
    }),
    {},
    'items',
    { maxPagesPerSlice: 20 },
    {
      signal: controller.signal,
      onProgress: (e) => {
        if ((e as { type: string; page?: number }).type === 'page' && (e as { page: number }).page === 1) controller.abort();
      },
    },
  );
  assert.equal(r.slices[0].pages.length, 2);
  assert.match(errors(r)[0], /cancelled/);
});

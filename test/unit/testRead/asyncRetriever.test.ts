// AsyncRetriever test reads over loopback HTTP: create → poll → download → delete, with every wait going
// through a scripted env.sleep that advances a frozen clock (nothing really waits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { testRead, type StreamRead } from '../../../server/src/runtime';
import { json, startLoopback, type Recorded } from './loopback';

const SECRET = 'sk-async-7f3a9c';

type JobScript = {
  /** Statuses the poll endpoint answers in order; the last one repeats. */
  statuses: string[];
  /** Download URLs (relative paths) listed when completed. */
  files?: string[];
  /** Body of each file path. */
  bodies?: Record<string, { type: string; text: string }>;
  createStatus?: number;
};

/** A scripted report API: POST /jobs, GET /jobs/{id}, GET /files/..., POST /jobs/{id}/cancel, POST /jobs/{id}/delete. */
function reportApi(script: JobScript) {
  let polls = 0;
  return (req: Recorded, res: ServerResponse, base: string) => {
    const path = req.url.split('?')[0];
    if (req.headers['x-api-key'] !== SECRET) return json(res, { error: 'bad key' }, {}, 401);
    if (req.method === 'POST' && path === '/jobs')
      return json(res, script.createStatus ? { error: 'cannot create' } : { id: 'job-1', state: 'queued' }, {}, script.createStatus ?? 201);
    if (req.method === 'GET' && path === '/jobs/job-1') {
      const status = script.statuses[Math.min(polls++, script.statuses.length - 1)];
      const files = (script.files ?? ['/files/job-1.jsonl']).map((f) => `${base}${f}`);
      return json(res, { id: 'job-1', status, ...(status === 'completed' ? { url: files[0], urls: files } : {}) });
    }
    if (req.method === 'POST' && path === '/jobs/job-1/cancel') return json(res, { id: 'job-1', status: 'cancelled' });
    if (req.method === 'POST' && path === '/jobs/job-1/delete') {
      res.writeHead(204);
      res.end();
      return;
    }
    const body = script.bodies?.[path];
    if (req.method === 'GET' && body) {
      res.writeHead(200, { 'Content-Type': body.type });
      res.end(body.text);
      return;
    }
    json(res, { error: `no route ${req.method} ${path}` }, {}, 404);
  };
}

function manifest(base: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const auth = {
    type: 'ApiKeyAuthenticator',
    api_token: "{{ config['api_key'] }}",
    inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Api-Key' },
  };
  return {
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['report'] },
    spec: { type: 'Spec', connection_specification: { type: 'object', properties: { api_key: { type: 'string', airbyte_secret: true } } } },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 'report',
        primary_key: ['id'],
        retriever: {
          type: 'AsyncRetriever',
          status_mapping: {
            type: 'AsyncJobStatusMap',
            running: ['pending'],
            completed: ['completed'],
            failed: ['failed'],
            timeout: ['expired'],
            skipped: ['empty'],
          },
          status_extractor: { type: 'DpathExtractor', field_path: ['status'] },
          download_target_extractor: { type: 'DpathExtractor', field_path: ['url'] },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
          creation_requester: {
            type: 'HttpRequester',
            url: `${base}/jobs`,
            http_method: 'POST',
            authenticator: auth,
            request_body_json: { report: 'orders' },
          },
          polling_requester: { type: 'HttpRequester', url: `${base}/jobs/{{ creation_response['id'] }}`, authenticator: auth },
          download_requester: {
            type: 'HttpRequester',
            url: '{{ download_target }}',
            authenticator: auth,
            request_headers: { 'X-Job': "{{ creation_response['id'] }}" },
          },
          download_decoder: { type: 'JsonlDecoder' },
          abort_requester: {
            type: 'HttpRequester',
            url: `${base}/jobs/{{ creation_response['id'] }}/cancel`,
            http_method: 'POST',
            authenticator: auth,
          },
          delete_requester: {
            type: 'HttpRequester',
            url: `${base}/jobs/{{ creation_response['id'] }}/delete`,
            http_method: 'POST',
            authenticator: auth,
          },
          ...overrides,
        },
      },
    ],
  };
}

/** A frozen clock that only env.sleep moves forward, and the list of waits asked for. */
function scriptedTime() {
  let t = Date.parse('2024-05-01T00:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    env: {
      now: () => new Date(t),
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
    },
  };
}

const JSONL = { type: 'application/x-ndjson', text: '{"id":1,"total":9.5}\n{"id":2,"total":3}\n' };
const summary = (r: Recorded[]) => r.map((q) => `${q.method} ${q.url}`);
const errors = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);

test('create, poll until completed, download JSON lines and delete: job requests are slice auxiliary requests', async () => {
  const api = await startLoopback(reportApi({ statuses: ['pending', 'pending', 'completed'], bodies: { '/files/job-1.jsonl': JSONL } }));
  try {
    const time = scriptedTime();
    const r = await testRead(manifest(api.base), { api_key: SECRET }, 'report', {}, time.env);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(summary(api.requests), [
      'POST /jobs',
      'GET /jobs/job-1',
      'GET /jobs/job-1',
      'GET /jobs/job-1',
      'GET /files/job-1.jsonl',
      'POST /jobs/job-1/delete',
    ]);
    assert.equal(api.requests[0].body, '{"report": "orders"}');
    assert.equal(api.requests[4].headers['x-job'], 'job-1');
    assert.deepEqual(time.sleeps, [5000, 5000]);
    assert.equal(r.slices.length, 1);
    const slice = r.slices[0];
    // The reference's AsyncRetriever logs the slice's cursor part as a dict: `{}`, not the string "{}" of
    // other streams (source-sendgrid `contacts` in the differential harness).
    assert.deepEqual(slice.slice_descriptor, {});
    assert.deepEqual(
      slice.auxiliary_requests.map((a) => [a.title, a.type]),
      [
        ['Async Job -- Create', 'ASYNC_CREATE'],
        ['Async Job -- Polling', 'ASYNC_POLL'],
        ['Async Job -- Polling', 'ASYNC_POLL'],
        ['Async Job -- Polling', 'ASYNC_POLL'],
        ['Async Job -- Delete', 'ASYNC_DELETE'],
      ],
    );
    assert.deepEqual(slice.auxiliary_requests[0].request, {
      url: `${api.base}/jobs`,
      headers: { 'X-Api-Key': '****', 'Content-Type': 'application/json' },
      http_method: 'POST',
      body: '{"report": "orders"}',
    });
    assert.equal(slice.auxiliary_requests[0].response?.status, 201);
    assert.equal(slice.auxiliary_requests[3].request.url, `${api.base}/jobs/job-1`);
    assert.deepEqual(r.auxiliary_requests, []);
    assert.equal(slice.pages.length, 1);
    assert.equal(slice.pages[0].request?.url, `${api.base}/files/job-1.jsonl`);
    assert.deepEqual(slice.pages[0].records, [
      { id: 1, total: 9.5 },
      { id: 2, total: 3 },
    ]);
    assert.equal(slice.pages[0].response?.body, JSONL.text);
    assert.equal(r.test_read_limit_reached, false);
    assert.ok(r.inferred_schema);
    assert.ok(!JSON.stringify(r).includes(SECRET));
  } finally {
    await api.close();
  }
});

test('a failed job ends the read with an ERROR naming the status; nothing is downloaded or aborted', async () => {
  const api = await startLoopback(reportApi({ statuses: ['pending', 'failed'] }));
  try {
    const r = await testRead(manifest(api.base), { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(summary(api.requests), ['POST /jobs', 'GET /jobs/job-1', 'GET /jobs/job-1']);
    const e = errors(r);
    assert.equal(e.length, 1);
    assert.match(e[0], /async job failed: the API reported status 'failed' \(status_mapping\.failed\) on poll 2/);
    assert.equal(r.slices[0].pages.length, 0);
    assert.equal(r.slices[0].auxiliary_requests.length, 3);
  } finally {
    await api.close();
  }
});

test('a job still running after polling_job_timeout is aborted and the read says so', async () => {
  const api = await startLoopback(reportApi({ statuses: ['pending'] }));
  try {
    const time = scriptedTime();
    const r = await testRead(manifest(api.base, { polling_job_timeout: 1 }), { api_key: SECRET }, 'report', {}, time.env);
    // One minute at one poll every 5 s: 12 polls, then the clock reaches the timeout.
    assert.equal(api.requests.filter((q) => q.method === 'GET').length, 12);
    assert.deepEqual(summary(api.requests).slice(-1), ['POST /jobs/job-1/cancel']);
    assert.equal(time.sleeps.length, 12);
    const aux = r.slices[0].auxiliary_requests;
    assert.deepEqual(aux[aux.length - 1].type, 'ASYNC_ABORT');
    assert.match(
      errors(r)[0],
      /still running \(status 'pending'\) after 1 minute \(polling_job_timeout\) and 12 polls; the job was aborted/,
    );
  } finally {
    await api.close();
  }
});

test('a status mapped to timeout aborts the job; an unmapped status is a clear error', async () => {
  const api = await startLoopback(reportApi({ statuses: ['expired'] }));
  try {
    const r = await testRead(manifest(api.base), { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(summary(api.requests), ['POST /jobs', 'GET /jobs/job-1', 'POST /jobs/job-1/cancel']);
    assert.match(errors(r)[0], /timed out: the API reported status 'expired' \(status_mapping\.timeout\)/);
  } finally {
    await api.close();
  }
  const api2 = await startLoopback(reportApi({ statuses: ['weird'] }));
  try {
    const r = await testRead(manifest(api2.base), { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.match(errors(r)[0], /status 'weird', which status_mapping does not list \(running: \[pending\]; completed: \[completed\]/);
  } finally {
    await api2.close();
  }
});

test('a list of two download targets gives two downloads, each a page of the slice', async () => {
  const bodies = {
    '/files/a.jsonl': { type: 'application/x-ndjson', text: '{"id":1}\n' },
    '/files/b.jsonl': { type: 'application/x-ndjson', text: '{"id":2}\n{"id":3}\n' },
  };
  const api = await startLoopback(reportApi({ statuses: ['completed'], files: ['/files/a.jsonl', '/files/b.jsonl'], bodies }));
  try {
    const time = scriptedTime();
    const m = manifest(api.base, { download_target_extractor: { type: 'DpathExtractor', field_path: ['urls'] } });
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, time.env);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(time.sleeps, []);
    assert.deepEqual(summary(api.requests), [
      'POST /jobs',
      'GET /jobs/job-1',
      'GET /files/a.jsonl',
      'GET /files/b.jsonl',
      'POST /jobs/job-1/delete',
    ]);
    assert.deepEqual(
      r.slices[0].pages.map((p) => p.records),
      [[{ id: 1 }], [{ id: 2 }, { id: 3 }]],
    );
  } finally {
    await api.close();
  }
});

test('cancelling while the job runs sends the abort request and ends the read', async () => {
  const api = await startLoopback(reportApi({ statuses: ['pending'] }));
  try {
    const controller = new AbortController();
    const env = {
      ...scriptedTime().env,
      signal: controller.signal,
      sleep: async () => {
        controller.abort();
      },
    };
    const r = await testRead(manifest(api.base), { api_key: SECRET }, 'report', {}, env);
    assert.deepEqual(summary(api.requests), ['POST /jobs', 'GET /jobs/job-1', 'POST /jobs/job-1/cancel']);
    assert.deepEqual(
      r.slices[0].auxiliary_requests.map((a) => a.type),
      ['ASYNC_CREATE', 'ASYNC_POLL', 'ASYNC_ABORT'],
    );
    assert.deepEqual(errors(r), ['The read was cancelled.']);
  } finally {
    await api.close();
  }
});

test('download_target_requester sees polling_response; a CSV download; skipped jobs have no pages', async () => {
  const csv = { type: 'text/csv', text: 'id,name\n7,Pen\n8,Ink\n' };
  const api = await startLoopback((req, res, base) => {
    if (req.url === '/documents/doc-9') return json(res, { download: `${base}/files/report.csv` });
    return reportApi({ statuses: ['completed'], bodies: { '/files/report.csv': csv } })(req, res, base);
  });
  try {
    const m = manifest(api.base, {
      download_target_requester: { type: 'HttpRequester', url: `${api.base}/documents/doc-{{ polling_response['id'] | length + 4 }}` },
      download_target_extractor: { type: 'DpathExtractor', field_path: ['download'] },
      download_decoder: { type: 'CsvDecoder' },
    });
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(summary(api.requests), [
      'POST /jobs',
      'GET /jobs/job-1',
      'GET /documents/doc-9',
      'GET /files/report.csv',
      'POST /jobs/job-1/delete',
    ]);
    assert.deepEqual(
      r.slices[0].auxiliary_requests.map((a) => a.title),
      ['Async Job -- Create', 'Async Job -- Polling', 'Async Job -- Download Target', 'Async Job -- Delete'],
    );
    assert.deepEqual(r.slices[0].pages[0].records, [
      { id: '7', name: 'Pen' },
      { id: '8', name: 'Ink' },
    ]);
  } finally {
    await api.close();
  }
  const skipped = await startLoopback(reportApi({ statuses: ['empty'] }));
  try {
    const r = await testRead(manifest(skipped.base), { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    assert.equal(r.slices[0].pages.length, 0);
    assert.match(r.logs.map((l) => l.message).join('\n'), /status 'empty' \(status_mapping\.skipped\)/);
    assert.deepEqual(summary(skipped.requests), ['POST /jobs', 'GET /jobs/job-1']);
  } finally {
    await skipped.close();
  }
});

test('per partition: one job per slice; a failing creation request is shown and ends the read', async () => {
  const api = await startLoopback(reportApi({ statuses: ['completed'], bodies: { '/files/job-1.jsonl': JSONL } }));
  try {
    const m = manifest(api.base, {
      partition_router: { type: 'ListPartitionRouter', cursor_field: 'region', values: ['eu', 'us'] },
      creation_requester: {
        type: 'HttpRequester',
        url: `${api.base}/jobs`,
        http_method: 'POST',
        authenticator: {
          type: 'ApiKeyAuthenticator',
          api_token: "{{ config['api_key'] }}",
          inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Api-Key' },
        },
        request_body_json: { region: '{{ stream_partition.region }}' },
      },
    });
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    // The reference's AsyncRetriever logs only the cursor part of a slice (async_retriever.py read_records); the
    // partition is in the request body. Seen in the differential harness on source-amazon-ads (issue 20).
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [{}, {}],
    );
    assert.deepEqual(
      api.requests.filter((q) => q.method === 'POST' && q.url === '/jobs').map((q) => q.body),
      ['{"region": "eu"}', '{"region": "us"}'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.auxiliary_requests.length),
      [3, 3],
    );
  } finally {
    await api.close();
  }
  const failing = await startLoopback(reportApi({ statuses: ['completed'], createStatus: 500 }));
  try {
    const r = await testRead(manifest(failing.base), { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.match(errors(r)[0], /Async Job -- Create failed: .*HTTP 500/);
    assert.equal(r.slices[0].auxiliary_requests[0].response?.status, 500);
    assert.deepEqual(summary(failing.requests), ['POST /jobs']);
  } finally {
    await failing.close();
  }
});

test('an AsyncRetriever without status_mapping or with a status in two lists cannot be built', async () => {
  await assert.rejects(
    testRead(manifest('http://127.0.0.1:9', { status_mapping: undefined }), {}, 'report'),
    /AsyncRetriever needs status_mapping/,
  );
  const twice = { running: ['pending'], completed: ['done'], failed: ['done'], timeout: [] };
  await assert.rejects(
    testRead(manifest('http://127.0.0.1:9', { status_mapping: twice }), {}, 'report'),
    /status 'done' is listed in both completed and failed in status_mapping/,
  );
  await assert.rejects(
    testRead(manifest('http://127.0.0.1:9', { polling_job_timeout: 'soon' }), {}, 'report'),
    /polling_job_timeout must be a positive number of minutes/,
  );
});

test('a read stopped by the record limit still deletes the finished job; a failed download does not', async () => {
  const api = await startLoopback(reportApi({ statuses: ['completed'], bodies: { '/files/job-1.jsonl': JSONL } }));
  try {
    const r = await testRead(manifest(api.base), { api_key: SECRET }, 'report', { maxRecords: 1 }, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    assert.equal(r.test_read_limit_reached, true);
    assert.deepEqual(
      r.slices[0].pages.map((p) => p.records),
      [[{ id: 1, total: 9.5 }]],
    );
    assert.deepEqual(summary(api.requests), ['POST /jobs', 'GET /jobs/job-1', 'GET /files/job-1.jsonl', 'POST /jobs/job-1/delete']);
    assert.equal(r.slices[0].auxiliary_requests.at(-1)?.type, 'ASYNC_DELETE');
  } finally {
    await api.close();
  }
  const missing = await startLoopback(reportApi({ statuses: ['completed'], bodies: {} }));
  try {
    const r = await testRead(manifest(missing.base), { api_key: SECRET }, 'report', {}, scriptedTime().env);
    // The reference's words; where the request went stays in internal_message.
    assert.equal(errors(r)[0], 'HTTP Status Code: 404. Error: Not found. The requested resource was not found on the server.');
    assert.match(r.logs.find((l) => l.level === 'ERROR')?.internal_message ?? '', /HTTP 404/);
    assert.equal(r.slices[0].pages.length, 1);
    assert.equal(r.slices[0].pages[0].response?.status, 404);
    assert.deepEqual(summary(missing.requests), ['POST /jobs', 'GET /jobs/job-1', 'GET /files/job-1.jsonl']);
  } finally {
    await missing.close();
  }
});

test('a gzip-compressed CSV export (SendGrid style: url_base is the download target) is inflated and parsed', async () => {
  const { gzipSync } = await import('node:zlib');
  const gz = gzipSync(Buffer.from('id,EMAIL\nc1,a@example.com\nc2,b@example.com\n'));
  const api = await startLoopback((req, res, base) => {
    if (req.url === '/exports/e1.csv.gz') {
      res.writeHead(200, { 'Content-Type': 'application/gzip' });
      res.end(gz);
      return;
    }
    return reportApi({ statuses: ['completed'], files: ['/exports/e1.csv.gz'] })(req, res, base);
  });
  try {
    const m = manifest(api.base, {
      download_target_extractor: { type: 'DpathExtractor', field_path: ['urls'] },
      download_requester: { type: 'HttpRequester', url_base: '{{download_target}}', http_method: 'GET' },
      download_decoder: { type: 'GzipDecoder', decoder: { type: 'CsvDecoder' } },
    });
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(r.slices[0].pages[0].records, [
      { id: 'c1', EMAIL: 'a@example.com' },
      { id: 'c2', EMAIL: 'b@example.com' },
    ]);
    assert.match(r.slices[0].pages[0].response?.body ?? '', /^<\d+ bytes of gzip data>$/);
  } finally {
    await api.close();
  }
});

test('Amazon Ads style download requester: url_base "" and a path that renders the whole download URL (issue 20)', async () => {
  const api = await startLoopback(reportApi({ statuses: ['completed'], bodies: { '/files/job-1.jsonl': JSONL } }));
  try {
    const m = manifest(api.base, {
      download_requester: {
        type: 'HttpRequester',
        url_base: '',
        path: '{{ download_target }}',
        http_method: 'GET',
        authenticator: {
          type: 'ApiKeyAuthenticator',
          api_token: "{{ config['api_key'] }}",
          inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Api-Key' },
        },
      },
    });
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    // Before: "HttpRequester needs url (or url_base); it rendered empty" and no download.
    assert.deepEqual(errors(r), []);
    assert.deepEqual(summary(api.requests), ['POST /jobs', 'GET /jobs/job-1', 'GET /files/job-1.jsonl', 'POST /jobs/job-1/delete']);
    assert.deepEqual(r.slices[0].pages[0].records, [
      { id: 1, total: 9.5 },
      { id: 2, total: 3 },
    ]);
  } finally {
    await api.close();
  }
});

test('max_concurrent_async_job_count: jobs for the next slices are made before polling, each status update polls every running job (issue 20)', async () => {
  // As the CDK's AsyncJobOrchestrator: with room for 3 jobs, the three slices' jobs are created first, then
  // each status update polls all running jobs once; completed partitions are downloaded in slice order.
  // The template is evaluated with an empty config, as the CDK's JobTracker does (so `n` is 3, not 1).
  const polls = new Map<string, number>();
  let made = 0;
  const api = await startLoopback((req, res, base) => {
    const path = req.url.split('?')[0];
    if (req.method === 'POST' && path === '/jobs') return json(res, { id: `job-${++made}` }, {}, 201);
    const poll = /^\/jobs\/(job-\d+)$/.exec(path);
    if (poll) {
      const n = (polls.get(poll[1]) ?? 0) + 1;
      polls.set(poll[1], n);
      return json(res, n < 2 ? { status: 'pending' } : { status: 'completed', url: `${base}/files/${poll[1]}.jsonl` });
    }
    if (path.startsWith('/files/')) {
      res.writeHead(200, { 'Content-Type': JSONL.type });
      res.end(JSONL.text);
      return;
    }
    json(res, { error: 'no route' }, {}, 404);
  });
  try {
    const m = manifest(api.base, {
      partition_router: { type: 'ListPartitionRouter', cursor_field: 'region', values: ['eu', 'us', 'ap'] },
      creation_requester: {
        type: 'HttpRequester',
        url: `${api.base}/jobs`,
        http_method: 'POST',
        authenticator: {
          type: 'ApiKeyAuthenticator',
          api_token: "{{ config['api_key'] }}",
          inject_into: { type: 'RequestOption', inject_into: 'header', field_name: 'X-Api-Key' },
        },
        request_body_json: { region: '{{ stream_partition.region }}' },
      },
      delete_requester: undefined,
      abort_requester: undefined,
    });
    m.max_concurrent_async_job_count = "{{ config.get('n', 3) }}";
    const r = await testRead(m, { api_key: SECRET, n: 1 }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(summary(api.requests), [
      'POST /jobs',
      'POST /jobs',
      'POST /jobs',
      'GET /jobs/job-1',
      'GET /jobs/job-2',
      'GET /jobs/job-3',
      'GET /jobs/job-1',
      'GET /jobs/job-2',
      'GET /jobs/job-3',
      'GET /files/job-1.jsonl',
      'GET /files/job-2.jsonl',
      'GET /files/job-3.jsonl',
    ]);
    assert.deepEqual(
      api.requests.filter((q) => q.method === 'POST').map((q) => q.body),
      ['{"region": "eu"}', '{"region": "us"}', '{"region": "ap"}'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.pages.map((p) => p.records.length)),
      [[2], [2], [2]],
    );
    // Without the field the tracker has room for one job: one slice after the other, as before.
    delete m.max_concurrent_async_job_count;
    made = 0;
    polls.clear();
    api.requests.length = 0;
    await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(summary(api.requests).slice(0, 4), ['POST /jobs', 'GET /jobs/job-1', 'GET /jobs/job-1', 'GET /files/job-1.jsonl']);
  } finally {
    await api.close();
  }
});

test('creation_response also carries the creation request and response headers (Amazon Ads reads a header back from it)', async () => {
  const api = await startLoopback(reportApi({ statuses: ['completed'], bodies: { '/files/job-1.jsonl': JSONL } }));
  try {
    const m = manifest(api.base);
    const retriever = (m.streams as { retriever: Record<string, Record<string, unknown>> }[])[0].retriever;
    retriever.creation_requester.request_headers = { 'X-Scope': 'profile-42' };
    retriever.polling_requester.request_headers = {
      'X-Scope': "{{ stream_slice.extra_fields['creation_response'].request.headers['X-Scope'] }}",
      'X-Created-Type': "{{ creation_response.headers['content-type'] }}",
    };
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    const poll = api.requests.find((q) => q.method === 'GET' && q.url === '/jobs/job-1');
    assert.equal(poll?.headers['x-scope'], 'profile-42');
    assert.equal(poll?.headers['x-created-type'], 'application/json');
  } finally {
    await api.close();
  }
});

test('schema_normalization: Default also casts the downloaded records to the schema types (issue 20)', async () => {
  const api = await startLoopback(reportApi({ statuses: ['completed'], bodies: { '/files/job-1.jsonl': JSONL } }));
  try {
    const m = manifest(api.base, {
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] }, schema_normalization: 'Default' },
    });
    (m.streams as Record<string, unknown>[])[0].schema_loader = {
      type: 'InlineSchemaLoader',
      schema: { type: 'object', properties: { id: { type: 'string' }, total: { type: 'integer' } } },
    };
    const r = await testRead(m, { api_key: SECRET }, 'report', {}, scriptedTime().env);
    assert.deepEqual(errors(r), []);
    assert.deepEqual(
      r.slices[0].pages.flatMap((p) => p.records),
      [
        { id: '1', total: 9 },
        { id: '2', total: 3 },
      ],
    );
  } finally {
    await api.close();
  }
});

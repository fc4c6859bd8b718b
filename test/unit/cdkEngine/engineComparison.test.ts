// The comparison of two reads of one stream on the two engines: every area reported with both values,
// client headers and JSON formatting ignored, and reading past the record limit noted, not counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareEngineReads, formatEngineComparison } from '../../../server/src/cdkEngine/engineComparison';
import type { StreamRead } from '../../../server/src/runtime/testRead/streamRead';

function read(
  pages: { url: string; records: object[]; body?: string; headers?: Record<string, string> }[],
  extra: Partial<StreamRead> = {},
): StreamRead {
  return {
    logs: [],
    test_read_limit_reached: false,
    auxiliary_requests: [],
    inferred_schema: null,
    inferred_datetime_formats: {},
    latest_config_update: null,
    slices: [
      {
        slice_descriptor: '{}',
        state: [],
        auxiliary_requests: [],
        pages: pages.map((p) => ({
          records: p.records as Record<string, unknown>[],
          request: { url: p.url, http_method: 'GET', body: null, headers: p.headers ?? {} },
          response: { status: 200, body: p.body ?? '{}', headers: {} },
        })),
      },
    ],
    ...extra,
  };
}

test('the same read in another spelling (query order, JSON spacing, client headers) is identical', () => {
  const a = read([
    {
      url: 'http://x/items?b=2&a=1',
      records: [{ id: 1 }],
      body: '{"a": 1}',
      headers: { 'User-Agent': 'node', Authorization: 'Bearer ****' },
    },
  ]);
  const b = read([
    {
      url: 'http://x/items?a=1&b=2',
      records: [{ id: 1 }],
      body: '{"a":1}',
      headers: { 'User-Agent': 'python-requests/2.32', authorization: 'Bearer ****', Accept: '*/*' },
    },
  ]);
  const c = compareEngineReads(a, b);
  assert.deepEqual(c.differences, []);
  assert.equal(c.identical, true);
});

test('each difference is listed by area with both values', () => {
  const a = read([{ url: 'http://x/items', records: [{ id: 1, name: 'a' }] }], {
    logs: [{ level: 'WARN', message: 'slow', internal_message: null, stacktrace: null }],
  });
  const b = read([
    { url: 'http://x/items?page=1', records: [{ id: 1, name: 'b' }] },
    { url: 'http://x/items?page=2', records: [] },
  ]);
  const c = compareEngineReads(a, b);
  assert.deepEqual(
    c.differences.map((d) => `${d.area}: ${d.where}`),
    [
      'slices: slice 1: number of pages',
      'requests: slice 1 page 1 request',
      'records: slice 1 page 1 record 1',
      'logs: warnings and errors',
    ],
  );
  assert.deepEqual(c.differences[2], {
    area: 'records',
    where: 'slice 1 page 1 record 1',
    builtin: { id: 1, name: 'a' },
    cdk: { id: 1, name: 'b' },
  });
  assert.match(
    formatEngineComparison('items', c),
    /4 differences:\n {2}\[slices\] slice 1: number of pages\n {4}built-in: 1\n {4}CDK: {6}2/,
  );
});

test('records the CDK read past the record limit are noted, not counted as differences', () => {
  const a = read(
    [
      { url: 'http://x/1', records: [{ id: 1 }, { id: 2 }] },
      { url: 'http://x/2', records: [{ id: 3 }] },
    ],
    { test_read_limit_reached: true },
  );
  const b = read(
    [
      { url: 'http://x/1', records: [{ id: 1 }, { id: 2 }] },
      { url: 'http://x/2', records: [{ id: 3 }, { id: 4 }] },
      { url: 'http://x/3', records: [{ id: 5 }] },
    ],
    { test_read_limit_reached: true },
  );
  const c = compareEngineReads(a, b, { maxRecords: 3 });
  assert.deepEqual(c.differences, []);
  assert.deepEqual(c.notes, [
    "The CDK read 2 more records past the record limit of 3 (it only reports the limit; the built-in runtime stops there by design): compared up to the built-in read's last record.",
  ]);
  assert.equal(c.counts.cdk.records, 5);
  // Without the limit the same reads differ.
  assert.equal(compareEngineReads(a, b, { maxRecords: 100 }).identical, false);
});

// The worked examples of §12.1-§12.4 as whole test reads over real loopback HTTP: exact request sequences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { json, manifestWith, startLoopback } from './loopback';

const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

test('§12.1 OffsetIncrement without first-request injection: ?limit=2, ?offset=2&limit=2, ?offset=4&limit=2, stop on a short page', async () => {
  const api = await startLoopback((req, res) => {
    const offset = Number(new URL(req.url, 'http://x').searchParams.get('offset') ?? 0);
    json(res, { data: ids(offset, offset >= 4 ? 1 : 2) });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/v1/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
        pagination_strategy: { type: 'OffsetIncrement', page_size: 2 },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/v1/items?limit=2', '/v1/items?offset=2&limit=2', '/v1/items?offset=4&limit=2'],
    );
    assert.deepEqual(
      r.slices[0].pages.map((p) => p.records.length),
      [2, 2, 1],
    );
    assert.equal(r.test_read_limit_reached, false);
  } finally {
    await api.close();
  }
});

test('§12.2 PageIncrement from 1, injected: page=1&per_page=100 ... capped at 5 pages with test_read_limit_reached', async () => {
  const api = await startLoopback((_req, res) => json(res, ids(0, 100)));
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/v1/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'per_page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 100, start_from_page: 1, inject_on_first_request: true },
      },
    });
    const r = await testRead(m, {}, 'items', { maxRecords: 1000 });
    assert.deepEqual(
      api.requests.map((q) => q.url),
      [1, 2, 3, 4, 5].map((p) => `/v1/items?page=${p}&per_page=100`),
    );
    assert.equal(r.slices[0].pages.length, 5);
    assert.equal(r.test_read_limit_reached, true);
  } finally {
    await api.close();
  }
});

test('§12.3 next URL in the body with RequestPath: limit=50 is not appended twice; null next stops', async () => {
  const api = await startLoopback((req, res, base) => {
    const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
    if (!cursor) json(res, { results: ids(1, 2), next: `${base}/v1/items?limit=50&cursor=abc` });
    else json(res, { results: ids(3, 1), next: null });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/v1/items`, request_parameters: { limit: '50' } },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['results'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestPath' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: "{{ response.get('next') }}",
          stop_condition: "{{ response.get('next') is none }}",
        },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/v1/items?limit=50', '/v1/items?limit=50&cursor=abc'],
    );
    assert.equal(pathOf(r.slices[0].pages[1].request?.url ?? ''), '/v1/items?limit=50&cursor=abc');
  } finally {
    await api.close();
  }
});

test('§12.4 Link header with a stop condition on the parsed link map', async () => {
  const api = await startLoopback((req, res, base) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 1);
    const link =
      page < 3
        ? `<${base}/v1/items?page=${page + 1}>; rel="next", <${base}/v1/items?page=3>; rel="last"`
        : `<${base}/v1/items?page=3>; rel="last"`;
    json(res, ids(page * 10, 2), { Link: link });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/v1/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestPath' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: "{{ headers['link']['next']['url'] }}",
          stop_condition: "{{ 'next' not in headers['link'] }}",
        },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/v1/items', '/v1/items?page=2', '/v1/items?page=3'],
    );
    assert.equal(r.logs.filter((l) => l.level === 'ERROR').length, 0);
  } finally {
    await api.close();
  }
});

test('§12.7 API key as a query parameter comes after the requester params; the key is masked in the output', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: ids(1, 1) }));
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/v1/items`,
        request_parameters: { fields: 'id' },
        authenticator: {
          type: 'ApiKeyAuthenticator',
          api_token: '{{ config.key }}',
          inject_into: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'api_key' },
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
    });
    m.spec = { type: 'Spec', connection_specification: { type: 'object', properties: { key: { type: 'string', airbyte_secret: true } } } };
    const r = await testRead(m, { key: 'k1-secret' }, 'items');
    assert.equal(api.requests[0].url, '/v1/items?fields=id&api_key=k1-secret');
    assert.equal(pathOf(r.slices[0].pages[0].request?.url ?? ''), '/v1/items?fields=id&api_key=****');
    assert.doesNotMatch(JSON.stringify(r), /k1-secret/);
  } finally {
    await api.close();
  }
});

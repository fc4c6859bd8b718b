// Page-loop behaviours of a test read over loopback: pagination reset, slicer options dropped on paginated
// requests, last_records with its warning, a refresh token kept when the data request then fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { startDemoApi } from '../../../demo/api/server';
import { json, manifestWith, startLoopback } from './loopback';

test('RESET_PAGINATION restarts the slice from its first page once; a second reset fails', async () => {
  const api = await startLoopback((req, res) => {
    const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? 0);
    if (page === 1) return json(res, { error: 'cursor expired' }, {}, 409);
    json(res, { data: page < 2 ? [{ id: page * 2 + 1 }, { id: page * 2 + 2 }] : [] });
  });
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/items`,
        error_handler: {
          type: 'DefaultErrorHandler',
          response_filters: [{ type: 'HttpResponseFilter', action: 'RESET_PAGINATION', http_codes: [409] }],
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 2 },
      },
    });
    const r = await testRead(m, {}, 'items', { maxPagesPerSlice: 10 });
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?page=1', '/items', '/items?page=1'],
    );
    assert.equal(r.slices[0].pages.length, 4);
    assert.match(r.logs.find((l) => l.level === 'ERROR')?.message ?? '', /pagination was reset twice/);
  } finally {
    await api.close();
  }
});

test('ignore_stream_slicer_parameters_on_paginated_requests drops partition options once a token exists', async () => {
  const api = await startLoopback((req, res, base) => {
    const u = new URL(req.url, 'http://x');
    json(res, { data: [{ id: 1 }], next: u.searchParams.get('cursor') ? null : `${base}/items?cursor=2` });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      ignore_stream_slicer_parameters_on_paginated_requests: true,
      partition_router: {
        type: 'ListPartitionRouter',
        cursor_field: 'region',
        values: ['eu'],
        request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'region' },
      },
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
      ['/items?region=eu', '/items?cursor=2'],
    );
    assert.deepEqual(r.slices[0].slice_descriptor, { region: 'eu' });
  } finally {
    await api.close();
  }
});

test('last_records works in cursor templates, with a portability warning', async () => {
  const api = await startLoopback((req, res) => {
    const after = Number(new URL(req.url, 'http://x').searchParams.get('after') ?? 0);
    json(res, { data: after < 4 ? [{ id: after + 1 }, { id: after + 2 }] : [] });
  });
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/items` },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'after' },
        pagination_strategy: {
          type: 'CursorPagination',
          cursor_value: "{{ last_records[-1]['id'] }}",
          stop_condition: '{{ last_records | length == 0 }}',
        },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => q.url),
      ['/items', '/items?after=2', '/items?after=4'],
    );
    assert.match(r.logs.find((l) => l.level === 'WARN')?.message ?? '', /last_records/);
  } finally {
    await api.close();
  }
});

test('a rotated refresh token is written back even when the data request then fails', async () => {
  const api = await startDemoApi();
  try {
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.url}/auth/oauth/items?fail=500`,
        authenticator: {
          type: 'OAuthAuthenticator',
          token_refresh_endpoint: `${api.url}/auth/oauth/token`,
          client_id: 'demo-client',
          client_secret: 'demo-secret',
          refresh_token: 'unused',
          refresh_token_updater: {},
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
    });
    const config = { credentials: { refresh_token: 'demo-refresh-0' } };
    let saved: unknown = null;
    const r = await testRead(
      m,
      config,
      'items',
      {},
      {
        onConfigUpdate: (c) => {
          saved = structuredClone(c);
        },
      },
    );
    assert.match(r.logs.find((l) => l.level === 'ERROR')?.message ?? '', /Exhausted available request attempts/);
    assert.equal(config.credentials.refresh_token, 'demo-refresh-1');
    assert.equal((saved as typeof config).credentials.refresh_token, 'demo-refresh-1');
    assert.notEqual(r.latest_config_update, null);
  } finally {
    await api.close();
  }
});

// The differential harness's synthetic API (pagination shapes of source-jira, -linear and -entra-id are in
// syntheticApiPagination.test.mjs, made-up configs in sampleConfig.test.mjs): the shapes that let a stream reach
// its second page or its partitions (each case was a class of corpus streams compared on one page
// or on nothing before). The API is started on 127.0.0.1 and asked over HTTP, as the runtimes ask it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capPageSizes, MAX_FULL_PAGE, startSyntheticApi } from '../../../scripts/differential/syntheticApi.mjs';

const stream = (name, path, retriever = {}) => ({
  type: 'DeclarativeStream',
  name,
  retriever: {
    type: 'SimpleRetriever',
    requester: { type: 'HttpRequester', url_base: 'http://127.0.0.1:PORT', path, http_method: 'GET' },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['values'] } },
    ...retriever,
  },
});

async function withApi(streams, fn) {
  const api = await startSyntheticApi();
  try {
    const fix = (v) => JSON.parse(JSON.stringify(v).replaceAll('PORT', String(api.port)));
    api.configure({ streams: fix(streams) }, {});
    await fn((path) => fetch(`http://127.0.0.1:${api.port}${path}`).then((r) => r.json()));
  } finally {
    await api.close();
  }
}

test('page sizes above a full page are lowered in PageIncrement and OffsetIncrement only', () => {
  const manifest = {
    a: { type: 'PageIncrement', page_size: 20000 },
    b: [{ type: 'OffsetIncrement', page_size: 5000 }],
    c: { type: 'CursorPagination', page_size: 5000, cursor_value: '{{ response.next }}' },
    d: { type: 'PageIncrement', page_size: 50 },
  };
  const out = capPageSizes(manifest);
  assert.equal(out.a.page_size, MAX_FULL_PAGE);
  assert.equal(out.b[0].page_size, MAX_FULL_PAGE);
  assert.equal(out.c.page_size, 5000);
  assert.equal(out.d.page_size, 50);
  assert.equal(manifest.a.page_size, 20000, 'the input is not changed');
});

test('records carry the literals their record filters keep, taken in turn across streams of one path', async () => {
  const filtered = (name, condition) =>
    stream(name, '/items', {
      record_selector: {
        type: 'RecordSelector',
        extractor: { type: 'DpathExtractor', field_path: ['values'] },
        record_filter: { type: 'RecordFilter', condition },
      },
    });
  await withApi(
    [filtered('files', `{{ record['type'] == "file"}}`), filtered('folders', "{{ record.type in ['folder', 'x'] }}")],
    async (get) => {
      const body = await get('/items');
      assert.deepEqual(
        body.values.map((r) => r.type),
        ['file', 'folder', 'file'],
      );
    },
  );
});

test('a `done` flag says whether the page is the last; Sentry-style links carry results and cursor', async () => {
  const done = {
    type: 'DefaultPaginator',
    page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'iterator' },
    pagination_strategy: {
      type: 'CursorPagination',
      cursor_value: "{{ response.get('iterator', '') }}",
      stop_condition: "{{ response.get('done', False) }}",
    },
  };
  const sentry = {
    type: 'DefaultPaginator',
    page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'cursor' },
    pagination_strategy: {
      type: 'CursorPagination',
      cursor_value: '{{ headers["link"].get("next", {}).get("cursor", {}) }}',
      stop_condition: '{{ headers["link"]["next"]["results"] == "false" }}',
    },
  };
  const api = await startSyntheticApi();
  try {
    const fix = (v) => JSON.parse(JSON.stringify(v).replaceAll('PORT', String(api.port)));
    api.configure({ streams: fix([stream('apps', '/apps', { paginator: done }), stream('events', '/events', { paginator: sentry })]) }, {});
    const get = (path) => fetch(`http://127.0.0.1:${api.port}${path}`);
    assert.equal((await (await get('/apps')).json()).done, false);
    assert.equal((await (await get('/apps?iterator=ptok-3')).json()).done, true);
    assert.match((await get('/events')).headers.get('link'), /rel="next"; results="true"; cursor="ptok-2"/);
    assert.match((await get('/events?cursor=ptok-3')).headers.get('link'), /results="false"; cursor=""/);
  } finally {
    await api.close();
  }
});

test('a field path with two `*` nests one record in each element of the outer list', async () => {
  const s = stream('invoice_details', '/details', {
    record_selector: {
      type: 'RecordSelector',
      extractor: { type: 'DpathExtractor', field_path: ['result', 'clients', '*', 'invoices', '*'] },
    },
  });
  await withApi([s], async (get) => {
    const body = await get('/details');
    assert.equal(body.result.clients.length, 3);
    assert.ok(body.result.clients.every((c) => Array.isArray(c.invoices) && c.invoices.length === 1 && c.invoices[0].id !== undefined));
  });
});

test('a field a transformation parses with an explicit input format is written in that format', async () => {
  const s = stream('pages', '/pages');
  s.transformations = [
    {
      type: 'AddFields',
      fields: [
        { path: ['created_at_utc'], value: "{{ format_datetime(record['createdAt'], '%Y-%m-%dT%H:%M:%S', '%a, %d %b %Y %H:%M:%S %z') }}" },
      ],
    },
  ];
  await withApi([s], async (get) => {
    const body = await get('/pages');
    assert.match(body.values[0].createdAt, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
  });
});

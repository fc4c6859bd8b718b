// The synthesized API of the differential harness must let a paginating stream reach page 2, or the
// comparison stops at one page ("identical, shallow"). Cases found on the corpus: a cursor computed from an
// offset the API reports (source-jira), and a route whose path `/` adds a trailing slash that never reaches
// the API (source-linear's GraphQL streams got 404 on both sides).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSyntheticApi } from '../../../scripts/differential/syntheticApi.mjs';

const stream = (name, requester, paginator, fieldPath) => ({
  type: 'DeclarativeStream',
  name,
  retriever: {
    type: 'SimpleRetriever',
    requester,
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: fieldPath } },
    paginator,
  },
});

async function get(api, path, init) {
  const res = await fetch(`http://127.0.0.1:${api.port}${path}`, init);
  return { status: res.status, body: await res.json() };
}

test('a cursor computed from startAt + maxResults, stopping at isLast or total, pages through three pages (source-jira)', async () => {
  const api = await startSyntheticApi();
  try {
    const paginator = {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'startAt' },
      pagination_strategy: {
        type: 'CursorPagination',
        cursor_value: "{{ response.get('startAt') + response['maxResults'] }}",
        stop_condition: "{{ response.get('isLast') or response.get('startAt') + response.get('maxResults') >= response.get('total') }}",
        page_size: 50,
      },
    };
    const requester = { type: 'HttpRequester', url_base: `http://127.0.0.1:${api.port}/h/x.atlassian.net`, path: '/rest/board' };
    api.configure({ streams: [stream('boards', requester, paginator, ['values'])] }, {});
    const first = await get(api, '/h/x.atlassian.net/rest/board');
    assert.equal(first.body.values.length, 50);
    assert.deepEqual([first.body.startAt, first.body.maxResults, first.body.isLast], [0, 50, false]);
    assert.ok(first.body.startAt + first.body.maxResults < first.body.total);
    const second = await get(api, '/h/x.atlassian.net/rest/board?startAt=50');
    assert.deepEqual([second.body.startAt, second.body.isLast], [50, false]);
    const third = await get(api, '/h/x.atlassian.net/rest/board?startAt=100');
    assert.equal(third.body.isLast, true);
  } finally {
    await api.close();
  }
});

test("a route whose path is '/' answers the url_base without a trailing slash (source-linear's GraphQL)", async () => {
  const api = await startSyntheticApi();
  try {
    const requester = {
      type: 'HttpRequester',
      url_base: `http://127.0.0.1:${api.port}/h/api.linear.app/graphql`,
      path: '/',
      http_method: 'POST',
      request_body_json: { query: 'query Users { users { nodes { id } } }' },
    };
    api.configure({ streams: [stream('users', requester, null, ['data', 'users', 'nodes'])] }, {});
    const answer = await get(api, '/h/api.linear.app/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Users { users { nodes { id } } }' }),
    });
    assert.equal(answer.status, 200);
    assert.ok(answer.body.data.users.nodes.length > 0);
  } finally {
    await api.close();
  }
});

test('a cursor that cuts the token out of a link with regex_search gets a link holding it (source-microsoft-entra-id)', async () => {
  const api = await startSyntheticApi();
  try {
    const paginator = {
      type: 'DefaultPaginator',
      page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: '$skiptoken' },
      pagination_strategy: {
        type: 'CursorPagination',
        cursor_value: `{{ response.get("@odata.nextLink") | regex_search('\\$skiptoken=([^&]+)') }}`,
        stop_condition: '{{ response.get("@odata.nextLink") is none }}',
      },
    };
    const requester = { type: 'HttpRequester', url_base: `http://127.0.0.1:${api.port}/h/graph.microsoft.com/v1.0`, path: '/users' };
    api.configure({ streams: [stream('users', requester, paginator, ['value'])] }, {});
    const first = await get(api, '/h/graph.microsoft.com/v1.0/users');
    const link = first.body['@odata.nextLink'];
    assert.equal(/\$skiptoken=([^&]+)/.exec(link)?.[1], 'ptok-2');
    const second = await get(api, '/h/graph.microsoft.com/v1.0/users?%24skiptoken=ptok-2');
    assert.equal(/\$skiptoken=([^&]+)/.exec(second.body['@odata.nextLink'])?.[1], 'ptok-3');
  } finally {
    await api.close();
  }
});

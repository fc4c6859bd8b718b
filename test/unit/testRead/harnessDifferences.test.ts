// Differences from the reference CDK found by the differential harness (issue 13, docs/fidelity.md), each
// read end to end over a loopback API on 127.0.0.1: the requests, slices and state must be the reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { json, manifestWith, startLoopback } from './loopback';

const selectData = { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } };

/** A parent stream `projects` paginated by `?page=N`, `perPage` records a page, `pages` pages. */
function pagedParent(base: string) {
  return {
    type: 'DeclarativeStream',
    name: 'projects',
    retriever: {
      type: 'SimpleRetriever',
      requester: { type: 'HttpRequester', url: `${base}/projects` },
      record_selector: selectData,
      paginator: {
        type: 'DefaultPaginator',
        page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'page' },
        pagination_strategy: { type: 'PageIncrement', page_size: 2, start_from_page: 1 },
      },
    },
  };
}

/** Projects p1…p8, two a page; children answer one record. */
async function projectsApi() {
  return startLoopback((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/projects') {
      const page = Number(u.searchParams.get('page') ?? '1');
      const ids = [2 * page - 1, 2 * page].filter((n) => n <= 8).map((n) => ({ id: `p${n}` }));
      return json(res, { data: ids });
    }
    json(res, { data: [{ id: u.pathname }] });
  });
}

test('harness: a partition_router written as a one-element list is a cartesian product, read in full before the first child request (source-launchdarkly, source-clockify)', async () => {
  const api = await projectsApi();
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/projects/{{ stream_partition.project_id }}/items` },
      record_selector: selectData,
      partition_router: [
        { type: 'SubstreamPartitionRouter', parent_stream_configs: [{ type: 'ParentStreamConfig', stream: pagedParent(api.base), parent_key: 'id', partition_field: 'project_id' }] },
      ],
    });
    const r = await testRead(m, {}, 'items', { maxSlices: 3, maxPagesPerSlice: 3 });
    // itertools.product materialises the router: every parent page (up to the page limit) comes first.
    assert.deepEqual(api.requests.map((q) => q.url), [
      '/projects', '/projects?page=2', '/projects?page=3',
      '/projects/p1/items', '/projects/p2/items', '/projects/p3/items',
    ]);
    assert.deepEqual(r.slices.map((s) => s.slice_descriptor), [
      { project_id: 'p1', parent_slice: {} }, { project_id: 'p2', parent_slice: {} }, { project_id: 'p3', parent_slice: {} },
    ]);
    assert.equal(r.auxiliary_requests.filter((a) => a.type === 'PARENT_STREAM').length, 3);
  } finally {
    await api.close();
  }
});

test('harness: a single substream router looks one parent record ahead, so a page boundary fetches the next parent page first (source-algolia)', async () => {
  const api = await projectsApi();
  try {
    const m = manifestWith({
      requester: { type: 'HttpRequester', url: `${api.base}/projects/{{ stream_partition.project_id }}/items` },
      record_selector: selectData,
      partition_router: { type: 'SubstreamPartitionRouter', parent_stream_configs: [{ type: 'ParentStreamConfig', stream: pagedParent(api.base), parent_key: 'id', partition_field: 'project_id' }] },
    });
    const r = await testRead(m, {}, 'items', { maxSlices: 4, maxPagesPerSlice: 5 });
    // p4 is the last record of page 2: to know it is, the router fetches page 3 before p4's partition is
    // used; the slice limit (islice) then stops without using p5. Every slice is planned before the first
    // data request (one worker), so the parent pages come first.
    assert.deepEqual(api.requests.map((q) => q.url), [
      '/projects', '/projects?page=2', '/projects?page=3',
      '/projects/p1/items', '/projects/p2/items', '/projects/p3/items', '/projects/p4/items',
    ]);
    assert.equal(r.slices.length, 4);
  } finally {
    await api.close();
  }
});

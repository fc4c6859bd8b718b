// GroupingPartitionRouter over loopback: batches of a ListPartitionRouter's values (deduplicated by
// default), grouped values as lists in templates and slice descriptors, nothing injected, and the
// build errors for request options and bad group sizes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testRead } from '../../../server/src/runtime';
import { json, manifestWith, startLoopback } from './loopback';

function grouped(base: string, router: Record<string, unknown>) {
  return manifestWith({
    requester: {
      type: 'HttpRequester',
      url: `${base}/boards`,
      request_parameters: { ids: "{{ stream_partition.board_ids | join(',') }}" },
    },
    record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
    partition_router: router,
  });
}

const list = (values: string[], extra: Record<string, unknown> = {}) => ({
  type: 'ListPartitionRouter',
  cursor_field: 'board_ids',
  values,
  ...extra,
});

test('partitions are batched by group_size, duplicates dropped, the last group may be short', async () => {
  const api = await startLoopback((req, res) => {
    const ids = (new URL(req.url, 'http://x').searchParams.get('ids') ?? '').split(',').filter(Boolean);
    json(res, { data: ids.map((id) => ({ id })) });
  });
  try {
    const r = await testRead(
      grouped(api.base, {
        type: 'GroupingPartitionRouter',
        group_size: 2,
        underlying_partition_router: list(['a', 'b', 'c', 'a', 'd', 'e']),
      }),
      {},
      'items',
    );
    assert.deepEqual(
      api.requests.map((q) => decodeURIComponent(q.url)),
      ['/boards?ids=a,b', '/boards?ids=c,d', '/boards?ids=e'],
    );
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [{ board_ids: ['a', 'b'] }, { board_ids: ['c', 'd'] }, { board_ids: ['e'] }],
    );
    assert.deepEqual(
      r.slices.flatMap((s) => s.pages[0].records.map((x) => x.id)),
      ['a', 'b', 'c', 'd', 'e'],
    );
  } finally {
    await api.close();
  }
});

test('deduplicate: false keeps repeated partitions', async () => {
  const api = await startLoopback((_req, res) => json(res, { data: [] }));
  try {
    const r = await testRead(
      grouped(api.base, {
        type: 'GroupingPartitionRouter',
        group_size: 2,
        deduplicate: false,
        underlying_partition_router: list(['a', 'b', 'a', 'c']),
      }),
      {},
      'items',
    );
    assert.deepEqual(
      r.slices.map((s) => s.slice_descriptor),
      [{ board_ids: ['a', 'b'] }, { board_ids: ['a', 'c'] }],
    );
  } finally {
    await api.close();
  }
});

test('substream partitions: parent_slice and extra fields become lists; the parent is read once', async () => {
  const api = await startLoopback((req, res) => {
    if (req.url === '/campaigns')
      return json(res, {
        data: [
          { Id: 1, AccountId: 'x' },
          { Id: 2, AccountId: 'y' },
          { Id: 3, AccountId: 'z' },
        ],
      });
    json(res, { data: [{ id: req.url }] });
  });
  try {
    const parent = {
      type: 'DeclarativeStream',
      name: 'campaigns',
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${api.base}/campaigns` },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
    };
    const m = manifestWith({
      requester: {
        type: 'HttpRequester',
        url: `${api.base}/ad_groups`,
        request_parameters: {
          campaign: '{{ stream_partition.campaign_id[0] }}',
          account: "{{ stream_slice.extra_fields['AccountId'] | join('+') }}",
        },
      },
      record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      partition_router: {
        type: 'GroupingPartitionRouter',
        group_size: 2,
        underlying_partition_router: {
          type: 'SubstreamPartitionRouter',
          parent_stream_configs: [
            { type: 'ParentStreamConfig', stream: parent, parent_key: 'Id', partition_field: 'campaign_id', extra_fields: [['AccountId']] },
          ],
        },
      },
    });
    const r = await testRead(m, {}, 'items');
    assert.deepEqual(
      api.requests.map((q) => decodeURIComponent(q.url)),
      ['/campaigns', '/ad_groups?campaign=1&account=x+y', '/ad_groups?campaign=3&account=z'],
    );
    assert.deepEqual(r.slices[0].slice_descriptor, { campaign_id: [1, 2], parent_slice: [{}, {}] });
    assert.equal(r.auxiliary_requests.filter((a) => a.type === 'PARENT_STREAM').length, 1);
  } finally {
    await api.close();
  }
});

test('build errors: request options on the underlying router, group_size below 1', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      {
        type: 'GroupingPartitionRouter',
        group_size: 2,
        underlying_partition_router: list(['a'], {
          request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'id' },
        }),
      },
      /request options of the underlying partition router are not supported/,
    ],
    [
      { type: 'GroupingPartitionRouter', group_size: 0, underlying_partition_router: list(['a']) },
      /group_size must be an integer of at least 1; got 0/,
    ],
    [{ type: 'GroupingPartitionRouter', group_size: 2 }, /requires underlying_partition_router/],
  ];
  for (const [router, message] of cases) {
    await assert.rejects(testRead(grouped('http://127.0.0.1:9', router), {}, 'items'), (e: Error & { failureType?: string }) => {
      assert.equal(e.failureType, 'config_error');
      assert.match(e.message, message);
      return true;
    });
  }
});

// The incremental check's state rules on their own: the CDK state shapes (reference-incremental.md §6.3)
// per layout, and a state that moves backwards — the cursor value, a partition, the global state and a
// parent's state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeIncrementalStream } from '../../../server/src/runtime/incremental/incrementalStream';
import { stateShapeProblems } from '../../../server/src/runtime/incremental/stateShape';
import { stateRegressions } from '../../../server/src/runtime/incremental/stateOrder';

const cursor = {
  type: 'DatetimeBasedCursor',
  cursor_field: 'updated_at',
  datetime_format: '%Y-%m-%d',
  start_datetime: '2024-01-01',
  lookback_window: 'P1D',
};
const retriever = (router?: unknown) => ({
  type: 'SimpleRetriever',
  requester: { type: 'HttpRequester', url: 'http://127.0.0.1:9/x' },
  record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: [] } },
  ...(router ? { partition_router: router } : {}),
});
const parent = {
  type: 'DeclarativeStream',
  name: 'projects',
  incremental_sync: { ...cursor, cursor_field: 'modified' },
  retriever: retriever(),
};
const model = (stream: Record<string, unknown>) => describeIncrementalStream({}, { type: 'DeclarativeStream', name: 's', ...stream }, {});

test('single cursor: a string in datetime_format; a number or another format is named', () => {
  const m = model({ incremental_sync: cursor, retriever: retriever() });
  assert.equal(m.layout, 'single');
  assert.equal(m.lookbackWindow, 'P1D');
  assert.deepEqual(stateShapeProblems(m, { updated_at: '2024-02-01' }), []);
  assert.deepEqual(stateShapeProblems(m, { updated_at: 20240201 }), [
    'state.updated_at is 20240201: the CDK writes a datetime cursor value as a string formatted with %Y-%m-%d',
  ]);
  assert.deepEqual(stateShapeProblems(m, { updated_at: '2024-02-01T00:00:00Z' }), [
    'state.updated_at = "2024-02-01T00:00:00Z" does not parse with %Y-%m-%d',
  ]);
  // The lookback: a record a day before the state is still allowed.
  const bound = m.lowerBound(m.parse('2024-02-10')!, 0);
  assert.equal(m.show(bound), '2024-02-09');
});

test('per partition: keys, use_global_cursor, sorted partition keys, parent_slice, parent_state parents', () => {
  const router = {
    type: 'SubstreamPartitionRouter',
    parent_stream_configs: [
      { type: 'ParentStreamConfig', stream: parent, parent_key: 'id', partition_field: 'pid', incremental_dependency: true },
    ],
  };
  const m = model({ incremental_sync: cursor, retriever: retriever(router) });
  assert.equal(m.layout, 'per_partition');
  assert.deepEqual(
    m.parents.map((p) => [p.stream, p.cursorField]),
    [['projects', 'modified']],
  );
  const good = {
    use_global_cursor: false,
    states: [{ partition: { parent_slice: {}, pid: 'p1' }, cursor: { updated_at: '2024-01-05' } }],
    state: { updated_at: '2024-01-05' },
    lookback_window: 2,
    parent_state: { projects: { modified: '2024-01-03' } },
  };
  assert.deepEqual(stateShapeProblems(m, good), []);
  const bad = {
    use_global_cursor: true,
    states: [{ partition: { pid: 'p1' }, cursor: { updated_at: '2024-01-05' } }],
    lookback_window: 1.5,
    parent_state: { other: {} },
    extra: 1,
  };
  assert.deepEqual(stateShapeProblems(m, bad), [
    'unexpected key "extra" in a per-partition state (the CDK writes use_global_cursor, states, state, lookback_window, parent_state)',
    'use_global_cursor must be false, got true',
    'lookback_window must be a whole number of seconds, got 1.5',
    'states[0].partition has no parent_slice (a substream partition carries one)',
    'parent_state has "other", which is not an incremental_dependency parent (projects)',
  ]);
  assert.deepEqual(
    stateShapeProblems(m, { ...good, states: [{ partition: { pid: 'p1', parent_slice: {} }, cursor: { updated_at: '2024-01-05' } }] }),
    ['states[0].partition {"pid":"p1","parent_slice":{}} has its keys out of order (the CDK sorts them)'],
  );
});

test('list router: no parent_state; a global cursor has no states', () => {
  const list = model({ incremental_sync: cursor, retriever: retriever({ type: 'ListPartitionRouter', cursor_field: 'r', values: ['a'] }) });
  assert.deepEqual(stateShapeProblems(list, { use_global_cursor: false, states: [], lookback_window: 0, parent_state: {} }), [
    "parent_state is only kept for a single SubstreamPartitionRouter (this stream's routers: ListPartitionRouter)",
  ]);
  const global = model({
    incremental_sync: { ...cursor, global_substream_cursor: true },
    retriever: retriever({ type: 'ListPartitionRouter', cursor_field: 'r', values: ['a'] }),
  });
  assert.equal(global.layout, 'global');
  assert.deepEqual(stateShapeProblems(global, { use_global_cursor: true, state: { updated_at: '2024-01-02' }, lookback_window: 0 }), []);
  assert.deepEqual(stateShapeProblems(global, { use_global_cursor: true, states: [], lookback_window: 0 }), [
    'a global state has no "states" list',
  ]);
});

test('a state that moves backwards is named, each place it does', () => {
  const router = {
    type: 'SubstreamPartitionRouter',
    parent_stream_configs: [
      { type: 'ParentStreamConfig', stream: parent, parent_key: 'id', partition_field: 'pid', incremental_dependency: true },
    ],
  };
  const m = model({ incremental_sync: cursor, retriever: retriever(router) });
  const before = {
    use_global_cursor: false,
    states: [{ partition: { parent_slice: {}, pid: 'p1' }, cursor: { updated_at: '2024-01-05' } }],
    state: { updated_at: '2024-01-05' },
    lookback_window: 1,
    parent_state: { projects: { modified: '2024-01-03' } },
  };
  assert.deepEqual(stateRegressions(m, before, before), []);
  const after = {
    ...before,
    states: [{ partition: { pid: 'p1', parent_slice: {} }, cursor: { updated_at: '2024-01-04' } }],
    state: { updated_at: '2024-01-02' },
    parent_state: { projects: { modified: '2024-01-01' } },
  };
  assert.deepEqual(stateRegressions(m, before, after), [
    'state.updated_at: "2024-01-05" → "2024-01-02"',
    'partition {"parent_slice":{},"pid":"p1"}: "2024-01-05" → "2024-01-04"',
    'parent_state.projects.modified: "2024-01-03" → "2024-01-01"',
  ]);
  const single = model({ incremental_sync: cursor, retriever: retriever() });
  assert.deepEqual(stateRegressions(single, { updated_at: '2024-01-05' }, { updated_at: '2024-01-06' }), []);
  assert.deepEqual(stateRegressions(single, { updated_at: '2024-01-05' }, { updated_at: '2024-01-01' }), [
    'updated_at: "2024-01-05" → "2024-01-01"',
  ]);
});

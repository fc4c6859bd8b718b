// The input-state form's model: the CDK state shapes from the form and back (single cursor, count,
// per partition with rows pre-filled from the last read, global, parent state), datetimes written in the
// cursor's own format, and typed values checked against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cursorValueProblem,
  formFromState,
  formatDatetime,
  formatPattern,
  stateFromForm,
} from '../../../client/src/incremental/stateFormModel';
import type { IncrementalStream } from '../../../server/src/protocol';

const base: IncrementalStream = {
  stream: 'events',
  kind: 'datetime',
  cursorField: 'updated_at',
  datetimeFormat: '%Y-%m-%dT%H:%M:%SZ',
  parseFormats: ['%Y-%m-%dT%H:%M:%SZ'],
  lookbackWindow: null,
  startKey: 'start_time',
  endKey: 'end_time',
  start: '2024-01-01T00:00:00Z',
  layout: 'single',
  routers: [],
  parents: [],
  hasParentState: false,
  isClientSideIncremental: false,
  isDataFeed: false,
};

test('single cursor: the state is {cursor_field: value}; empty is no state; a value in another format is named', () => {
  const form = formFromState(base, { updated_at: '2024-01-05T03:00:00Z' });
  assert.equal(form.value, '2024-01-05T03:00:00Z');
  assert.deepEqual(stateFromForm(base, form), { state: { updated_at: '2024-01-05T03:00:00Z' } });
  assert.deepEqual(stateFromForm(base, { ...form, value: ' ' }), { state: null });
  assert.deepEqual(stateFromForm(base, { ...form, value: '2024-01-05' }), {
    problems: ["updated_at: not in the cursor's format %Y-%m-%dT%H:%M:%SZ (e.g. 2024-01-01T00:00:00Z)"],
  });
});

test('count cursor: a number', () => {
  const count: IncrementalStream = { ...base, kind: 'count', cursorField: 'id', datetimeFormat: null, parseFormats: [] };
  assert.deepEqual(stateFromForm(count, { ...formFromState(count, null), value: '42' }), { state: { id: 42 } });
  assert.equal(cursorValueProblem(count, '4.2'), 'a whole number');
});

test("per partition: rows from the state plus the last read's partitions, keys sorted; the CDK shape back", () => {
  const pp: IncrementalStream = { ...base, layout: 'per_partition', routers: ['ListPartitionRouter'] };
  const state = {
    use_global_cursor: false,
    states: [{ partition: { region: 'eu' }, cursor: { updated_at: '2024-01-02T00:00:00Z' } }],
    state: { updated_at: '2024-01-03T00:00:00Z' },
    lookback_window: 3600,
  };
  const form = formFromState(pp, state, [{ region: 'eu' }, { region: 'us' }]);
  assert.deepEqual(form.rows, [
    { partition: '{"region":"eu"}', value: '2024-01-02T00:00:00Z' },
    { partition: '{"region":"us"}', value: '' },
  ]);
  assert.equal(form.value, '2024-01-03T00:00:00Z');
  assert.equal(form.lookbackSeconds, 3600);
  form.rows[1].value = '2024-01-04T00:00:00Z';
  assert.deepEqual(stateFromForm(pp, form), {
    state: {
      use_global_cursor: false,
      states: [
        { partition: { region: 'eu' }, cursor: { updated_at: '2024-01-02T00:00:00Z' } },
        { partition: { region: 'us' }, cursor: { updated_at: '2024-01-04T00:00:00Z' } },
      ],
      state: { updated_at: '2024-01-03T00:00:00Z' },
      lookback_window: 3600,
    },
  });
  const sorted = formFromState(pp, null, [{ project_id: 'p1', parent_slice: {} }]);
  assert.equal(sorted.rows[0].partition, '{"parent_slice":{},"project_id":"p1"}');
});

test('global cursor with parent state (incremental_dependency)', () => {
  const g: IncrementalStream = {
    ...base,
    layout: 'global',
    routers: ['SubstreamPartitionRouter'],
    hasParentState: true,
    parents: [{ stream: 'projects', cursorField: 'updated_at', datetimeFormat: '%Y-%m-%d' }],
  };
  const form = formFromState(g, null);
  assert.deepEqual(form.parents, { projects: '' });
  form.value = '2024-02-01T00:00:00Z';
  form.parents.projects = '{"updated_at": "2024-01-31"}';
  assert.deepEqual(stateFromForm(g, form), {
    state: {
      use_global_cursor: true,
      state: { updated_at: '2024-02-01T00:00:00Z' },
      lookback_window: 0,
      parent_state: { projects: { updated_at: '2024-01-31' } },
    },
  });
  form.parents.projects = '[1]';
  assert.deepEqual(stateFromForm(g, form), { problems: ['parent state of projects: a JSON object, e.g. {"updated_at": "…"}'] });
});

test("datetimes in the cursor's own format: strftime, epoch and %_ms formats", () => {
  const d = new Date(Date.UTC(2024, 1, 29, 13, 4, 5, 678));
  assert.equal(formatDatetime(d, '%Y-%m-%dT%H:%M:%SZ'), '2024-02-29T13:04:05Z');
  assert.equal(formatDatetime(d, '%Y-%m-%dT%H:%M:%S.%fZ'), '2024-02-29T13:04:05.678000Z');
  assert.equal(formatDatetime(d, '%Y-%m-%dT%H:%M:%S.%_msZ'), '2024-02-29T13:04:05.678Z');
  assert.equal(formatDatetime(d, '%s'), '1709211845');
  assert.equal(formatDatetime(d, '%ms'), '1709211845678');
  assert.equal(formatDatetime(d, '%d %b %Y'), '29 Feb 2024');
  assert.ok(formatPattern('%Y-%m-%dT%H:%M:%S%z').test('2024-02-29T13:04:05+00:00'));
  assert.ok(!formatPattern('%Y-%m-%d').test('2024-02-29T13:04:05Z'));
});

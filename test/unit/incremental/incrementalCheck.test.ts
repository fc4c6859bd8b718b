// The incremental check (`connector-manifest incremental-check` and the engine behind it) on real reads:
// the demo's incremental streams hold; loopback APIs that ignore the start parameter, per partition or
// not, fail with the offending records and requests named; per-partition, global and parent states are
// checked against the shape the CDK writes; a count cursor; a stream without incremental_sync exits 2.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { incrementalCheck } from '../../../server/src/runtime/incremental/incrementalCheck';
import { json, startLoopback } from '../testRead/loopback';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
let api: DemoApi;
let dir: string;
before(async () => {
  api = await startDemoApi();
  dir = mkdtempSync(join(tmpdir(), 'incremental-check-'));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const demoConfig = () =>
  file(
    `config-${Math.random().toString(36).slice(2)}.json`,
    JSON.stringify({ url_base: api.url, start_date: '2024-01-01T00:00:00Z', page_size: 50 }),
  );

for (const [manifest, stream] of [
  ['partitions.yaml', 'events'],
  ['pagination-reset.yaml', 'items_split_by_limit'],
  ['pagination-reset.yaml', 'items_split_on_error'],
]) {
  test(`the demo's ${stream} (${manifest}) holds: exit 0, three reads, the state moves on`, async () => {
    const r = await run([
      'incremental-check',
      `demo/workspace/${manifest}`,
      '--stream',
      stream,
      '--config',
      demoConfig(),
      '--format',
      'json',
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.holds, true);
    assert.deepEqual(report.violations, []);
    assert.equal(report.reads.length, 3);
    const field = report.cursor.cursorField;
    const values = report.reads.map((x: { final_state: Record<string, string> }) => x.final_state[field]);
    assert.ok(values[0] < values[1] && values[1] <= values[2], `states move on: ${values.join(' → ')}`);
    assert.ok(report.checks.every((c: { holds: boolean }) => c.holds));
  });
}

test('the pretty output says what each read did and that the sync holds', async () => {
  const r = await run(['incremental-check', 'demo/workspace/partitions.yaml', '--stream', 'events', '--config', demoConfig()]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Incremental check of stream 'events': DatetimeBasedCursor on created_at \(%Y-%m-%dT%H:%M:%SZ\)$/m);
  assert.match(
    r.stdout,
    /read 2 \(from read 1's final state\): 100 records, 5 pages, 5 slices → state \{"created_at":"2024-01-09T06:00:00Z"\}/,
  );
  assert.match(r.stdout, /✓ read 3 asks for no data older than read 2's state/);
  assert.match(r.stdout, /Incremental sync holds\.$/m);
});

test('a stream without incremental_sync exits 2; bad arguments exit 2', async () => {
  const r = await run(['incremental-check', 'demo/workspace/partitions.yaml', '--stream', 'parents', '--config', demoConfig()]);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /Stream 'parents' is not incremental/);
  assert.equal((await run(['incremental-check', 'demo/workspace/partitions.yaml', '--config', demoConfig()])).code, 2);
  const unknown = await run(['incremental-check', 'demo/workspace/partitions.yaml', '--stream', 'nope', '--config', demoConfig()]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Stream 'nope' is not defined/);
});

/** Hourly events from 2024-01-01T00:00:00Z, id 1…n; filtered by `start`/`end` unless `ignoreStart`. */
function eventsApi(options: { ignoreStart?: boolean | ((region: string | null) => boolean); count?: number } = {}) {
  return startLoopback((req, res) => {
    const url = new URL(req.url, 'http://x');
    const region = url.searchParams.get('region');
    const start = Date.parse(url.searchParams.get('start') ?? '') || 0;
    const end = Date.parse(url.searchParams.get('end') ?? '') || Number.MAX_SAFE_INTEGER;
    const ignore = typeof options.ignoreStart === 'function' ? options.ignoreStart(region) : options.ignoreStart === true;
    const out = [];
    for (let i = 0; i < (options.count ?? 60); i++) {
      const t = Date.UTC(2024, 0, 1) + i * 3_600_000;
      if ((ignore || t >= start) && t <= end) out.push({ id: i + 1, region, updated_at: new Date(t).toISOString().replace('.000Z', 'Z') });
    }
    json(res, { data: out });
  });
}

function eventsManifest(extra: { router?: unknown; incremental?: Record<string, unknown> } = {}): string {
  return stringify({
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['events'] },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 'events',
        primary_key: ['id'],
        incremental_sync: {
          type: 'DatetimeBasedCursor',
          cursor_field: 'updated_at',
          datetime_format: '%Y-%m-%dT%H:%M:%SZ',
          start_datetime: '2024-01-01T00:00:00Z',
          end_datetime: '2024-01-04T00:00:00Z',
          step: 'P1D',
          cursor_granularity: 'PT1S',
          start_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'start' },
          end_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'end' },
          ...extra.incremental,
        },
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url: "{{ config['base'] }}/events" },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
          ...(extra.router ? { partition_router: extra.router } : {}),
        },
      },
    ],
  });
}

test('an API that ignores the start parameter fails with exit 1, naming the offending records and requests', async () => {
  const server = await eventsApi({ ignoreStart: true });
  try {
    const manifest = file('ignores-start.yaml', eventsManifest());
    const config = file('ignores-start.json', JSON.stringify({ base: server.base }));
    const r = await run(['incremental-check', manifest, '--stream', 'events', '--config', config, '--max-slices', '2']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /✗ the records of reads 2 and 3 lie at or after their input state/);
    assert.match(
      r.stdout,
      /VIOLATION records-before-state: read 2 returned \d+ records older than its input state allows \(updated_at before 2024-01-02T23:00:00Z\)/,
    );
    // The first offending record, by primary key and cursor value, with the request that returned it.
    assert.match(
      r.stdout,
      new RegExp(
        `record id=1 updated_at="2024-01-01T00:00:00Z" < 2024-01-02T23:00:00Z \\(read 2, slice 1, page 1: GET ${server.base.replace(/[.]/g, '\\.')}/events\\?start=2024-01-02T23%3A00%3A00Z&end=`,
      ),
    );
    assert.match(r.stdout, /… and \d+ more/);
    assert.match(r.stdout, /Incremental sync is broken/);
  } finally {
    await server.close();
  }
});

test('a missing start_time_option: the records check fails and a warning says the start is not sent', async () => {
  const server = await eventsApi();
  try {
    const manifest = file(
      'no-start-option.yaml',
      eventsManifest({
        incremental: { start_time_option: undefined, end_time_option: undefined, step: undefined, cursor_granularity: undefined },
      }),
    );
    const report = await incrementalCheck(parseYaml(manifest), { base: server.base }, 'events');
    assert.equal(report.holds, false);
    const v = report.violations.find((x) => x.rule === 'records-before-state');
    assert.ok(v, JSON.stringify(report.violations));
    assert.equal(v.records[0].key, 'id=1');
    assert.ok(
      report.warnings.some((w) => /read 2: no request of the slice starting 2024-01-03T11:00:00Z carries that start/.test(w)),
      report.warnings.join('\n'),
    );
  } finally {
    await server.close();
  }
});

test('per partition: the state has the CDK shape; a partition whose API ignores the start is named', async () => {
  const router = {
    type: 'ListPartitionRouter',
    cursor_field: 'region',
    values: ['eu', 'us'],
    request_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'region' },
  };
  const good = await eventsApi();
  const bad = await eventsApi({ ignoreStart: (region) => region === 'us' });
  try {
    const manifest = parseYaml(file('partitioned.yaml', eventsManifest({ router })));
    const ok = await incrementalCheck(manifest, { base: good.base }, 'events', { limits: { maxSlices: 6, maxRecords: 500 } });
    assert.equal(ok.holds, true, JSON.stringify(ok.violations));
    assert.equal(ok.cursor?.layout, 'per_partition');
    const state = ok.reads[0].final_state as Record<string, unknown>;
    assert.deepEqual(Object.keys(state), ['use_global_cursor', 'states', 'state', 'lookback_window']);
    assert.deepEqual(
      (state.states as Array<{ partition: unknown }>).map((s) => s.partition),
      [{ region: 'eu' }, { region: 'us' }],
    );

    const broken = await incrementalCheck(manifest, { base: bad.base }, 'events', { limits: { maxSlices: 6 } });
    const v = broken.violations.find((x) => x.rule === 'records-before-state');
    assert.ok(v, JSON.stringify(broken.violations));
    assert.ok(v.records.length > 0);
    for (const r of v.records) assert.match(r.request, /region=us/);
  } finally {
    await good.close();
    await bad.close();
  }
});

test('a substream with incremental_dependency keeps parent_state; the shape check accepts it', async () => {
  const server = await startLoopback((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/projects') {
      const start = Date.parse(url.searchParams.get('since') ?? '') || 0;
      json(res, {
        data: [1, 2].map((i) => ({ id: `p${i}`, updated_at: `2024-01-0${i}T00:00:00Z` })).filter((p) => Date.parse(p.updated_at) >= start),
      });
      return;
    }
    const start = Date.parse(url.searchParams.get('start') ?? '') || 0;
    json(res, {
      data: [0, 1, 2]
        .map((h) => ({ id: `${url.pathname}-${h}`, updated_at: `2024-01-01T0${h}:00:00Z` }))
        .filter((r) => Date.parse(r.updated_at) >= start),
    });
  });
  try {
    const parent = {
      type: 'DeclarativeStream',
      name: 'projects',
      primary_key: ['id'],
      incremental_sync: {
        type: 'DatetimeBasedCursor',
        cursor_field: 'updated_at',
        datetime_format: '%Y-%m-%dT%H:%M:%SZ',
        start_datetime: '2024-01-01T00:00:00Z',
        start_time_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'since' },
      },
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: "{{ config['base'] }}/projects" },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
    };
    const router = {
      type: 'SubstreamPartitionRouter',
      parent_stream_configs: [
        { type: 'ParentStreamConfig', stream: parent, parent_key: 'id', partition_field: 'project_id', incremental_dependency: true },
      ],
    };
    const manifest = parseYaml(
      file(
        'substream.yaml',
        eventsManifest({ router, incremental: { step: undefined, cursor_granularity: undefined, end_datetime: '2024-01-03T00:00:00Z' } }),
      ),
    );
    const report = await incrementalCheck(manifest, { base: server.base }, 'events');
    assert.deepEqual(report.violations, []);
    assert.deepEqual(
      report.cursor?.parents.map((p) => p.stream),
      ['projects'],
    );
    const state = report.reads[0].final_state as {
      parent_state?: Record<string, unknown>;
      states?: Array<{ partition: Record<string, unknown> }>;
    };
    assert.deepEqual(state.parent_state, { projects: { updated_at: '2024-01-02T00:00:00Z' } });
    assert.deepEqual(Object.keys(state.states?.[0].partition ?? {}), ['parent_slice', 'project_id']);
  } finally {
    await server.close();
  }
});

test('an input state of the wrong shape is reported (state-shape) and the check goes on', async () => {
  const server = await eventsApi();
  try {
    const manifest = parseYaml(
      file('shape.yaml', eventsManifest({ router: { type: 'ListPartitionRouter', cursor_field: 'region', values: ['eu'] } })),
    );
    const report = await incrementalCheck(manifest, { base: server.base }, 'events', {
      initialState: {
        use_global_cursor: false,
        states: [{ partition: { region: 'eu' }, cursor: { updated_at: 1704067200 } }],
        lookback_window: 0,
      },
    });
    const v = report.violations.find((x) => x.rule === 'state-shape');
    assert.ok(v, JSON.stringify(report.violations));
    assert.match(
      v.message,
      /input state: states\[0\]\.cursor\.updated_at is 1704067200: the CDK writes a datetime cursor value as a string formatted with %Y-%m-%dT%H:%M:%SZ/,
    );
  } finally {
    await server.close();
  }
});

test('an IncrementingCountCursor whose API honours start_value_option holds', async () => {
  const server = await startLoopback((req, res) => {
    const since = Number(new URL(req.url, 'http://x').searchParams.get('since_id') ?? 0);
    json(res, {
      data: Array.from({ length: 30 }, (_, i) => ({ id: i + 1 }))
        .filter((r) => r.id >= since)
        .slice(0, 10),
    });
  });
  try {
    const manifest = parseYaml(
      file(
        'count.yaml',
        stringify({
          version: '6.0.0',
          type: 'DeclarativeSource',
          check: { type: 'CheckStream', stream_names: ['rows'] },
          streams: [
            {
              type: 'DeclarativeStream',
              name: 'rows',
              primary_key: ['id'],
              incremental_sync: {
                type: 'IncrementingCountCursor',
                cursor_field: 'id',
                start_value: 0,
                start_value_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'since_id' },
              },
              retriever: {
                type: 'SimpleRetriever',
                requester: { type: 'HttpRequester', url: "{{ config['base'] }}/rows" },
                record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
              },
            },
          ],
        }),
      ),
    );
    const report = await incrementalCheck(manifest, { base: server.base }, 'rows');
    assert.equal(report.cursor?.kind, 'count');
    assert.deepEqual(report.violations, []);
    assert.deepEqual(
      report.reads.map((r) => r.final_state),
      [{ id: 10 }, { id: 19 }, { id: 28 }],
    );
  } finally {
    await server.close();
  }
});

function parseYaml(path: string): Record<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('yaml').parse(require('node:fs').readFileSync(path, 'utf8'));
}

// Test reads of every stream of every demo workspace manifest against the demo API: the §10.3 shape,
// records read, grouping of parent-stream requests, and no secret anywhere in the output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { testRead, type StreamRead } from '../../../server/src/runtime';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';

const WORKSPACE = join(__dirname, '../../../demo/workspace');

/** Config values of properties marked airbyte_secret in a manifest's spec (one level of nesting). */
function secretValues(
  manifest: { spec?: { connection_specification?: { properties?: Record<string, Record<string, unknown>> } } },
  config: Record<string, unknown>,
): string[] {
  const out: string[] = [];
  const walk = (props: Record<string, Record<string, unknown>> | undefined, values: Record<string, unknown> | undefined) => {
    for (const [k, p] of Object.entries(props ?? {})) {
      if (p.airbyte_secret === true && typeof values?.[k] === 'string') out.push(values[k] as string);
      if (p.properties) walk(p.properties as Record<string, Record<string, unknown>>, values?.[k] as Record<string, unknown>);
    }
  };
  walk(manifest.spec?.connection_specification?.properties, config);
  return out;
}

/** Tokens the demo API has issued so far (access and session tokens). */
function issuedTokens(): string[] {
  const auth = api.state.auth as { accessTokens?: Map<string, number>; sessions?: Map<string, number> } | undefined;
  return [...(auth?.accessTokens?.keys() ?? []), ...(auth?.sessions?.keys() ?? [])];
}
let api: DemoApi;
const FROZEN = new Date('2024-01-03T12:00:00Z');
before(async () => {
  api = await startDemoApi({ now: () => FROZEN });
});
after(async () => {
  await api.close();
});

function assertShape(r: StreamRead): void {
  assert.deepEqual(Object.keys(r), [
    'logs',
    'slices',
    'test_read_limit_reached',
    'auxiliary_requests',
    'inferred_schema',
    'inferred_datetime_formats',
    'latest_config_update',
  ]);
  for (const s of r.slices) {
    assert.deepEqual(Object.keys(s), ['pages', 'slice_descriptor', 'state', 'auxiliary_requests']);
    for (const p of s.pages) {
      assert.deepEqual(Object.keys(p), ['records', 'request', 'response']);
      assert.deepEqual(Object.keys(p.request ?? {}), ['url', 'headers', 'http_method', 'body']);
      assert.deepEqual(Object.keys(p.response ?? {}), ['status', 'body', 'headers']);
    }
  }
  for (const a of r.auxiliary_requests) assert.deepEqual(Object.keys(a), ['title', 'type', 'description', 'request', 'response']);
  for (const l of r.logs) assert.deepEqual(Object.keys(l), ['message', 'level', 'internal_message', 'stacktrace']);
}

const manifests = readdirSync(WORKSPACE)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

test('the demo workspace has manifests for every pagination style', () => {
  assert.ok(manifests.length >= 4, manifests.join(', '));
});

for (const file of manifests) {
  test(`every stream of demo/workspace/${file} reads with the §10.3 shape and no secret`, async () => {
    const manifest = parse(readFileSync(join(WORKSPACE, file), 'utf8'));
    const config = { ...JSON.parse(readFileSync(join(WORKSPACE, 'config.json'), 'utf8')), url_base: api.url };
    // Refresh tokens are single use: a manifest read after another OAuth one gets the token the API issued last.
    const current = (api.state.auth as { refreshToken?: string } | undefined)?.refreshToken;
    if (current) config.credentials = { ...config.credentials, refresh_token: current };
    for (const stream of manifest.streams as { name?: string }[]) {
      const name = typeof stream === 'string' ? null : stream.name;
      if (!name) continue;
      // Async-job polls wait through env.sleep: nothing really waits in a test.
      const r = await testRead(manifest, structuredClone(config), name, {}, { now: () => FROZEN, sleep: async () => {} });
      assertShape(r);
      assert.deepEqual(
        r.logs.filter((l) => l.level === 'ERROR'),
        [],
        `${file}/${name}`,
      );
      const records = r.slices.flatMap((s) => s.pages.flatMap((p) => p.records));
      assert.ok(records.length > 0, `${file}/${name} read no records`);
      assert.ok(r.inferred_schema, `${file}/${name} has an inferred schema`);
      const text = JSON.stringify(r);
      for (const secret of [...secretValues(manifest, config), ...issuedTokens()]) {
        assert.ok(!text.includes(secret), `${file}/${name} leaks a secret or token`);
      }
    }
  });
}

test('an unpartitioned stream has the string "{}" as slice descriptor; limits are reported with >=', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'offset-increment.yaml'), 'utf8'));
  const r = await testRead(manifest, { url_base: api.url, page_size: 50 }, 'items', { maxRecords: 100 });
  assert.equal(r.slices.length, 1);
  assert.equal(r.slices[0].slice_descriptor, '{}');
  assert.equal(r.slices[0].pages.length, 2);
  assert.equal(r.test_read_limit_reached, true);
  assert.equal(r.inferred_datetime_formats.created_at, '%Y-%m-%dT%H:%M:%SZ');
  assert.deepEqual((r.inferred_schema as { required?: string[] }).required, ['id']);
  const small = await testRead(manifest, { url_base: api.url, page_size: 50 }, 'items', { maxRecords: 30 });
  assert.equal(small.slices[0].pages.flatMap((p) => p.records).length, 30);
  assert.equal(small.slices[0].pages.length, 1);
});

test('substream: parent pages are auxiliary PARENT_STREAM requests; each parent record is a slice', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'partitions.yaml'), 'utf8'));
  const r = await testRead(manifest, { url_base: api.url, start_date: '2024-01-01T00:00:00Z' }, 'children', { maxSlices: 2 });
  assert.equal(r.slices.length, 2);
  assert.deepEqual(r.slices[0].slice_descriptor, { parent_id: 'p1', parent_slice: {} });
  assert.equal(r.auxiliary_requests[0].title, "Parent stream: Stream 'parents' request");
  assert.equal(r.auxiliary_requests[0].type, 'PARENT_STREAM');
  assert.equal(r.test_read_limit_reached, true);
});

test('datetime slices: start/end injected per slice, newest slice ends at now', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'partitions.yaml'), 'utf8'));
  const r = await testRead(
    manifest,
    { url_base: api.url, start_date: '2024-01-01T00:00:00Z' },
    'events',
    {},
    { now: () => new Date('2024-01-02T06:00:00Z') },
  );
  assert.deepEqual(
    r.slices.map((s) => s.slice_descriptor),
    [
      { start_time: '2024-01-01T00:00:00Z', end_time: '2024-01-01T23:59:59Z' },
      { start_time: '2024-01-02T00:00:00Z', end_time: '2024-01-02T06:00:00Z' },
    ],
  );
  assert.match(r.slices[1].pages[0].request?.url ?? '', /start=2024-01-02T00%3A00%3A00Z&end=2024-01-02T06%3A00%3A00Z$/);
});

test('progress events: one page event per page, then done; a missing stream is reported plainly', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'offset-increment.yaml'), 'utf8'));
  const events: { type: string }[] = [];
  await testRead(manifest, { url_base: api.url, page_size: 50 }, 'items', {}, { onProgress: (e) => events.push(e as { type: string }) });
  assert.deepEqual(
    events.map((e) => e.type),
    ['start', 'slice', 'page', 'page', 'done'],
  );
  const missing = await testRead(manifest, { url_base: api.url }, 'nope');
  assert.equal(missing.slices.length, 0);
  assert.match(missing.logs[0].message, /Stream 'nope' is not defined in the manifest; streams: items/);
});

test('OAuth with a rotating refresh token: one AUTH auxiliary request, the new token written back, masked in the output', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'oauth-auth.yaml'), 'utf8'));
  const own = await startDemoApi({ now: () => FROZEN });
  try {
    const config = {
      url_base: own.url,
      client_id: 'demo-client',
      client_secret: 'demo-secret',
      credentials: { refresh_token: 'demo-refresh-0' },
    };
    const updates: Record<string, unknown>[] = [];
    const r = await testRead(
      manifest,
      config,
      'oauth_rotating_refresh_token',
      {},
      { now: () => FROZEN, onConfigUpdate: (c) => updates.push(structuredClone(c as Record<string, unknown>)) },
    );
    assert.deepEqual(
      r.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    assert.equal(r.auxiliary_requests.length, 1);
    assert.equal(r.auxiliary_requests[0].title, 'Refresh token');
    assert.equal(r.auxiliary_requests[0].type, 'AUTH');
    assert.equal((updates.at(-1)!.credentials as Record<string, unknown>).refresh_token, 'demo-refresh-1');
    assert.equal(config.credentials.refresh_token, 'demo-refresh-1');
    assert.equal((r.latest_config_update!.credentials as Record<string, unknown>).refresh_token, '****');
    assert.equal(r.slices[0].pages[0].request?.headers?.Authorization, 'Bearer ****');
    assert.ok(!JSON.stringify(r).includes('demo-refresh-1'));
  } finally {
    await own.close();
  }
});

test('session token: the login is an AUTH auxiliary request and the token is masked on the data request', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'session-auth.yaml'), 'utf8'));
  const r = await testRead(
    manifest,
    { url_base: api.url, username: 'demo-user', password: 'demo-pass' },
    'session_items',
    {},
    { now: () => FROZEN },
  );
  assert.deepEqual(
    r.logs.filter((l) => l.level === 'ERROR'),
    [],
  );
  assert.equal(r.auxiliary_requests[0].title, 'Login request');
  assert.equal(r.slices[0].pages[0].request?.headers?.['X-Session-Token'], '****');
});

test('pagination reset: both capped-API streams read all 250 items although no query may reach past 50', async () => {
  const manifest = parse(readFileSync(join(WORKSPACE, 'pagination-reset.yaml'), 'utf8'));
  const config = { url_base: api.url, start_date: '2024-01-01T00:00:00Z' };
  const expected = Array.from({ length: 250 }, (_, i) => i + 1);
  const byLimit = await testRead(manifest, config, 'items_split_by_limit', { maxRecords: 1000 }, { now: () => FROZEN });
  assert.deepEqual(
    byLimit.logs.filter((l) => l.level === 'ERROR'),
    [],
  );
  assert.equal(byLimit.slices.length, 1);
  const pages = byLimit.slices[0].pages;
  // Five attempts of 2 pages (50 records each), then one short page; each attempt starts at the last updated_at.
  assert.deepEqual(
    pages.map((p) => new URL(p.request?.url ?? '').searchParams.get('updated_since')),
    [
      '2024-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z',
      '2024-01-03T01:30:00Z',
      '2024-01-03T01:30:00Z',
      '2024-01-05T02:30:00Z',
      '2024-01-05T02:30:00Z',
      '2024-01-07T03:30:00Z',
      '2024-01-07T03:30:00Z',
      '2024-01-09T04:30:00Z',
      '2024-01-09T04:30:00Z',
      '2024-01-11T05:30:00Z',
    ],
  );
  const ids = (r: StreamRead) =>
    [...new Set(r.slices.flatMap((s) => s.pages.flatMap((p) => p.records.map((x) => x.id as number))))].sort((a, b) => a - b);
  assert.deepEqual(ids(byLimit), expected);
  assert.equal(byLimit.logs.filter((l) => l.level === 'INFO' && l.message.includes('pagination reset (SPLIT_USING_CURSOR)')).length, 5);

  const onError = await testRead(manifest, config, 'items_split_on_error', { maxRecords: 1000, maxSlices: 1 }, { now: () => FROZEN });
  assert.deepEqual(
    onError.logs.filter((l) => l.level === 'ERROR'),
    [],
  );
  assert.deepEqual(ids(onError), expected);
  const refused = onError.slices[0].pages.filter((p) => p.response?.status === 400);
  assert.equal(refused.length, 6);
  assert.match(refused[0].response?.body ?? '', /Result window too deep/);
});

test('dynamic streams of the demo workspace resolve (API catalog and config views) and read', async () => {
  const { listStreams } = await import('../../../server/src/runtime');
  const manifest = parse(readFileSync(join(WORKSPACE, 'dynamic-streams.yaml'), 'utf8'));
  const config = { ...JSON.parse(readFileSync(join(WORKSPACE, 'config.json'), 'utf8')), url_base: api.url };
  const listed = await listStreams(manifest, config);
  assert.deepEqual(
    listed.map((s) => `${s.name}:${s.dynamic ? s.resolver : 'static'}`),
    ['tables:static', 'contacts:HttpComponentsResolver', 'open_deals:HttpComponentsResolver', 'view_won_deals:ConfigComponentsResolver'],
  );
  const deals = await testRead(manifest, structuredClone(config), 'open_deals');
  assert.deepEqual(
    deals.logs.filter((l) => l.level === 'ERROR'),
    [],
  );
  assert.deepEqual(
    deals.slices[0].pages[0].records.map((r) => r.id),
    [10, 11],
  );
  const won = await testRead(manifest, structuredClone(config), 'view_won_deals');
  assert.deepEqual(won.slices[0].pages[0].records, [{ id: 10, amount: 1200, stage: 'won' }]);
  assert.match(won.slices[0].pages[0].request?.url ?? '', /\/catalog\/tables\/tbl_deals\/rows\?stage=won$/);
});

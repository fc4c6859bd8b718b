// The CDK engine against the reference CDK (the Python CDK at its pinned commit): a custom-components
// manifest read through `out/cli.js read --engine cdk` answers what the CDK's own connector-builder
// entry point answers; demo streams compare identical on both engines, live and from a cassette; and
// a missing package, an old CDK and a broken components.py are explained. Skips (saying why) when the
// reference is not built; .ci/run builds it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { cdkTestRead, type CdkEngineError } from '../../../server/src/cdkEngine/cdkTestRead';
import { probeCdkEngine } from '../../../server/src/cdkEngine/pythonProbe';
import { findReferenceCdk } from './referenceCdk';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
const CUSTOM = join(ROOT, 'demo/workspace/custom-components');
const reference = findReferenceCdk();
const skip = 'skip' in reference ? reference.skip : false;
const ref = 'skip' in reference ? null : reference;

let api: DemoApi;
let dir: string;
before(async () => {
  api = await startDemoApi();
  dir = mkdtempSync(join(tmpdir(), 'cdk-reference-'));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A StreamRead without the wall-clock `Date` response header (two reads straddle seconds). */
function withoutDate(read: { slices: { pages: { response: { headers: Record<string, string> | null } | null }[] }[] }): unknown {
  return {
    ...read,
    slices: read.slices.map((s) => ({
      ...s,
      pages: s.pages.map((p) => ({
        ...p,
        response: p.response && {
          ...p.response,
          headers: Object.fromEntries(Object.entries(p.response.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'date')),
        },
      })),
    })),
  };
}

test("read --engine cdk of a manifest with a custom extractor and a custom paginator answers the reference CDK's own StreamRead", {
  skip,
}, async () => {
  const config = file('custom-config.json', JSON.stringify({ url_base: api.url, api_key: 'custom-secret-api-key' }));
  const manifestPath = join(CUSTOM, 'manifest.yaml');
  const ours = await cli([
    'read',
    manifestPath,
    '--stream',
    'labelled_items',
    '--config',
    config,
    '--format',
    'json',
    '--engine',
    'cdk',
    '--python',
    ref!.python,
    '--max-pages',
    '2',
  ]);
  assert.equal(ours.code, 0, ours.stderr);

  // The reference's own run: the CDK's connector-builder entry point, invoked by hand as its README says.
  const components = readFileSync(join(CUSTOM, 'components.py'), 'utf8');
  const builderConfig = file(
    'builder-config.json',
    JSON.stringify({
      url_base: api.url,
      api_key: 'custom-secret-api-key',
      __command: 'test_read',
      __injected_declarative_manifest: parse(readFileSync(manifestPath, 'utf8')),
      __test_read_config: { max_records: 100, max_pages_per_slice: 2, max_slices: 5 },
      __injected_components_py: components,
      __injected_components_py_checksums: { md5: createHash('md5').update(components).digest('hex') },
    }),
  );
  const catalog = file(
    'builder-catalog.json',
    JSON.stringify({
      streams: [
        {
          stream: { name: 'labelled_items', json_schema: {}, supported_sync_modes: ['full_refresh', 'incremental'] },
          sync_mode: 'incremental',
          destination_sync_mode: 'overwrite',
        },
      ],
    }),
  );
  // Asynchronous: the demo API answering the CDK runs in this process.
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      ref!.builder,
      ['read', '--config', builderConfig, '--catalog', catalog],
      { env: { ...process.env, AIRBYTE_ENABLE_UNSAFE_CODE: 'true' }, maxBuffer: 64 * 1024 * 1024 },
      (e, stdout) => (e ? reject(e) : resolve(stdout)),
    ),
  );
  const answer = JSON.parse(out.trim().split('\n').pop()!);
  assert.equal(answer.type, 'RECORD');

  const read = JSON.parse(ours.stdout);
  assert.deepEqual(withoutDate(read), withoutDate(answer.record.data));
  // What the custom components did, seen in the result: labels from the extractor, pages from the paginator.
  assert.deepEqual(
    read.slices[0].pages.map((p: { records: unknown[] }) => p.records.length),
    [40, 40],
  );
  assert.equal(read.slices[0].pages[1].records[0].label, 'item-41');
  assert.match(read.slices[0].pages[1].request.url, /cursor=/);
});

test('read --compare-engines: three demo streams are identical on the built-in runtime and the CDK', { skip }, async () => {
  const config = file('demo-config.json', JSON.stringify({ url_base: api.url }));
  for (const stream of ['cursor_in_body', 'next_url_in_body', 'link_header']) {
    const r = await cli([
      'read',
      join(ROOT, 'demo/workspace/cursor-pagination.yaml'),
      '--stream',
      stream,
      '--config',
      config,
      '--compare-engines',
      '--python',
      ref!.python,
      '--max-pages',
      '3',
      '--format',
      'json',
    ]);
    const comparison = JSON.parse(r.stdout);
    assert.deepEqual(comparison.differences, [], `${stream}: ${r.stdout}`);
    assert.equal(comparison.identical, true);
    assert.equal(r.code, 0);
    assert.ok(comparison.counts.builtin.records > 0);
  }
});

test('read --replay FILE --compare-engines: the CDK is fed the cassette through the loopback server, offline', { skip }, async () => {
  const config = file('replay-config.json', JSON.stringify({ url_base: api.url }));
  const cassette = join(dir, 'cursor.cassette.yaml');
  const recorded = await cli([
    'read',
    join(ROOT, 'demo/workspace/cursor-pagination.yaml'),
    '--stream',
    'cursor_in_body',
    '--config',
    config,
    '--record',
    cassette,
    '--max-pages',
    '2',
  ]);
  assert.equal(recorded.code, 0, recorded.stderr);
  const before = api.state.requestCount;
  const r = await cli([
    'read',
    join(ROOT, 'demo/workspace/cursor-pagination.yaml'),
    '--stream',
    'cursor_in_body',
    '--replay',
    cassette,
    '--compare-engines',
    '--python',
    ref!.python,
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).differences, []);
  assert.equal(JSON.parse(r.stdout).counts.cdk.pages, 2);
  assert.equal(api.state.requestCount, before, 'neither engine reached the API');
});

test('a components.py that fails to import: the error names the file and line, and the traceback links to it', { skip }, async () => {
  const broken = join(dir, 'broken');
  mkdirSync(broken);
  copyFileSync(join(CUSTOM, 'manifest.yaml'), join(broken, 'manifest.yaml'));
  writeFileSync(join(broken, 'components.py'), 'import json\n\n\nLABEL = undefined_helper()\n');
  const manifest = parse(readFileSync(join(broken, 'manifest.yaml'), 'utf8'));
  await assert.rejects(
    cdkTestRead(
      manifest,
      { url_base: api.url },
      'labelled_items',
      {},
      { python: ref!.python, manifestPath: join(broken, 'manifest.yaml') },
    ),
    (e: CdkEngineError) => {
      assert.equal(e.kind, 'components-failed');
      assert.deepEqual(e.links, [{ path: join(broken, 'components.py'), line: 4 }]);
      assert.match(e.message, /components\.py:4\): .*name 'undefined_helper' is not defined/);
      assert.match(e.stacktrace ?? '', /components\.py", line 4/);
      return true;
    },
  );
  const config = file('broken-config.json', JSON.stringify({ url_base: api.url }));
  const r = await cli([
    'read',
    join(broken, 'manifest.yaml'),
    '--stream',
    'labelled_items',
    '--config',
    config,
    '--engine',
    'cdk',
    '--python',
    ref!.python,
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /components\.py failed to load or run \(.*broken\/components\.py:4\)/);
});

test('a rotated refresh token comes back from the CDK as a control message and is written back, masked in the read', { skip }, async () => {
  const manifest = parse(readFileSync(join(ROOT, 'demo/workspace/oauth-auth.yaml'), 'utf8'));
  const config = { ...JSON.parse(readFileSync(join(ROOT, 'demo/workspace/config.json'), 'utf8')), url_base: api.url };
  const updates: Record<string, unknown>[] = [];
  const read = await cdkTestRead(
    manifest,
    config,
    'oauth_rotating_refresh_token',
    {},
    { python: ref!.python, manifestPath: join(ROOT, 'demo/workspace/oauth-auth.yaml'), onConfigUpdate: (c) => updates.push(c) },
  );
  assert.equal(updates.length, 1);
  const rotated = (updates[0].credentials as Record<string, string>).refresh_token;
  assert.notEqual(rotated, 'demo-refresh-0');
  assert.ok(!JSON.stringify(read).includes(rotated), 'the new refresh token is masked in the StreamRead');
  assert.ok(!JSON.stringify(read).includes('demo-secret'), 'the client secret is masked');
  assert.ok(read.slices[0].pages[0].records.length > 0);
});

const python3 = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
const python3Path = python3.status === 0 ? python3.stdout.trim() : null;
const hasCdk = python3Path !== null && spawnSync(python3Path, ['-c', 'import airbyte_cdk'], { encoding: 'utf8' }).status === 0;

test('an interpreter without airbyte-cdk: read --engine cdk says the pip command for that interpreter', {
  skip: python3Path === null ? 'no python3 on the PATH' : hasCdk ? 'python3 has airbyte-cdk installed' : false,
}, async () => {
  const config = file('nocdk-config.json', JSON.stringify({ url_base: api.url }));
  const r = await cli([
    'read',
    join(CUSTOM, 'manifest.yaml'),
    '--stream',
    'labelled_items',
    '--config',
    config,
    '--engine',
    'cdk',
    '--python',
    'python3',
  ]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `read: airbyte-cdk is not installed for Python ${spawnSync(python3Path!, ['-c', 'import platform; print(platform.python_version())'], { encoding: 'utf8' }).stdout.trim()} (${python3Path}). Install it with: ${python3Path} -m pip install "airbyte-cdk>=6.0.0"\n`,
  );
});

test("a real interpreter with an airbyte-cdk older than the manifest's version: the upgrade command", {
  skip: python3Path === null ? 'no python3 on the PATH' : false,
}, async () => {
  const site = join(dir, 'old-site');
  mkdirSync(join(site, 'airbyte_cdk/connector_builder'), { recursive: true });
  writeFileSync(join(site, 'airbyte_cdk/__init__.py'), '__version__ = "0.51.8"\n');
  writeFileSync(join(site, 'airbyte_cdk/connector_builder/__init__.py'), '');
  writeFileSync(join(site, 'airbyte_cdk/connector_builder/main.py'), '');
  const wrapper = join(dir, 'old-python');
  writeFileSync(wrapper, `#!/bin/sh\nPYTHONPATH="${site}" exec "${python3Path}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  const status = await probeCdkEngine(wrapper, '6.0.0');
  assert.equal(status.ok, false);
  assert.equal(!status.ok && status.problem, 'old-cdk');
  assert.equal(!status.ok && status.installCommand, `${python3Path} -m pip install --upgrade "airbyte-cdk>=6.0.0"`);
});

test("read --engine cdk --record writes a masked cassette of the CDK's exchanges; --engine cdk --replay reads it offline", {
  skip,
}, async () => {
  const config = file('record-config.json', JSON.stringify({ url_base: api.url, api_key: 'record-secret-api-key' }));
  const cassette = join(dir, 'custom.cassette.yaml');
  const manifestPath = join(CUSTOM, 'manifest.yaml');
  const live = await cli([
    'read',
    manifestPath,
    '--stream',
    'labelled_items',
    '--config',
    config,
    '--format',
    'json',
    '--engine',
    'cdk',
    '--python',
    ref!.python,
    '--max-pages',
    '2',
    '--record',
    cassette,
  ]);
  assert.equal(live.code, 0, live.stderr);
  assert.match(live.stderr, /recorded 2 HTTP exchanges/);
  const text = readFileSync(cassette, 'utf8');
  assert.ok(!text.includes('record-secret-api-key'), 'the cassette masks the secret');
  const before = api.state.requestCount;
  const replay = await cli([
    'read',
    manifestPath,
    '--stream',
    'labelled_items',
    '--replay',
    cassette,
    '--format',
    'json',
    '--engine',
    'cdk',
    '--python',
    ref!.python,
  ]);
  assert.equal(replay.code, 0, replay.stderr);
  assert.equal(api.state.requestCount, before, 'the replay reached no API');
  const records = (out: string) =>
    JSON.parse(out).slices.flatMap((s: { pages: { records: unknown[] }[] }) => s.pages.flatMap((p) => p.records));
  assert.deepEqual(records(replay.stdout), records(live.stdout));
  assert.equal(
    JSON.parse(replay.stdout).slices[0].pages[1].request.url,
    JSON.parse(live.stdout).slices[0].pages[1].request.url,
    'the StreamRead shows the original URLs, not the relay',
  );
});

// `connector-manifest read --all-streams` and `test --junit` through the built CLI: every demo manifest's
// JUnit report read by a real JUnit parser (test-results-parser), one testcase per stream (static and
// resolved dynamic); Markdown and JSON reports; a failing stream fails its testcase with the error;
// `--record DIR` then `test --cassettes DIR --junit`; at most --concurrency streams in flight.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const junit = require('test-results-parser') as { parse(options: { type: 'junit'; files: string[] }): JUnitResult };
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { junitXml } from '../../../server/src/runtime/allStreams/junitXml';
import { runAllStreams } from '../../../server/src/runtime/allStreams/runAllStreams';
import { json, startLoopback } from '../testRead/loopback';

type JUnitCaseResult = { name: string; status: 'PASS' | 'FAIL' | 'SKIP'; failure?: string };
type JUnitResult = { total: number; passed: number; failed: number; suites: Array<{ cases: JUnitCaseResult[] }> };

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
const WORKSPACE = join(ROOT, 'demo/workspace');
let api: DemoApi;
let dir: string;
before(async () => {
  api = await startDemoApi();
  dir = mkdtempSync(join(tmpdir(), 'all-streams-'));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function demoConfig(): string {
  const values = JSON.parse(readFileSync(join(WORKSPACE, 'config.json'), 'utf8'));
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ ...values, url_base: api.url }));
  return path;
}

const manifests = readdirSync(WORKSPACE)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

test('every demo manifest: the JUnit report parses, one passing testcase per stream', async () => {
  assert.ok(manifests.length >= 13, manifests.join(', '));
  // One config for the whole workspace, as a user has it: a rotated refresh token is written back into it.
  const config = demoConfig();
  for (const manifest of manifests) {
    const listed = await run(['streams', `demo/workspace/${manifest}`, '--config', config, '--format', 'json']);
    assert.equal(listed.code, 0, `${manifest}: ${listed.stderr}`);
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((s) => s.name);
    const report = join(dir, `${manifest}.xml`);
    const r = await run(['read', `demo/workspace/${manifest}`, '--all-streams', '--config', config, '--report', report]);
    assert.equal(r.code, 0, `${manifest}: ${r.stdout}${r.stderr}`);
    const parsed = junit.parse({ type: 'junit', files: [report] });
    assert.equal(parsed.suites.length, 1, manifest);
    assert.deepEqual(
      parsed.suites[0].cases.map((c) => c.name),
      names,
      manifest,
    );
    assert.equal(parsed.total, names.length, manifest);
    assert.equal(parsed.passed, names.length, `${manifest}: ${JSON.stringify(parsed.suites[0].cases.filter((c) => c.status !== 'PASS'))}`);
  }
});

test('Markdown and JSON reports by extension: a row / an entry per stream, dynamic streams included', async () => {
  for (const manifest of ['partitions.yaml', 'dynamic-streams.yaml']) {
    const config = demoConfig();
    const md = join(dir, `${manifest}.md`);
    const js = join(dir, `${manifest}.json`);
    assert.equal((await run(['read', `demo/workspace/${manifest}`, '--all-streams', '--config', config, '--report', md])).code, 0);
    assert.equal((await run(['read', `demo/workspace/${manifest}`, '--all-streams', '--config', config, '--report', js])).code, 0);
    const report = JSON.parse(readFileSync(js, 'utf8'));
    assert.equal(report.manifest, manifest);
    const text = readFileSync(md, 'utf8');
    assert.match(text, new RegExp(`^# Readiness of \`${manifest.replace('.', '\\.')}\``, 'm'));
    assert.match(
      text,
      /^\| stream \| status \| records \| pages \| slices \| errors \| retries \| schema differences \| datetime formats \| time \|$/m,
    );
    for (const s of report.streams) {
      assert.equal(s.status, 'ok');
      assert.match(
        text,
        new RegExp(
          `^\\| ${s.stream}${s.dynamic ? ' \\(dynamic\\)' : ''} \\| ✅ ok[^|]* \\| ${s.records} \\| ${s.pages} \\| ${s.slices} \\| 0 \\| 0 \\| `,
          'm',
        ),
      );
    }
    if (manifest === 'dynamic-streams.yaml')
      assert.deepEqual(
        report.streams.filter((s: { dynamic: boolean }) => s.dynamic).map((s: { stream: string }) => s.stream),
        ['contacts', 'open_deals', 'view_won_deals'],
      );
    if (manifest === 'partitions.yaml') {
      const events = report.streams.find((s: { stream: string }) => s.stream === 'events');
      assert.deepEqual(events.datetime_formats, { created_at: '%Y-%m-%dT%H:%M:%SZ', updated_at: '%Y-%m-%dT%H:%M:%SZ' });
      assert.equal(events.slices, 5);
    }
  }
});

test('a failing stream fails its testcase with the error; exit 1; an unknown report extension exits 2', async () => {
  const manifest = join(dir, 'failing.yaml');
  writeFileSync(
    manifest,
    stringify({
      version: '6.0.0',
      type: 'DeclarativeSource',
      check: { type: 'CheckStream', stream_names: ['good'] },
      streams: ['good', 'missing'].map((name) => ({
        type: 'DeclarativeStream',
        name,
        primary_key: ['id'],
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url: `{{ config['url_base'] }}/${name === 'good' ? 'offset/items' : 'nowhere'}` },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        },
      })),
    }),
  );
  const report = join(dir, 'failing.xml');
  const r = await run(['read', manifest, '--all-streams', '--config', demoConfig(), '--report', report]);
  assert.equal(r.code, 1);
  // The reference CDK's wording (docs/fidelity.md): the status and what it means.
  assert.match(r.stdout, /✗ missing .*ERROR: HTTP Status Code: 404\. Error: Not found\./);
  const parsed = junit.parse({ type: 'junit', files: [report] });
  assert.deepEqual(
    parsed.suites[0].cases.map((c) => [c.name, c.status]),
    [
      ['good', 'PASS'],
      ['missing', 'FAIL'],
    ],
  );
  assert.match(
    parsed.suites[0].cases[1].failure ?? '',
    /^HTTP Status Code: 404\. Error: Not found\. The requested resource was not found on the server\./,
  );
  const bad = await run(['read', manifest, '--all-streams', '--config', demoConfig(), '--report', join(dir, 'r.txt')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /the extension says the format: \.md \(Markdown\), \.json \(JSON\) or \.xml \(JUnit XML\)/);
});

test('--record DIR saves a cassette per stream; test --cassettes DIR --junit reports each replay', async () => {
  const cassettes = join(dir, 'cassettes');
  const config = demoConfig();
  const recorded = await run(['read', 'demo/workspace/cursor-pagination.yaml', '--all-streams', '--config', config, '--record', cassettes]);
  assert.equal(recorded.code, 0, recorded.stderr);
  assert.deepEqual(readdirSync(cassettes).sort(), [
    'cursor_in_body.cassette.yaml',
    'link_header.cassette.yaml',
    'next_url_in_body.cassette.yaml',
  ]);
  assert.equal((await run(['test', 'demo/workspace/cursor-pagination.yaml', '--cassettes', cassettes, '--update'])).code, 0);
  // One expectation made wrong: that testcase fails with the difference.
  const expectation = join(cassettes, 'link_header.expected.json');
  const e = JSON.parse(readFileSync(expectation, 'utf8'));
  e.records.pop();
  writeFileSync(expectation, JSON.stringify(e));
  const report = join(dir, 'test.xml');
  const t = await run(['test', 'demo/workspace/cursor-pagination.yaml', '--cassettes', cassettes, '--junit', report]);
  assert.equal(t.code, 1);
  const parsed = junit.parse({ type: 'junit', files: [report] });
  assert.deepEqual(
    parsed.suites[0].cases.map((c) => [c.name, c.status]),
    [
      ['cursor_in_body', 'PASS'],
      ['next_url_in_body', 'PASS'],
      ['link_header', 'FAIL'],
    ],
  );
  assert.match(parsed.suites[0].cases[2].failure ?? '', /the records or the inferred schema differ from .*link_header\.expected\.json/);
});

test('bounded concurrency: never more than --concurrency streams in flight', async () => {
  let inFlight = 0;
  let most = 0;
  const server = await startLoopback((_req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    setTimeout(() => {
      inFlight--;
      json(res, { data: [{ id: 1 }] });
    }, 60);
  });
  try {
    const manifest = {
      version: '6.0.0',
      type: 'DeclarativeSource',
      check: { type: 'CheckStream', stream_names: ['s0'] },
      streams: Array.from({ length: 6 }, (_, i) => ({
        type: 'DeclarativeStream',
        name: `s${i}`,
        primary_key: ['id'],
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url: `${server.base}/s${i}` },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        },
      })),
    };
    const events: string[] = [];
    const result = await runAllStreams(manifest, {}, { concurrency: 2, onEvent: (e) => events.push(e.type) });
    assert.equal(result.streams.length, 6);
    assert.equal(most, 2);
    assert.deepEqual(
      result.streams.map((s) => s.stream),
      ['s0', 's1', 's2', 's3', 's4', 's5'],
    );
    assert.equal(events.filter((e) => e === 'finished').length, 6);
    most = 0;
    await runAllStreams(manifest, {}, { concurrency: 3 });
    assert.equal(most, 3);
  } finally {
    await server.close();
  }
});

test('JUnit text is escaped: markup, quotes and control characters from an API survive a real parser', () => {
  const path = join(dir, 'escaped.xml');
  const message = 'HTTP 500: <html>"bad" & \'worse\'\u0001\u001b[31m</html>';
  writeFileSync(
    path,
    junitXml('suite <1>', [{ name: 'a&b', classname: 'm.yaml', timeSeconds: 0.5, failure: { message, details: message } }]),
  );
  const parsed = junit.parse({ type: 'junit', files: [path] });
  assert.equal(parsed.suites[0].cases[0].name, 'a&b');
  assert.equal(parsed.suites[0].cases[0].failure, 'HTTP 500: <html>"bad" & \'worse\'\uFFFD\uFFFD[31m</html>');
});

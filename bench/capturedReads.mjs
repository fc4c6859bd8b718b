// Benchmark: completion and hover answered from a captured read of 500 records (5 pages of 100 from
// the demo API), over stdio against out/server.js (built), beside the same requests on the same
// manifest without a captured read (the baseline, same run). Prints median / p95 of each and their
// ratio; the target is p95 <= 20 ms with the captured read. Also times the first request after an
// edit (the stream index is rebuilt once per document version), and the same on the largest corpus
// manifest when ../shared is present.
// Usage: npm run build && node bench/capturedReads.mjs [rounds]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchClient } from './lspClient.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] ?? 200);

const api = spawn(process.execPath, [join(repo, 'scripts/demoApi.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const url = await new Promise((resolve, reject) => {
  api.stdout.once('data', (d) => resolve(String(d).trim().split('\n')[0]));
  api.once('exit', (code) => reject(new Error(`demo API exited with ${code}`)));
});

const text = [
  'version: 6.0.0',
  'type: DeclarativeSource',
  'check: {type: CheckStream, stream_names: [items]}',
  'spec:',
  '  type: Spec',
  '  connection_specification:',
  '    type: object',
  '    properties:',
  '      url_base: {type: string}',
  'streams:',
  '  - type: DeclarativeStream',
  '    name: items',
  '    primary_key: id',
  '    retriever:',
  '      type: SimpleRetriever',
  '      requester:',
  '        type: HttpRequester',
  '        url: "{{ config[\'url_base\'] }}/cursor/items"',
  '        request_parameters: {limit: "100", total: "500"}',
  '      record_selector:',
  '        type: RecordSelector',
  '        extractor:',
  '          type: DpathExtractor',
  '          field_path:',
  '            - records',
  '      paginator:',
  '        type: DefaultPaginator',
  '        page_token_option: {type: RequestOption, inject_into: request_parameter, field_name: cursor}',
  '        pagination_strategy:',
  '          type: CursorPagination',
  '          cursor_value: "{{ response.meta.next_cursor }}"',
  '          stop_condition: "{{ response.meta.next_cursor is none or last_record.id > 1000 }}"',
  '',
].join('\n');

/** Line/character of the `nth` occurrence of `needle`, moved `delta` characters into it. */
function at(needle, delta) {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`no ${needle}`);
  const before = text.slice(0, i + delta);
  return { line: before.split('\n').length - 1, character: i + delta - (before.lastIndexOf('\n') + 1) };
}

const PROBES = [
  ['completion', 'response.', 'textDocument/completion', at('response.meta.next_cursor }}', 'response.'.length)],
  ['completion', 'last_record.', 'textDocument/completion', at('last_record.id', 'last_record.'.length)],
  ['completion', 'field_path item', 'textDocument/completion', at('- records', 2)],
  ['completion', 'primary_key', 'textDocument/completion', at('primary_key: id', 'primary_key: '.length)],
  ['hover', 'cursor_value', 'textDocument/hover', at('response.meta.next_cursor }}', 3)],
  ['hover', 'stop_condition', 'textDocument/hover', at('next_cursor is none', 3)],
  ['hover', 'field_path', 'textDocument/hover', at('- records', 3)],
];

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p95: q(0.95) };
}

async function measure(client, uri) {
  const out = {};
  for (const [, name, method, position] of PROBES) {
    const samples = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [ms] = await client.timed(method, { textDocument: { uri }, position });
      samples.push(ms);
    }
    out[name] = stats(samples);
  }
  return out;
}

const client = new BenchClient([process.execPath, join(repo, 'out/server.js'), '--stdio']);
await client.initialize({});
const uri = 'file:///bench/captured.yaml';
await client.open(uri, text);
// Warm-up, then the baseline: the same requests before any read.
await measure(client, uri);
const baseline = await measure(client, uri);

const read = await client.connection.sendRequest('airbyte/testRead', {
  uri,
  streamName: 'items',
  config: { url_base: url },
  limits: { maxRecords: 500, maxPagesPerSlice: 10 },
  runId: 'bench',
});
const records = read.slices.flatMap((s) => s.pages).reduce((n, p) => n + p.records.length, 0);
const pages = read.slices.flatMap((s) => s.pages).length;
const items = await client.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: PROBES[0][3] });
if (!(items?.items ?? items ?? []).some((i) => i.label === 'records')) throw new Error('the captured read did not reach completion');
await measure(client, uri);
const captured = await measure(client, uri);

// First request after an edit: each new version rebuilds the stream index once.
const firstAfterEdit = [];
let version = 1;
for (let i = 0; i < Math.min(ROUNDS, 60); i++) {
  version++;
  const edit = {
    range: { start: { line: text.split('\n').length - 1, character: 0 }, end: { line: text.split('\n').length - 1, character: 0 } },
    text: '',
  };
  await client.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version },
    contentChanges: [i % 2 ? { ...edit, text: '' } : edit],
  });
  const [ms] = await client.timed('textDocument/hover', { textDocument: { uri }, position: PROBES[4][3] });
  firstAfterEdit.push(ms);
}

// On the largest corpus manifest (when ../shared is beside the checkout): the first hover on a
// field_path after each edit, with a captured read of one of its streams and without (same text,
// two documents). This is where indexing the streams costs most.
const corpus = join(repo, '..', 'shared', 'corpus', 'manifests', 'source-appfigures.yaml');
let large = null;
if (existsSync(corpus)) {
  const big = readFileSync(corpus, 'utf8');
  const lines = big.split('\n');
  const line = lines.findIndex((l, i) => i > 22 && /^\s*field_path:/.test(l));
  const position = { line, character: lines[line].indexOf('field_path') + 2 };
  const withUri = 'file:///bench/appfigures-captured.yaml';
  const withoutUri = 'file:///bench/appfigures.yaml';
  await client.open(withUri, big);
  await client.open(withoutUri, big);
  const body = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: i, status: 'ok' })));
  const captureParams = {
    uri: withUri,
    streamName: 'status',
    read: {
      logs: [],
      slices: [
        {
          slice_descriptor: '{}',
          state: [],
          auxiliary_requests: [],
          pages: [{ records: JSON.parse(body), request: null, response: { status: 200, body, headers: {} } }],
        },
      ],
    },
  };
  await client.connection.sendRequest('airbyte/captureRead', captureParams);
  const runs = { with: [], without: [] };
  const end = { line: lines.length - 1, character: 0 };
  for (let i = 0; i < 12; i++) {
    for (const [name, u] of [
      ['with', withUri],
      ['without', withoutUri],
    ]) {
      const v = i + 2;
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: u, version: v },
        contentChanges: [{ range: { start: end, end }, text: '' }],
      });
      const [ms, hover] = await client.timed('textDocument/hover', { textDocument: { uri: u }, position });
      if (name === 'with' && i === 0 && !JSON.stringify(hover ?? '').includes('From the last read'))
        throw new Error('the appfigures hover did not use the captured read');
      runs[name].push(ms);
    }
  }
  large = { with: stats(runs.with), without: stats(runs.without), lines: lines.length };
}
await client.stop();
api.kill();

const f = (n) => n.toFixed(2).padStart(7);
console.log(`captured read: ${records} records in ${pages} pages; ${ROUNDS} requests per probe, stdio, out/server.js`);
console.log('probe                        | without read p50 / p95 | with read p50 / p95 | p95 ratio');
for (const [kind, name] of PROBES) {
  const b = baseline[name];
  const c = captured[name];
  console.log(
    `${`${kind} ${name}`.padEnd(28)} | ${f(b.p50)} / ${f(b.p95)} ms | ${f(c.p50)} / ${f(c.p95)} ms | ${(c.p95 / b.p95).toFixed(2)}×`,
  );
}
const e = stats(firstAfterEdit);
console.log(`${'hover right after an edit'.padEnd(28)} |                        | ${f(e.p50)} / ${f(e.p95)} ms |`);
if (large) {
  console.log(
    `${`appfigures (${large.lines} lines): first hover after an edit`.padEnd(28)} | ${f(large.without.p50)} / ${f(large.without.p95)} ms | ${f(large.with.p50)} / ${f(large.with.p95)} ms | ${(large.with.p50 / large.without.p50).toFixed(2)}× (p50)`,
  );
}
const worst = Math.max(...Object.values(captured).map((s) => s.p95));
console.log(`worst p95 with the captured read: ${worst.toFixed(2)} ms (target <= 20 ms): ${worst <= 20 ? 'met' : 'NOT met'}`);

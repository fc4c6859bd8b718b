// Benchmark: the same test read on the two engines, side by side, as a user runs it (`out/cli.js read`,
// process start included): the built-in runtime, and the Airbyte CDK engine (`--engine cdk`) on the
// reference CDK's interpreter (REFCDK_DIR or ../refcdk). Two reads: a small one (3 pages x 40 records)
// and a larger one (20 pages x 100 records). Medians of ROUNDS runs each, alternating engines so load
// changes hit both. The demo API runs in a child process.
// Usage: npm run build && node bench/engines.mjs [rounds] [python]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] ?? 5);
const python = process.argv[3] ?? join(resolve(root, process.env.REFCDK_DIR ?? '../refcdk'), 'venv/bin/python');
if (!existsSync(python)) {
  console.log(`bench/engines: no CDK interpreter at ${python} (build the reference with setup.sh or pass one); skipped`);
  process.exit(0);
}

const server = spawn(process.execPath, [join(root, 'scripts/demoApi.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((res, rej) => {
  server.stdout.once('data', (d) => res(String(d).trim().split('\n')[0]));
  server.once('exit', (code) => rej(new Error(`demo API exited with ${code}`)));
});
const dir = mkdtempSync(join(tmpdir(), 'bench-engines-'));
const manifest = join(dir, 'manifest.json');
writeFileSync(
  manifest,
  JSON.stringify({
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['items'] },
    // The CDK refuses a manifest without a spec.
    spec: { type: 'Spec', connection_specification: { type: 'object', properties: { page_size: { type: 'string' } } } },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 'items',
        primary_key: ['id'],
        retriever: {
          type: 'SimpleRetriever',
          requester: {
            type: 'HttpRequester',
            url: `${url}/cursor/items`,
            request_parameters: { limit: '{{ config.page_size }}', total: '2000' },
          },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['records'] } },
          paginator: {
            type: 'DefaultPaginator',
            page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'cursor' },
            pagination_strategy: {
              type: 'CursorPagination',
              cursor_value: '{{ response.meta.next_cursor }}',
              stop_condition: '{{ response.meta.next_cursor is none }}',
            },
          },
        },
      },
    ],
  }),
);

function timeRead(engineArgs, pages, pageSize) {
  const config = join(dir, `config-${pageSize}.json`);
  writeFileSync(config, JSON.stringify({ page_size: String(pageSize) }));
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'out/cli.js'),
      'read',
      manifest,
      '--stream',
      'items',
      '--config',
      config,
      '--format',
      'json',
      '--max-pages',
      String(pages),
      '--max-records',
      String(pages * pageSize),
      ...engineArgs,
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`read failed (${engineArgs.join(' ') || 'built-in'}): ${r.stderr}`);
  const read = JSON.parse(r.stdout);
  const records = read.slices.reduce((n, s) => n + s.pages.reduce((k, p) => k + p.records.length, 0), 0);
  return { ms, records };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const [pages, pageSize] of [
    [3, 40],
    [20, 100],
  ]) {
    const builtin = [];
    const cdk = [];
    let counts = null;
    for (let i = 0; i < ROUNDS; i++) {
      const a = timeRead([], pages, pageSize);
      const b = timeRead(['--engine', 'cdk', '--python', python], pages, pageSize);
      if (a.records !== b.records) throw new Error(`the engines read different record counts: ${a.records} vs ${b.records}`);
      builtin.push(a.ms);
      cdk.push(b.ms);
      counts = a.records;
    }
    const mb = median(builtin);
    const mc = median(cdk);
    console.log(
      `${pages} pages x ${pageSize} records (${counts} records), median of ${ROUNDS}: built-in ${mb.toFixed(0)} ms, Airbyte CDK ${mc.toFixed(0)} ms (${(mc / mb).toFixed(1)}x)`,
    );
  }
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}

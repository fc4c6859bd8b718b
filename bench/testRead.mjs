// Benchmark: a test read of 1,000 pages x 100 records from the demo API (out/runtime.js, built) against
// a bare fetch + JSON.parse loop over the same 1,000 URLs, in the same run. Prints both times, their
// ratio (target <= 1.3) and peak memory. The demo API runs in a child process so that its CPU time
// is not billed to either side. Usage: npm run build && node bench/testRead.mjs [pages] [rounds]
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runtime = createRequire(import.meta.url)(join(root, 'out/runtime.js'));
const PAGES = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 3);
const PAGE_SIZE = 100;

const server = spawn(process.execPath, [join(root, 'scripts/demoApi.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  server.stdout.once('data', (d) => resolve(String(d).trim().split('\n')[0]));
  server.once('exit', (code) => reject(new Error(`demo API exited with ${code}`)));
});

const total = PAGES * PAGE_SIZE;
const manifest = {
  version: '6.0.0',
  type: 'DeclarativeSource',
  check: { type: 'CheckStream', stream_names: ['items'] },
  streams: [
    {
      type: 'DeclarativeStream',
      name: 'items',
      primary_key: ['id'],
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${url}/offset/items`, request_parameters: { total: String(total) } },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        paginator: {
          type: 'DefaultPaginator',
          page_size_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'limit' },
          page_token_option: { type: 'RequestOption', inject_into: 'request_parameter', field_name: 'offset' },
          pagination_strategy: { type: 'OffsetIncrement', page_size: PAGE_SIZE },
        },
      },
    },
  ],
};

let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 20);

async function bareLoop(pages) {
  let records = 0;
  for (let p = 0; p < pages; p++) {
    const offset = p * PAGE_SIZE;
    const q = p === 0 ? `total=${total}&limit=${PAGE_SIZE}` : `total=${total}&offset=${offset}&limit=${PAGE_SIZE}`;
    const res = await fetch(`${url}/offset/items?${q}`);
    const body = JSON.parse(await res.text());
    records += body.data.length;
  }
  return records;
}

async function runtimeRead(pages) {
  const r = await runtime.testRead(manifest, {}, 'items', { maxPagesPerSlice: pages, maxRecords: pages * PAGE_SIZE, maxSlices: 1 });
  const errors = r.logs.filter((l) => l.level === 'ERROR');
  if (errors.length) throw new Error(errors[0].message);
  return r.slices[0].pages.reduce((n, p) => n + p.records.length, 0);
}

async function time(fn, pages) {
  const t0 = process.hrtime.bigint();
  const records = await fn(pages);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, records };
}

try {
  await bareLoop(20);
  await runtimeRead(20);
  const bare = [];
  const read = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await time(bareLoop, PAGES));
    read.push(await time(runtimeRead, PAGES));
  }
  const median = (xs) => xs.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const b = median(bare);
  const t = median(read);
  if (read[0].records !== PAGES * PAGE_SIZE || bare[0].records !== PAGES * PAGE_SIZE)
    throw new Error(`record counts differ: ${read[0].records} vs ${bare[0].records}`);
  console.log(`pages=${PAGES} records/page=${PAGE_SIZE} rounds=${ROUNDS}`);
  console.log(`bare fetch loop : ${b.toFixed(0)} ms (median)`);
  console.log(`testRead        : ${t.toFixed(0)} ms (median)`);
  console.log(`ratio           : ${(t / b).toFixed(2)}x (target <= 1.3x)`);
  console.log(`peak memory     : rss ${(peakRss / 1048576).toFixed(0)} MB, heap ${(peakHeap / 1048576).toFixed(0)} MB`);
} finally {
  clearInterval(sampler);
  server.kill();
}

// Benchmark: what masking costs. (1) A large test read (out/runtime.js, built) of the demo API with
// seven config values sent as credential headers, so every page, record and log is masked, against
// the same read with the same headers written literally in the manifest (nothing to mask); medians of
// ROUNDS, printed as a ratio. (2) The masker alone on a 1 MB body, plain, with ordinary escapes
// (`%20`, `\u00e9`), and hostile (the secrets echoed wholly encoded every 4 KB), as it is now and, when
// git can show it, as it was before wholly encoded secrets were looked for (commit BEFORE).
// Usage: npm run build && node bench/masking.mjs [pages] [rounds]
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const runtime = require(join(root, 'out/runtime.js'));
const PAGES = Number(process.argv[2] ?? 300);
const ROUNDS = Number(process.argv[3] ?? 3);
const PAGE_SIZE = 100;
const BEFORE = '69f8f05';
const SECRETS = [
  'sk_live_51HxQ2eLkdfj39',
  'pass w0rd/é!',
  'ghp_abcdefghijklmnop1234',
  'AKIA1234567890ABCD',
  'refresh-tok-XYZ987',
  'client-secret-000111',
  'eyJhbGciOiJIUzI1NiJ9.payload',
];

/** The masking module (server/src/runtime/shared/secretPatterns.ts) of the work tree, or of `commit`. */
async function loadPatterns(commit) {
  let contents;
  if (commit) {
    const shown = spawnSync('git', ['show', `${commit}:server/src/runtime/shared/secretPatterns.ts`], { cwd: root, encoding: 'utf8' });
    if (shown.status !== 0) return null;
    contents = shown.stdout;
  }
  const entry = contents
    ? { stdin: { contents, loader: 'ts', resolveDir: root } }
    : { entryPoints: [join(root, 'server/src/runtime/shared/secretPatterns.ts')] };
  const out = await esbuild.build({ ...entry, bundle: true, write: false, format: 'cjs', platform: 'node', logLevel: 'silent' });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(module, module.exports, require);
  return module.exports;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function timeSync(fn, n = 5) {
  fn();
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

// (2) The masker alone.
const percent = (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const records = Array.from({ length: 7000 }, (_, i) => ({
  id: i,
  name: `name ${i}`,
  url: `https://x.test/a/b?q=${i}&r=1`,
  text: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit',
}));
const plain = JSON.stringify(records);
const escaped = JSON.stringify(
  records.map((r) => ({ ...r, name: `${r.name} caf\u00e9 & co`, url: r.url.replace('/a/b', '/a%20b') })),
).replace(/\u00e9/g, '\\u00e9');
const echo = SECRETS.map(percent).join(' ');
const hostile = plain.replace(/("id":\d*000,)/g, `$1"echo":"${echo}",`);
const bodies = [
  ['plain JSON', plain],
  ['with %20, \\u00e9, &', escaped],
  ['hostile (wholly encoded echo)', hostile],
];
const now = await loadPatterns(null);
const before = await loadPatterns(BEFORE);
console.log(`masker alone, ${SECRETS.length} secrets, body ≈ ${(plain.length / 1e6).toFixed(2)} MB (median of 7, alternating):`);
for (const [label, body] of bodies) {
  // Rounds alternate between the two versions, so neither gets the warmer machine.
  const versions = [
    ['now', now],
    ['before', before],
  ]
    .filter(([, m]) => m)
    .map(([name, m]) => ({ name, m, compiled: m.compileSecrets(SECRETS), ms: [] }));
  for (const v of versions) v.m.maskSecretsIn(body, v.compiled);
  for (let round = 0; round < 7; round++) {
    for (const v of versions) {
      const t = performance.now();
      v.m.maskSecretsIn(body, v.compiled);
      v.ms.push(performance.now() - t);
    }
  }
  const line = versions.map((v) => {
    const left = SECRETS.filter((s) => v.m.maskSecretsIn(body, v.compiled).includes(percent(s))).length;
    return `${v.name} ${median(v.ms).toFixed(1)} ms${body === hostile ? ` (${left} of ${SECRETS.length} encoded secrets left)` : ''}`;
  });
  console.log(`  ${label.padEnd(30)} ${line.join(' · ')}`);
}
{
  const strings = records.flatMap((r) => Object.values(r).map(String));
  const compiled = now.compileSecrets(SECRETS);
  console.log(
    `  ${`${strings.length} record strings`.padEnd(30)} now ${timeSync(() => {
      for (const s of strings) now.maskSecretsIn(s, compiled);
    }).toFixed(1)} ms`,
  );
}

// (1) A large read, every page masked, against the same read with nothing to mask.
const server = spawn(process.execPath, [join(root, 'scripts/demoApi.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  server.stdout.once('data', (d) => resolve(String(d).trim().split('\n')[0]));
  server.once('exit', (code) => reject(new Error(`demo API exited with ${code}`)));
});
const total = PAGES * PAGE_SIZE;
function manifest(headers) {
  return {
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
          requester: {
            type: 'HttpRequester',
            url: `${url}/offset/items`,
            request_parameters: { total: String(total) },
            request_headers: headers,
          },
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
}
const fromConfig = manifest(Object.fromEntries(SECRETS.map((_, i) => [`X-Api-Key-${i}`, `{{ config['key_${i}'] }}`])));
const literal = manifest(Object.fromEntries(SECRETS.map((s, i) => [`X-Api-Key-${i}`, s])));
const config = Object.fromEntries(SECRETS.map((s, i) => [`key_${i}`, s]));

async function read(m, c) {
  const t = performance.now();
  const r = await runtime.testRead(m, c, 'items', { maxPagesPerSlice: PAGES, maxRecords: total, maxSlices: 1 });
  const ms = performance.now() - t;
  const errors = r.logs.filter((l) => l.level === 'ERROR');
  if (errors.length) throw new Error(errors[0].message);
  const headers = JSON.stringify(r.slices[0].pages[0].request.headers);
  return { ms, masked: (headers.match(/\*\*\*\*/g) ?? []).length };
}

try {
  await read(literal, {});
  await read(fromConfig, config);
  const bare = [];
  const masked = [];
  let shown = 0;
  for (let i = 0; i < ROUNDS; i++) {
    bare.push((await read(literal, {})).ms);
    const r = await read(fromConfig, config);
    masked.push(r.ms);
    shown = r.masked;
  }
  const b = median(bare);
  const m = median(masked);
  console.log(`\ntest read of ${PAGES} pages × ${PAGE_SIZE} records (median of ${ROUNDS}):`);
  console.log(`  nothing to mask                ${b.toFixed(0)} ms`);
  console.log(
    `  ${SECRETS.length} credentials masked         ${m.toFixed(0)} ms (${shown} of ${SECRETS.length} request headers show ****)`,
  );
  console.log(`  ratio                          ${(m / b).toFixed(2)}x`);
} finally {
  server.kill();
}

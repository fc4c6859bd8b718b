// Benchmark: evaluating the templates of the real-manifest corpus against a sample context with the
// built runtime (out/runtime.js), compared with a plain regex string replace over the same templates
// in the same run. Prints µs per template (cold = first evaluation incl. parsing, warm = cached parse)
// and the ratio to the baseline. Usage: npm run build && node bench/interpolation.mjs [manifests dir]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import yaml from 'js-yaml';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '..');
const { interpolate } = require(join(root, 'out', 'runtime.js'));
const dir = resolve(process.argv[2] ?? join(root, '..', 'shared', 'corpus', 'manifests'));

const templates = new Set();
const collect = (v) => {
  if (typeof v === 'string') {
    if (/\{\{|\{%/.test(v)) templates.add(v);
  } else if (Array.isArray(v)) v.forEach(collect);
  else if (v && typeof v === 'object') Object.values(v).forEach(collect);
};
if (existsSync(dir)) {
  for (const f of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n))) {
    try {
      collect(yaml.load(readFileSync(join(dir, f), 'utf8')));
    } catch {
      // A manifest js-yaml cannot load contributes no templates.
    }
  }
} else {
  for (const t of [
    "{{ config['api_key'] }}",
    "{{ now_utc().strftime('%Y-%m-%d') }}",
    "{{ response.get('next') is none }}",
    '{{ stream_interval.start_time }}',
  ])
    templates.add(t);
}
const list = [...templates];
const context = {
  config: { api_key: 'k', start_date: '2021-01-01T00:00:00Z', page_size: 100, region: 'us' },
  parameters: { name: 'items', path: 'items' },
  stream_slice: { start_time: '2021-01-01T00:00:00Z', end_time: '2021-01-02T00:00:00Z' },
  next_page_token: { next_page_token: 'abc' },
  response: { next: 'x', data: [] },
  headers: { link: {} },
  last_record: { id: 1 },
  last_page_size: 1,
  record: { id: 1 },
};
const env = { now: () => new Date('2021-09-01T00:00:00Z') };

const good = [];
function runAll(templatesToRun = list) {
  let ok = 0;
  for (const t of templatesToRun) {
    try {
      interpolate(t, context, 'string', env);
      ok++;
    } catch {
      // Templates that need variables of other fields fail fast; their cost is still measured.
    }
  }
  return ok;
}
function baseline() {
  let n = 0;
  for (const t of list) n += t.replace(/\{\{\s*config\[?['".]?(\w+)['"]?\]?\s*\}\}/g, (_m, k) => String(context.config[k] ?? '')).length;
  return n;
}
function timeIt(fn, rounds) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const t0 = process.hrtime.bigint();
const ok = runAll();
for (const t of list) {
  try {
    interpolate(t, context, 'string', env);
    good.push(t);
  } catch {
    // Only templates that evaluate cleanly go into the second measurement.
  }
}
const goodUs = timeIt(() => runAll(good), 7);
const coldUs = Number(process.hrtime.bigint() - t0) / 1e3;
const warmUs = timeIt(runAll, 7);
const baseUs = timeIt(baseline, 7);
const per = (us) => (us / list.length).toFixed(2);
console.log(`templates: ${list.length} unique (${ok} evaluate without error in the sample context)`);
console.log(`cold (parse + evaluate): ${per(coldUs)} µs/template`);
console.log(`warm (cached parse):     ${per(warmUs)} µs/template (median of 7 rounds)`);
console.log(
  `warm, error-free only:   ${(goodUs / good.length).toFixed(2)} µs/template (${good.length} templates; errors build a RuntimeError with a stack trace)`,
);
console.log(`baseline (regex replace): ${per(baseUs)} µs/template`);
console.log(`ratio warm / baseline:   ${(warmUs / baseUs).toFixed(1)}x`);
if (process.env.BENCH_SLOWEST) {
  const costs = good
    .map((t) => {
      const s = process.hrtime.bigint();
      for (let i = 0; i < 20; i++) interpolate(t, context, 'string', env);
      return [Number(process.hrtime.bigint() - s) / 20e3, t];
    })
    .sort((a, b) => b[0] - a[0]);
  for (const [us, t] of costs.slice(0, Number(process.env.BENCH_SLOWEST)))
    console.log(`${us.toFixed(1)} µs  ${JSON.stringify(t).slice(0, 100)}`);
}

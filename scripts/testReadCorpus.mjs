// Corpus check for the test read: builds every stream of every manifest in a folder (default
// ../shared/corpus/manifests) with a config made up from its spec (defaults, examples, or a plausible
// value per type/format that fits the spec's patterns) and a transport that refuses all requests, and counts streams that got as far
// as their first request versus streams the runtime cannot build or fails on, grouped by reason.
// Usage: npm run build && node scripts/testReadCorpus.mjs [folder]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { sampleConfig as specSample } from './differential/sampleConfig.mjs';

/** A config from the spec (defaults, examples, values that fit its patterns), as the differential harness makes it. */
const sampleConfig = (schema) => specSample(schema, 9);

const runtime = createRequire(import.meta.url)('../out/runtime.js');
const dir = process.argv[2] ?? '../shared/corpus/manifests';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const refuse = async () => {
  throw Object.assign(new Error('offline corpus check'), { code: 'ECONNREFUSED' });
};
const reasons = new Map();
let streams = 0;
let reachedRequest = 0;
let other = 0;
for (const file of files) {
  let manifest;
  try {
    manifest = parse(readFileSync(join(dir, file), 'utf8'), { maxAliasCount: 1000 });
  } catch {
    continue;
  }
  const names = (Array.isArray(manifest?.streams) ? manifest.streams : [])
    .map((s) => s?.name ?? s?.$parameters?.name)
    .filter((n) => typeof n === 'string');
  for (const name of names) {
    streams++;
    try {
      const r = await runtime.testRead(
        manifest,
        sampleConfig(manifest?.spec?.connection_specification),
        name,
        { maxSlices: 1, maxPagesPerSlice: 1, maxRecords: 1 },
        { fetch: refuse, sleep: async () => {} },
      );
      const err = r.logs.find((l) => l.level === 'ERROR');
      if (err && /offline corpus check|ECONNREFUSED/.test(err.message)) reachedRequest++;
      else if (!err) reachedRequest++;
      else {
        other++;
        count(`read: ${shorten(err.message)}`);
      }
    } catch (e) {
      count(`build: ${shorten(e.message)}`);
    }
  }
}
function shorten(m) {
  if (process.env.VERBOSE) return m.slice(0, 300);
  return m
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 110);
}
function count(k) {
  reasons.set(k, (reasons.get(k) ?? 0) + 1);
}
console.log(
  `${files.length} manifests, ${streams} streams: ${reachedRequest} reached their first request (${((100 * reachedRequest) / Math.max(1, streams)).toFixed(1)}%), ${other} failed before it while reading, ${streams - reachedRequest - other} could not be built`,
);
for (const [k, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${String(n).padStart(5)}  ${k}`);

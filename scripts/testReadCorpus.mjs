// Corpus check for the test read: builds every stream of every manifest in a folder (default
// ../shared/corpus/manifests) with a config made up from its spec (defaults, examples, or a plausible
// value per type/format) and a transport that refuses all requests, and counts streams that got as far
// as their first request versus streams the runtime cannot build or fails on, grouped by reason.
// Usage: npm run build && node scripts/testReadCorpus.mjs [folder]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { parse } from 'yaml';

const runtime = createRequire(import.meta.url)('../out/runtime.js');
const dir = process.argv[2] ?? '../shared/corpus/manifests';
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
const refuse = async () => { throw Object.assign(new Error('offline corpus check'), { code: 'ECONNREFUSED' }); };
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
  const names = (Array.isArray(manifest?.streams) ? manifest.streams : []).map((s) => s?.name ?? s?.$parameters?.name).filter((n) => typeof n === 'string');
  for (const name of names) {
    streams++;
    try {
      const r = await runtime.testRead(manifest, sampleConfig(manifest?.spec?.connection_specification), name, { maxSlices: 1, maxPagesPerSlice: 1, maxRecords: 1 }, { fetch: refuse, sleep: async () => {} });
      const err = r.logs.find((l) => l.level === 'ERROR');
      if (err && /offline corpus check|ECONNREFUSED/.test(err.message)) reachedRequest++;
      else if (!err) reachedRequest++;
      else { other++; count(`read: ${shorten(err.message)}`); }
    } catch (e) {
      count(`build: ${shorten(e.message)}`);
    }
  }
}
/** A config from a JSON schema: default, first example, first oneOf branch, or a value per type/format. */
function sampleConfig(schema) {
  const value = sample(schema, 0);
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}
function sample(s, depth) {
  if (!s || typeof s !== 'object' || depth > 6) return undefined;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.oneOf) && s.oneOf.length) return sample(s.oneOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    const out = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const v = sample(p, depth + 1);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  if (s.format === 'date-time') return '2024-01-01T00:00:00Z';
  if (s.format === 'date') return '2024-01-01';
  if (typeof s.pattern === 'string' && s.pattern.includes('[0-9]{4}-[0-9]{2}-[0-9]{2}T')) return '2024-01-01T00:00:00Z';
  if (typeof s.pattern === 'string' && s.pattern.includes('[0-9]{4}-[0-9]{2}-[0-9]{2}')) return '2024-01-01';
  return 'sample';
}

function shorten(m) {
  if (process.env.VERBOSE) return m.slice(0, 300);
  return m.replace(/'[^']*'/g, "'…'").replace(/"[^"]*"/g, '"…"').replace(/\d+/g, 'N').slice(0, 110);
}
function count(k) {
  reasons.set(k, (reasons.get(k) ?? 0) + 1);
}
console.log(`${files.length} manifests, ${streams} streams: ${reachedRequest} reached their first request (${((100 * reachedRequest) / Math.max(1, streams)).toFixed(1)}%), ${other} failed before it while reading, ${streams - reachedRequest - other} could not be built`);
for (const [k, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${String(n).padStart(5)}  ${k}`);

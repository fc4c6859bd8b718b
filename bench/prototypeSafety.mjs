// Benchmark: what prototype-safe data costs (docs/security.md, "Prototype-safe data"). A test read of
// one page of wide records (5,000 records x 26 keys, nested) through KeysToLower, KeysReplace and
// AddFields, with schema inference, median of 5; and, for the alternative not taken, JSON.parse of the
// same body as it is against JSON.parse with a reviver that makes every object null-prototype.
// Usage: npm run build && node bench/prototypeSafety.mjs [other/out/runtime.js to compare with]
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const runtimes = [['this build', require(join(root, 'out/runtime.js'))]];
if (process.argv[2]) runtimes.push([process.argv[2], require(process.argv[2])]);

const RECORDS = 5_000;
const record = (i) => {
  const r = { id: i };
  for (let k = 0; k < 25; k++) r[`Field_${k}`] = k % 3 === 0 ? `value ${i} ${k}` : k % 3 === 1 ? i * k : { Nested: k, Inner: [i, k] };
  return r;
};
const body = JSON.stringify({ data: Array.from({ length: RECORDS }, (_, i) => record(i)) });
const server = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}`;

const manifest = {
  version: '6.0.0',
  type: 'DeclarativeSource',
  check: { type: 'CheckStream', stream_names: ['wide'] },
  streams: [
    {
      type: 'DeclarativeStream',
      name: 'wide',
      primary_key: ['id'],
      retriever: {
        type: 'SimpleRetriever',
        requester: { type: 'HttpRequester', url: `${url}/wide` },
        record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
      },
      transformations: [
        { type: 'KeysToLower' },
        { type: 'KeysReplace', old: 'field_', new: 'f' },
        { type: 'AddFields', fields: [{ type: 'AddedFieldDefinition', path: ['added', 'deep'], value: "{{ record['id'] }}" }] },
      ],
    },
  ],
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn, rounds = 5) {
  const out = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

for (const [name, rt] of runtimes) {
  const ms = await time(async () => {
    const r = await rt.testRead(manifest, {}, 'wide', { maxRecords: RECORDS });
    const n = r.slices.flatMap((s) => s.pages).reduce((k, p) => k + p.records.length, 0);
    if (n !== RECORDS) throw new Error(`${name}: ${n} records`);
  });
  console.log(`test read, ${RECORDS} records x 26 keys with 3 transformations (${name}): ${ms.toFixed(0)} ms (median of 5)`);
}

const nullProto = (_k, v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.assign(Object.create(null), v) : v);
const plain = await time(() => JSON.parse(body), 7);
const revived = await time(() => JSON.parse(body, nullProto), 7);
console.log(
  `JSON.parse of the ${(body.length / 1e6).toFixed(1)} MB body: ${plain.toFixed(0)} ms; with a null-prototype reviver: ${revived.toFixed(0)} ms (x${(revived / plain).toFixed(1)})`,
);
server.close();

// Decoder throughput: the same 20,000 records as JSON, JSON Lines, XML, CSV, gzip'd JSON lines and a zip
// of gzip'd JSON lines, each decoded by the runtime's decoder; times are medians of 5 rounds, printed
// as ratios against JSON.parse of the JSON body in the same run.
// Usage: npm run build && node bench/decoders.mjs
import { createRequire } from 'node:module';
import { gzipSync, deflateRawSync } from 'node:zlib';

const { createDecoder } = createRequire(import.meta.url)('../out/runtime.js');
const N = 20_000;
const records = Array.from({ length: N }, (_, i) => ({
  id: String(i),
  name: `name ${i}`,
  email: `user${i}@example.com`,
  score: String(i % 97),
}));
const jsonText = JSON.stringify(records);
const jsonlText = records.map((r) => JSON.stringify(r)).join('\n');
const xmlText = `<rows>${records.map((r) => `<row id="${r.id}"><name>${r.name}</name><email>${r.email}</email><score>${r.score}</score></row>`).join('')}</rows>`;
const csvText = `id,name,email,score\n${records.map((r) => `${r.id},${r.name},${r.email},${r.score}`).join('\n')}\n`;
const gz = gzipSync(jsonlText);

function zipOf(name, data) {
  // One deflated entry; enough structure for the runtime's zip reader.
  const stored = deflateRawSync(data);
  const n = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(stored.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(stored.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(n.length, 28);
  const cdOffset = 30 + n.length + stored.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, n, stored, central, n, end]);
}
const zip = zipOf('export.json.gz', gz);

let fresh = 0;
const cases = [
  // JsonDecoder remembers the last body it parsed: a trailing space makes each round's body new.
  ['JsonDecoder', { type: 'JsonDecoder' }, () => ({ body: jsonText + ' '.repeat(++fresh) })],
  ['JsonlDecoder', { type: 'JsonlDecoder' }, () => ({ body: jsonlText })],
  ['XmlDecoder', { type: 'XmlDecoder' }, () => ({ body: xmlText })],
  ['CsvDecoder', { type: 'CsvDecoder' }, () => ({ body: csvText })],
  ['GzipDecoder(JsonlDecoder)', { type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } }, () => ({ body: '', bodyBytes: gz })],
  [
    'ZipfileDecoder(Gzip(Jsonl))',
    { type: 'ZipfileDecoder', decoder: { type: 'GzipDecoder', decoder: { type: 'JsonlDecoder' } } },
    () => ({ body: '', bodyBytes: zip }),
  ],
];

function median(fn) {
  const times = [];
  for (let round = 0; round < 5; round++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[2];
}

const baseline = median(() => JSON.parse(jsonText));
console.log(`records=${N}  baseline JSON.parse: ${baseline.toFixed(1)} ms`);
for (const [label, component, input] of cases) {
  const decoder = createDecoder(component);
  let count = 0;
  // A fresh response object per round: the per-response cache must not hide the work.
  const ms = median(() => {
    count = decoder.decode(input()).length;
  });
  const shape = count === 1 ? 'one document' : `${count} elements`;
  console.log(`${label.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / baseline).toFixed(2)}x  (${shape})`);
}

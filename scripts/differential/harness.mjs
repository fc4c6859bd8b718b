// Differential harness: runs the same Connector Builder test read through the reference CDK and through
// our runtime, against one synthesized API on 127.0.0.1 per manifest, and compares what reached the wire
// (method, URL, query, body, credential and custom headers), the records of every page, the slices and
// the state. See docs/fidelity.md for how to set up the reference (it stays outside this repository).
//
// Usage: npm run build && node scripts/differential/harness.mjs --reference "<command>" [--corpus DIR]
//          [--only NAME[,NAME]] [--skip NAME[,NAME]] [--timeout SECONDS] [--streams STREAM[,STREAM]] [--limit N] [--report FILE [--resume]] [--goldens DIR] [--dump DIR] [--shard I/N [--reverse]] [--verbose]
//        node scripts/differential/harness.mjs --summarize report-1.json,report-2.json [--report merged.json]
//        node scripts/differential/harness.mjs --reference "<command>" --sample scripts/differential/ciSample.json
//          (CI: the sample's manifests only; exits 1 when a stream the sample records as identical no longer is)
// The reference command reads one JSON request per line on stdin and answers one JSON line per request
// (a StreamRead, or {"__exception": ...}). REFERENCE_CDK_CMD may be given instead of --reference.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { parse } from 'yaml';
import { startSyntheticApi, rewriteUrls, capPageSizes, formatDate, evalString, FROZEN_NOW } from './syntheticApi.mjs';
import { compareReads, summaryOf, wireRequests } from './compare.mjs';
import { alignConfigDates, alignConfigLists, alignConfigStart, alignConfigUrls, sampleConfig } from './sampleConfig.mjs';
import { figuresOf, printFigures, shapeOf } from './figures.mjs';

const runtime = createRequire(import.meta.url)('../../out/runtime.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const referenceCmd = opt('--reference', process.env.REFERENCE_CDK_CMD);
const corpus = opt('--corpus', '../shared/corpus/manifests');
const only =
  opt('--only', null)?.split(',') ??
  (opt('--sample', null) ? JSON.parse(readFileSync(opt('--sample', null), 'utf8')).manifests.map((m) => m.connector) : undefined);
const onlyStreams = opt('--streams', null)?.split(',');
const resume = args.includes('--resume');
const limit = Number(opt('--limit', '100000'));
const reportFile = opt('--report', null);
const goldensDir = opt('--goldens', null);
const verbose = args.includes('--verbose');
const dumpDir = opt('--dump', null);
const [shardIndex, shardCount] = opt('--shard', '1/1').split('/').map(Number);
const summarizeFiles = opt('--summarize', null)?.split(',');
// --sample FILE: a fixed list of manifests with the status each stream had when the sample was taken.
const sampleFile = opt('--sample', null);
const sample = sampleFile ? JSON.parse(readFileSync(sampleFile, 'utf8')) : null;
// The reference does not stop at max_records at this snapshot (reference-behaviour.md §10.2, we do, by
// design): the record limit is set above what a read can return (3 slices × 4 pages × 1000 records) so
// both read the same.
const LIMITS = { maxRecords: 15000, maxPagesPerSlice: 4, maxSlices: 3 };
// --timeout SECONDS: a large manifest (source-amazon-ads, 3,500 lines) takes the reference longer to build on a loaded machine.
const STREAM_TIMEOUT_MS = Number(opt('--timeout', '60')) * 1000;
// --skip NAME[,NAME]: manifests left for a separate run (with a longer --timeout).
const skip = opt('--skip', null)?.split(',') ?? [];

if (!referenceCmd && !summarizeFiles) {
  console.error('harness: give the reference command with --reference "<command>" or REFERENCE_CDK_CMD (see docs/fidelity.md)');
  process.exit(2);
}

/**
 * The reference as a long-running process: one JSON request per line, one answer per line. A read
 * that does not answer in time is stopped with its process (a new one serves the next read): a
 * read left running would go on sending requests into the next stream's exchanges.
 */
function startReference(cmd) {
  let child = null;
  let waiting = null;
  const launch = () => {
    // `exec` so that the process we stop is the reference itself, not a shell around it.
    child = spawn('/bin/sh', ['-c', `exec ${cmd}`], { stdio: ['pipe', 'pipe', 'inherit'] });
    // A reference that died takes its stdin pipe with it: the write fails (EPIPE) and the exit
    // handler answers the read.
    child.stdin.on('error', () => {});
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      const w = waiting;
      waiting = null;
      w?.(line);
    });
    child.on('exit', () => {
      const w = waiting;
      waiting = null;
      w?.('{"__exception":"reference process exited"}');
    });
  };
  launch();
  return {
    read(request) {
      if (child.exitCode !== null || child.signalCode !== null) launch();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting = null;
          child.removeAllListeners('exit');
          child.kill('SIGKILL');
          launch();
          resolve({ __exception: `reference timed out after ${STREAM_TIMEOUT_MS / 1000} s` });
        }, STREAM_TIMEOUT_MS);
        waiting = (line) => {
          clearTimeout(timer);
          try {
            resolve(JSON.parse(line));
          } catch {
            resolve({ __exception: `unreadable answer: ${line.slice(0, 200)}` });
          }
        };
        child.stdin.write(JSON.stringify(request) + '\n');
      });
    },
    close() {
      child.stdin.end();
      child.kill();
    },
  };
}

const hasCustom = (node) => JSON.stringify(node ?? null).includes('"type":"Custom');

/** The manifest with one of its streams (by index) and no dynamic streams that need custom code. */
function onlyStream(manifest, index) {
  const out = { ...manifest, streams: [manifest.streams[index]] };
  if (hasCustom(out.dynamic_streams)) delete out.dynamic_streams;
  return out;
}

async function main() {
  const reference = startReference(referenceCmd);
  // --resume: keep the results of the manifests an earlier run of this report finished (its last
  // manifest may be incomplete, so it runs again).
  const earlier = resume && reportFile && existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : null;
  const kept = earlier ? (Array.isArray(earlier) ? earlier : earlier.streams) : [];
  const lastKept = kept.length ? kept[kept.length - 1].connector : null;
  const finished = new Set(kept.filter((r) => r.connector !== lastKept).map((r) => r.connector));
  const files = readdirSync(corpus)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .filter((f) => !only || only.includes(basename(f, '.yaml')))
    .filter((f) => !skip.includes(basename(f, '.yaml')))
    .filter((_, i) => i % shardCount === shardIndex - 1)
    .filter((f) => !finished.has(basename(f, '.yaml')));
  // --reverse: a second process can take a shard from its end while the first is still going.
  if (args.includes('--reverse')) files.reverse();
  const results = kept.filter((r) => finished.has(r.connector));
  let done = 0;
  for (const file of files) {
    if (done >= limit) break;
    let manifest;
    try {
      manifest = parse(readFileSync(join(corpus, file), 'utf8'), { maxAliasCount: 1000, uniqueKeys: false });
    } catch {
      continue;
    }
    const api = await startSyntheticApi();
    try {
      const rewritten = capPageSizes(rewriteUrls(manifest, api.port));
      const resolved = runtime.resolveManifest(rewritten).value;
      const made = alignConfigLists(
        alignConfigUrls(
          alignConfigDates(rewriteUrls(sampleConfig(resolved?.spec?.connection_specification, api.port), api.port), resolved, formatDate),
          resolved,
          api.port,
        ),
        resolved,
        api.port,
      );
      const config = alignConfigStart(made, resolved, (step) => evalString(step, made, {}));
      api.configure(resolved, config);
      const streams = Array.isArray(resolved?.streams) ? resolved.streams : [];
      const customElsewhere = hasCustom(resolved);
      const customOutside = Object.keys(resolved ?? {})
        .filter((k) => !['streams', 'dynamic_streams', 'definitions', 'schemas', 'metadata'].includes(k) && hasCustom(resolved[k]))
        .join(', ');
      for (const [index, stream] of streams.entries()) {
        if (done >= limit) break;
        const name = stream?.name;
        if (typeof name !== 'string' || (onlyStreams && !onlyStreams.includes(name))) continue;
        // --sample: only the streams the sample lists (at most a few per manifest, to keep CI short).
        if (sample && !sample.manifests.some((m) => m.connector === basename(file, '.yaml') && name in m.streams)) continue;
        done++;
        const connector = basename(file, '.yaml');
        const shape = shapeOf(stream);
        if (hasCustom(stream)) {
          results.push({ connector, stream: name, ...shape, status: 'out_of_scope', reasons: ['custom Python component'] });
          continue;
        }
        // Custom code outside the streams (a spec's CustomConfigTransformation: mailchimp) shapes the
        // config every stream reads, and the reference refuses the manifest: no stream is comparable.
        if (customOutside) {
          results.push({
            connector,
            stream: name,
            ...shape,
            status: 'out_of_scope',
            reasons: [`custom Python component outside the streams (${customOutside})`],
          });
          continue;
        }
        const incremental = Boolean(stream.incremental_sync);
        // The reference builds every stream of a manifest before it reads one, and refuses custom
        // Python code: a stream without custom components is read from a manifest that keeps only it
        // (both sides get the same one).
        const streamManifest = customElsewhere ? onlyStream(rewritten, index) : rewritten;
        api.exchanges.length = 0;
        api.resetJobs();
        // A clock stopped on a whole second is the one instant where Python's str(now) has no
        // fraction, so a `%f` format cannot parse it and the reference reads nothing (insightly,
        // freshcaller); a real clock almost never stops there, so those manifests run on a clock with
        // milliseconds (both sides).
        const now = JSON.stringify(streamManifest).includes('%f') ? FROZEN_NOW.replace('Z', '.250Z') : FROZEN_NOW;
        const ref = await reference.read({ manifest: streamManifest, config, stream: name, limits: LIMITS, incremental, now });
        const refWire = api.exchanges.splice(0);
        api.resetJobs();
        let ours;
        try {
          ours = await runtime.testRead(streamManifest, structuredClone(config), name, LIMITS, {
            now: () => new Date(now),
            sleep: async () => {},
          });
        } catch (e) {
          ours = { __exception: String(e?.message ?? e) };
        }
        const ourWire = api.exchanges.splice(0);
        const verdict = compareReads(ref, refWire, ours, ourWire, { asyncRetriever: stream.retriever?.type === 'AsyncRetriever' });
        if (dumpDir) {
          mkdirSync(dumpDir, { recursive: true });
          writeFileSync(
            join(dumpDir, `${connector}--${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`),
            JSON.stringify({ verdict, reference: ref, referenceWire: refWire, ours, oursWire: ourWire }, null, 1),
          );
        }
        const entry = { connector, stream: name, ...shape, ...verdict };
        results.push(entry);
        if (verbose || verdict.status !== 'identical')
          console.log(
            `${verdict.status.padEnd(16)} ${connector}/${name}${verdict.reasons.length ? ': ' + verdict.reasons.slice(0, 3).join(' | ') : ''}`,
          );
        if (goldensDir && verdict.status === 'identical' && verdict.depth >= 2)
          writeGolden(goldensDir, connector, name, streamManifest, config, api.port, incremental, refWire, ours, now);
      }
    } finally {
      await api.close();
    }
    // The report grows manifest by manifest, so a run stopped early still leaves what it covered.
    if (reportFile) writeReport(reportFile, results, false);
  }
  reference.close();
  summarize(results);
  if (reportFile) writeReport(reportFile, results, true);
  if (sample) process.exitCode = checkSample(sample, results);
}

/** --sample: every stream the sample records as identical must still be; a regression fails the run. */
function checkSample(sample, results) {
  const now = new Map(results.map((r) => [`${r.connector}/${r.stream}`, r]));
  const regressions = [];
  const inconclusive = [];
  let expected = 0;
  for (const m of sample.manifests) {
    for (const [stream, status] of Object.entries(m.streams)) {
      if (status !== 'identical') continue;
      expected++;
      const r = now.get(`${m.connector}/${stream}`);
      if (!r) regressions.push(`${m.connector}/${stream}: not read`);
      // A reference that did not answer in time says nothing about our runtime (a loaded machine): listed, not failed.
      else if (r.status === 'reference_failed' && /timed out/.test(JSON.stringify(r.reasons ?? [])))
        inconclusive.push(`${m.connector}/${stream}`);
      else if (r.status !== 'identical')
        regressions.push(`${m.connector}/${stream}: ${r.status}${r.reasons?.length ? ` (${r.reasons.slice(0, 2).join(' | ')})` : ''}`);
    }
  }
  console.log(
    `\nsample ${sampleFile}: ${sample.manifests.length} manifests, ${expected - regressions.length - inconclusive.length} of ${expected} streams still identical to the reference`,
  );
  if (inconclusive.length) console.log(`not compared (the reference timed out): ${inconclusive.join(', ')}`);
  for (const line of regressions) console.log(`REGRESSION ${line}`);
  return regressions.length ? 1 : 0;
}

/** The report: the figures, whether the run covered its whole share of the corpus, every stream's result. */
function writeReport(file, results, complete) {
  const run = { date: new Date().toISOString(), shard: `${shardIndex}/${shardCount}`, only: only ?? null, complete };
  writeFileSync(file, JSON.stringify({ run, figures: figuresOf(results), streams: results }, null, 1));
}

/**
 * A golden test: the manifest (URLs pointing at a placeholder origin), the config, the exchanges the
 * reference had with the API, and the normalized result both sides agreed on.
 */
// The expected summary is taken from our read: the verdict says it agrees with the reference on every
// compared point, and our slice descriptors pair each slice with its own partition (the reference's may
// name a later partition, a timing quirk).
function writeGolden(dir, connector, stream, manifest, config, port, incremental, exchanges, streamRead, now) {
  // A binary download (a gzip file of an async job) has no text form for the golden replay: not recorded.
  if (exchanges.some((e) => Buffer.isBuffer(e.responseBody))) return;
  mkdirSync(dir, { recursive: true });
  const origin = `http://127.0.0.1:${port}`;
  const placeholder = (v) => JSON.parse(JSON.stringify(v).split(origin).join('{{ORIGIN}}'));
  const golden = {
    about: `Recorded from the reference CDK by scripts/differential/harness.mjs: ${connector} / ${stream}`,
    connector,
    stream,
    incremental,
    now,
    limits: LIMITS,
    manifest: placeholder(manifest),
    config: placeholder(config),
    exchanges: placeholder(
      exchanges.map((e) => ({
        method: e.method,
        url: e.url,
        body: e.body,
        status: e.status,
        responseHeaders: e.responseHeaders,
        responseBody: e.responseBody,
      })),
    ),
    expected: placeholder({
      requests: wireRequests(exchanges),
      reference: streamRead && !streamRead.__exception ? summaryOf(streamRead) : null,
    }),
  };
  // One top-level key per line keeps a fixture small and its diff readable; very large reads are
  // left out (they test nothing a smaller one does not).
  const text = `{\n${Object.entries(golden)
    .map(([k, v]) => ` ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(',\n')}\n}\n`;
  if (Buffer.byteLength(text) >= 100_000) return;
  writeFileSync(join(dir, `${connector}--${stream.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`), text);
}

function summarize(results) {
  console.log(`\n${printFigures(figuresOf(results))}`);
}

/**
 * `--summarize a.json,b.json`: the figures of several reports together (the shards of one run, then
 * re-runs with --only, later files winning). Streams of reports written before the shape was recorded
 * get it from the corpus.
 */
function summarizeReports(files) {
  const results = files.flatMap((f) => {
    const r = JSON.parse(readFileSync(f, 'utf8'));
    return Array.isArray(r) ? r : r.streams;
  });
  const shapes = new Map();
  for (const r of results) {
    if (r.paginates !== undefined) continue;
    if (!shapes.has(r.connector)) {
      let streams = [];
      try {
        streams =
          runtime.resolveManifest(
            parse(readFileSync(join(corpus, `${r.connector}.yaml`), 'utf8'), { maxAliasCount: 1000, uniqueKeys: false }),
          ).value?.streams ?? [];
      } catch {
        /* unreadable: shape stays unknown */
      }
      shapes.set(r.connector, new Map(streams.map((s) => [s?.name, shapeOf(s)])));
    }
    Object.assign(r, shapes.get(r.connector).get(r.stream) ?? {});
  }
  const figures = figuresOf(results);
  console.log(printFigures(figures, 40));
  if (reportFile)
    writeFileSync(
      reportFile,
      JSON.stringify({ run: { date: new Date().toISOString(), merged: files }, figures, streams: results }, null, 1),
    );
}

if (summarizeFiles) summarizeReports(summarizeFiles);
else await main();

// Runs ONE hostile input in its own process (started by hostile.test.ts with a heap cap), so an
// input that exhausts memory or hangs ends this process, not the test runner. Loads the built
// runtime (out/runtime.js), says "ready", receives the input over IPC, runs it and reports what the
// user would see: the value or the error message, the time taken and the peak memory.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { gzipSync, deflateSync, brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const runtime = require(join(root, 'out', 'runtime.js'));

/** One line for the report, shortened: what the user would read. */
function short(text) {
  const s = String(text);
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
}

async function runTemplate(input) {
  const ctx = {
    config: { list: [1, 2, 3], text: 'abc', big: 'x'.repeat(900_000) },
    parameters: {},
    record: { id: 1 },
    response: { data: [] },
  };
  try {
    const value = runtime.interpolate(input.template, ctx, 'jinja');
    return { outcome: 'value', message: short(JSON.stringify(value) ?? 'undefined') };
  } catch (e) {
    return { outcome: 'error', message: short(e.message) };
  }
}

function runManifest(input) {
  const parsed = runtime.parseManifest(input.text);
  const problems = runtime.validateManifest(parsed);
  const errors = problems.filter((p) => p.severity === 'error');
  for (const p of problems) {
    if (!(p.span.start >= 0 && p.span.end >= p.span.start && p.span.end <= input.text.length))
      throw new Error(`bad span ${JSON.stringify(p.span)} for ${p.code}`);
  }
  return {
    outcome: errors.length ? 'error' : 'value',
    message: short(
      errors.length
        ? errors
            .map((p) => `${p.code}: ${p.message}`)
            .slice(0, 3)
            .join(' | ')
        : `${problems.length} problems, none an error`,
    ),
    codes: [...new Set(problems.map((p) => p.code))],
  };
}

/** Hostile HTTP behaviours, by scenario name. */
function hostileHandler(scenario) {
  // Bodies are built before the server starts (building them is not the runtime's time).
  const big = () => Buffer.alloc(12_000_000, 0x20);
  const payloads = {
    'gzip-encoding-bomb': () => gzipSync(big()),
    'deflate-encoding-bomb': () => deflateSync(big()),
    'br-encoding-bomb': () => brotliCompressSync(big(), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } }),
    'gzip-body-bomb': () => gzipSync(Buffer.concat([Buffer.from('{"data": ['), big(), Buffer.from(']}')])),
    'huge-body': () => Buffer.alloc(12_000_000, 0x20),
    'deep-json': () => Buffer.from('{"data": ' + '['.repeat(2_000_000) + ']'.repeat(2_000_000) + '}'),
    'huge-key-json': () => Buffer.from(`{"data": [{"${'k'.repeat(6_000_000)}": 1}]}`),
    'many-records': () => Buffer.from(`{"data": [${'{"a":1},'.repeat(400_000)}{"a":1}]}`),
    'wide-record': () => Buffer.from(`{"data": [{${Array.from({ length: 200_000 }, (_, i) => `"k${i}": ${i}`).join(',')}}]}`),
    'csv-huge-field': () => Buffer.from('a,b\n"' + 'x'.repeat(6_000_000) + '",1\n'),
    'csv-many-columns': () =>
      Buffer.from(Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(',') + '\n' + '1,'.repeat(99_999) + '1\n'),
    'jsonl-huge': () => Buffer.from('{"a": 1}\n'.repeat(700_000)),
  };
  const payload = payloads[scenario]?.();
  return (req, res) => {
    switch (scenario) {
      case 'gzip-encoding-bomb':
        res.setHeader('Content-Encoding', 'gzip');
        return drip(res, payload);
      case 'deflate-encoding-bomb':
        res.setHeader('Content-Encoding', 'deflate');
        return drip(res, payload);
      case 'br-encoding-bomb':
        res.setHeader('Content-Encoding', 'br');
        return drip(res, payload);
      case 'gzip-body-bomb':
        return res.end(payload);
      case 'huge-body':
        return drip(res, payload);
      case 'endless-body': {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(65536, 0x20);
        const pump = () => {
          while (res.write(chunk));
        };
        res.on('drain', pump);
        pump();
        return;
      }
      case 'slow-drip': {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const t = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(t));
        return;
      }
      case 'no-response':
        return; // never answers
      case 'deep-json':
      case 'huge-key-json':
      case 'many-records':
      case 'wide-record':
      case 'csv-huge-field':
      case 'csv-many-columns':
        return res.end(payload);
      case 'invalid-json':
        return res.end('{"data": [1, 2, ' + 'x'.repeat(1_000_000));
      case 'invalid-utf8':
        return res.end(Buffer.concat([Buffer.from('{"data": [{"a": "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}]}')]));
      case 'escape-error-body':
        res.statusCode = 400;
        return res.end('{"error": "\u001b[2J\u001b]0;owned\u0007 \u202e"}');
      case 'error-500-forever':
        res.statusCode = 500;
        return res.end('{"error": "down"}');
      case 'redirect-loop':
        res.writeHead(302, { Location: '/loop' });
        return res.end();
      case 'xml-entity-bomb': {
        const ents = ['<!ENTITY a0 "lollollollollollollollollol">'];
        for (let i = 1; i < 12; i++) ents.push(`<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`);
        res.setHeader('Content-Type', 'application/xml');
        return res.end(`<?xml version="1.0"?><!DOCTYPE data [${ents.join('')}]><data><item>&a11;</item></data>`);
      }
      case 'xml-deep':
        return res.end('<data>' + '<a>'.repeat(200_000) + '</a>'.repeat(200_000) + '</data>');
      case 'jsonl-huge':
        return drip(res, payload);
      case 'huge-headers': {
        for (let i = 0; i < 50; i++) res.setHeader(`x-h${i}`, 'v'.repeat(2000));
        return res.end('{"data": []}');
      }
      case 'same-next-page':
        res.setHeader('Link', '<http://127.0.0.1:' + req.socket.localPort + '/same-next-page>; rel="next"');
        return res.end('{"data": [{"a": 1}]}');
      default:
        res.statusCode = 404;
        return res.end();
    }
  };
}

/** Sends a body in two parts, so the client stops it while it is still arriving. */
function drip(res, bytes) {
  res.write(bytes.subarray(0, 10));
  setTimeout(() => res.end(bytes.subarray(10)), 20);
}

function httpManifest(decoder, paginator) {
  return {
    version: '6.0.0',
    type: 'DeclarativeSource',
    check: { type: 'CheckStream', stream_names: ['s'] },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 's',
        retriever: {
          type: 'SimpleRetriever',
          requester: { type: 'HttpRequester', url_base: "{{ config['url'] }}", path: '/x', http_method: 'GET' },
          record_selector: {
            type: 'RecordSelector',
            extractor: { type: 'DpathExtractor', field_path: decoder && decoder.type !== 'JsonDecoder' ? [] : ['data'] },
          },
          ...(decoder ? { decoder } : {}),
          ...(paginator ? { paginator } : {}),
        },
      },
    ],
  };
}

async function runHttp(input) {
  const server = createServer(hostileHandler(input.scenario));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  start();
  const url = `http://127.0.0.1:${server.address().port}`;
  const fetch = runtime.createHttpFetch({ timeoutMs: 2000, maxResponseBytes: 5_000_000, maxRedirects: 5 });
  try {
    const read = await runtime.testRead(
      httpManifest(input.decoder, input.paginator),
      { url },
      's',
      { maxPagesPerSlice: 3, maxRecords: 1000 },
      { fetch, sleep: async () => {} },
    );
    const errors = read.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);
    const records = read.slices.reduce((n, s) => n + s.pages.reduce((m, p) => m + p.records.length, 0), 0);
    return { outcome: errors.length ? 'error' : 'value', message: short(errors.length ? errors.join(' | ') : `${records} records`) };
  } catch (e) {
    return { outcome: 'error', message: short(e.message) };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

function runCli(input) {
  try {
    const stdout = execFileSync(process.execPath, [join(root, 'out', 'cli.js'), ...input.args], {
      encoding: 'utf8',
      timeout: 60_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return { outcome: 'value', message: short(stdout), exitCode: 0 };
  } catch (e) {
    return {
      outcome: 'error',
      message: short(`${e.stderr ?? ''}${e.stdout ?? ''}` || e.message),
      exitCode: e.status ?? null,
      raw: `${e.stderr ?? ''}${e.stdout ?? ''}`.slice(0, 100_000),
    };
  }
}

let started = 0;
let cpuStart = 0;

/**
 * CPU time of this process and of its finished children (the CLI inputs), in ms. CPU time, not
 * wall time: the test machine is shared, and a bounded input must not fail because others are busy.
 */
function cpuMs() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    // /proc/self/stat fields 16 and 17: cutime and cstime, in clock ticks of 10 ms.
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // No /proc: children are not counted.
  }
  return (own.user + own.system) / 1000 + children;
}

/** The clock starts here: after the input's own fixtures (HTTP bodies) are built. */
function start() {
  started = performance.now();
  cpuStart = cpuMs();
  process.send('go');
}

process.on('message', async (input) => {
  if (input.kind !== 'http') start();
  let result;
  try {
    if (input.kind === 'template') result = await runTemplate(input);
    else if (input.kind === 'manifest') result = runManifest(input);
    else if (input.kind === 'http') result = await runHttp(input);
    else if (input.kind === 'cli') result = runCli(input);
    else throw new Error(`unknown kind ${input.kind}`);
  } catch (e) {
    // Parsing and resolution never throw: reaching this is a failure the test reports.
    result = { outcome: 'crash', message: short(`${e?.constructor?.name}: ${e?.message}`) };
  }
  const ms = Math.round(performance.now() - started);
  process.send({ ...result, ms, cpuMs: Math.round(cpuMs() - cpuStart), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }, () =>
    process.exit(0),
  );
});
process.send('ready');

// Golden test reads recorded from the reference CDK by the differential harness
// (scripts/differential/harness.mjs --goldens test/fixtures/golden): each fixture holds a manifest,
// a config, the HTTP exchanges the reference had with the synthesized API and what it read. Here the
// exchanges are replayed by a server on 127.0.0.1 and our runtime (out/runtime.js) must send the same
// requests and read the same slices, records and state. No Python is needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: plain ES module without type declarations
import { summaryOf, wireRequests } from '../../../scripts/differential/compare.mjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = require(join(__dirname, '..', '..', '..', 'out', 'runtime.js'));
const dir = join(__dirname, '..', '..', 'fixtures', 'golden');

type Exchange = {
  method: string;
  url: string;
  body: string | null;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
};
type Golden = {
  connector: string;
  stream: string;
  now: string;
  limits: object;
  manifest: object;
  config: object;
  exchanges: Exchange[];
  expected: { requests: unknown[]; reference: unknown };
};

/** Replays recorded exchanges: each request is answered by the first unused exchange with the same method, URL and body. */
async function replay(exchanges: Exchange[]) {
  const used = new Set<number>();
  const seen: { method: string; url: string; headers: Record<string, string>; body: string | null }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
      seen.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers as Record<string, string>, body });
      // Bodies match as the harness compares them (JSON canonicalized): the reference writes Python
      // floats such as 1.0e12 as `1000000000000.0` where we write `1000000000000` (docs/fidelity.md).
      const same = (e: Exchange) => e.method === req.method && e.url === req.url && canonicalBody(e.body) === canonicalBody(body);
      let i = exchanges.findIndex((e, j) => !used.has(j) && same(e));
      if (i < 0) i = exchanges.findIndex((e) => same(e));
      if (i < 0) {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`no recorded exchange for ${req.method} ${req.url}`);
        return;
      }
      used.add(i);
      const e = exchanges[i];
      res.writeHead(e.status, e.responseHeaders);
      res.end(e.responseBody);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function canonicalBody(body: string | null): string | null {
  if (body === null || body === '') return null;
  try {
    const sort = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sort)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
            )
          : v;
    return JSON.stringify(sort(JSON.parse(body)));
  } catch {
    return [...new URLSearchParams(body)]
      .sort()
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
  }
}

const withOrigin = <T>(value: T, origin: string): T => JSON.parse(JSON.stringify(value).split('{{ORIGIN}}').join(origin));

const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];
test('golden fixtures are present', () => {
  assert.ok(files.length > 0, `no golden fixtures in ${dir}`);
});
for (const file of files) {
  const golden = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Golden;
  test(`golden: ${golden.connector} / ${golden.stream} reads as the reference did`, async () => {
    const recorded: Exchange[] = [];
    const api = await replay(recorded);
    try {
      // The replay server answers with the recorded bodies; links in them must point at it.
      recorded.push(...withOrigin(golden.exchanges, api.origin));
      const manifest = withOrigin(golden.manifest, api.origin);
      const config = withOrigin(golden.config, api.origin);
      const read = await rt.testRead(manifest, config, golden.stream, golden.limits, {
        now: () => new Date(golden.now),
        sleep: async () => {},
      });
      const expected = withOrigin(golden.expected, api.origin);
      assert.deepEqual(wireRequests(api.seen), expected.requests, 'requests on the wire');
      assert.deepEqual(JSON.parse(JSON.stringify(summaryOf(read))), expected.reference, 'slices, records and state');
    } finally {
      await api.close();
    }
  });
}

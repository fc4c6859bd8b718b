// Cassettes over the demo workspace: every stream of every demo manifest is recorded against the demo
// API, written and parsed back, and replayed offline; the replayed StreamRead equals the recorded one,
// and no cassette holds a secret of the config or a token the API issued, in any encoding.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startDemoApi, type DemoApi } from '../../../demo/api/server';
import { recordRead, replayRead } from '../../../server/src/runtime/cassette/cassetteRead';
import { formatCassette, parseCassette, type Cassette } from '../../../server/src/runtime/cassette/cassette';

const WORKSPACE = join(__dirname, '../../../demo/workspace');
const FROZEN = new Date('2024-01-03T12:00:00Z');
const manifests = readdirSync(WORKSPACE).filter((f) => f.endsWith('.yaml')).sort();
const baseConfig = JSON.parse(readFileSync(join(WORKSPACE, 'config.json'), 'utf8')) as Record<string, unknown>;

let api: DemoApi;
before(async () => { api = await startDemoApi({ now: () => FROZEN }); });
after(async () => { await api.close(); });

/** Every secret a cassette must not hold: config values marked airbyte_secret and every token the demo API issued. */
function secrets(manifest: Record<string, unknown>, config: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (schema: Record<string, unknown> | undefined, value: unknown) => {
    for (const [k, p] of Object.entries((schema?.properties as Record<string, Record<string, unknown>>) ?? {})) {
      const v = (value as Record<string, unknown> | undefined)?.[k];
      if (p.airbyte_secret === true && typeof v === 'string') out.push(v);
      walk(p, v);
    }
  };
  walk((manifest.spec as Record<string, unknown> | undefined)?.connection_specification as Record<string, unknown>, config);
  const auth = api.state.auth as { accessTokens?: Map<string, number>; sessions?: Map<string, number>; refreshCount?: number } | undefined;
  out.push(...(auth?.accessTokens?.keys() ?? []), ...(auth?.sessions?.keys() ?? []));
  for (let i = 0; i <= (auth?.refreshCount ?? 0); i++) out.push(`demo-refresh-${i}`);
  return out;
}

/** The forms a secret takes on the wire. */
function encodings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2), Buffer.from(secret).toString('base64')];
}

const authKinds = new Set<string>();

for (const file of manifests) {
  test(`demo/workspace/${file}: every stream records, replays offline to the same StreamRead, and the cassette holds no secret`, async () => {
    const manifest = parse(readFileSync(join(WORKSPACE, file), 'utf8')) as Record<string, unknown>;
    for (const stream of manifest.streams as { name?: string }[]) {
      if (!stream?.name) continue;
      const config = { ...structuredClone(baseConfig), url_base: api.url };
      const before = structuredClone(config);
      const env = { now: () => FROZEN, sleep: async () => {} };
      const { result, cassette } = await recordRead(manifest, config, stream.name, {}, env);
      assert.deepEqual(result.logs.filter((l) => l.level === 'ERROR'), [], `${file}/${stream.name}`);
      assert.ok(cassette.exchanges.length > 0);

      const text = formatCassette(cassette);
      for (const s of secrets(manifest, before).concat(secrets(manifest, config))) {
        for (const form of encodings(s)) assert.ok(!text.includes(form), `${file}/${stream.name}: the cassette holds a secret (${form.slice(0, 8)}…)`);
      }
      // Basic credentials travel as base64(user:password): the whole header value is masked.
      assert.ok(!text.includes(Buffer.from('demo-user:demo-pass').toString('base64')));
      for (const x of cassette.exchanges) {
        const auth = Object.entries(x.request.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
        if (auth) { assert.match(auth, /^(\w+ )?\*\*\*\*$/); authKinds.add(auth.split(' ')[0]); }
      }

      const parsed = parseCassette(text, `${file}.cassette.yaml`) as Cassette;
      assert.equal(typeof parsed, 'object', String(parsed));
      assert.deepEqual(parsed, JSON.parse(JSON.stringify(cassette)));
      // Offline: the demo API must not see a single request during the replay.
      const served = api.state.requestCount;
      const replay = await replayRead(manifest, parsed, { config: before }, env);
      assert.equal(api.state.requestCount, served, `${file}/${stream.name}: the replay went to the network`);
      assert.deepEqual(replay.misses, []);
      assert.equal(replay.unused, 0);
      assert.deepEqual(replay.result, result, `${file}/${stream.name}: the replayed StreamRead differs`);
    }
  });
}

test('the demo workspace exercises Basic and Bearer authorization headers (masked whole)', () => {
  assert.ok(authKinds.has('Basic') && authKinds.has('Bearer'), [...authKinds].join(', '));
});

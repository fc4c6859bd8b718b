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
import { compileSecrets, encodedForms, maskSecretsIn } from '../../../server/src/runtime/shared/secretPatterns';
import { CassetteMasker } from '../../../server/src/runtime/cassette/cassetteMasker';

const WORKSPACE = join(__dirname, '../../../demo/workspace');
const FROZEN = new Date('2024-01-03T12:00:00Z');
const manifests = readdirSync(WORKSPACE)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const baseConfig = JSON.parse(readFileSync(join(WORKSPACE, 'config.json'), 'utf8')) as Record<string, unknown>;

let api: DemoApi;
before(async () => {
  api = await startDemoApi({ now: () => FROZEN });
});
after(async () => {
  await api.close();
});

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

/**
 * Where a secret occurs in `text`, in any encoding secretPatterns.ts knows (as written, JSON- and
 * HTML-escaped, URL- and form-encoded, base64 standalone or inside a longer base64 text such as Basic
 * `user:pass`), as a short description; the secret itself is never printed.
 */
function secretsIn(text: string, secrets: string[]): string[] {
  const hits: string[] = [];
  for (const [i, s] of secrets.entries()) {
    const forms = encodedForms(s).filter((f) => text.includes(f));
    if (forms.length || maskSecretsIn(text, compileSecrets([s])) !== text)
      hits.push(`secret #${i + 1} (${s.slice(0, 4)}…)${forms.length ? ` as ${forms.length} plain form(s)` : ' in an encoding'}`);
  }
  return hits;
}

const authKinds = new Set<string>();
/** Authenticator types of the demo manifests whose reads were recorded. */
const authenticators = new Set<string>();
function collectAuthenticators(node: unknown): void {
  if (Array.isArray(node)) node.forEach(collectAuthenticators);
  else if (node && typeof node === 'object') {
    const type = (node as Record<string, unknown>).type;
    if (typeof type === 'string' && type.endsWith('Authenticator')) authenticators.add(type);
    Object.values(node).forEach(collectAuthenticators);
  }
}

for (const file of manifests) {
  test(`demo/workspace/${file}: every stream records, replays offline to the same StreamRead, and the cassette holds no secret`, async () => {
    const manifest = parse(readFileSync(join(WORKSPACE, file), 'utf8')) as Record<string, unknown>;
    // Both ways a read is recorded: as `read --record` does, and as the editor's Run stream does (its
    // StreamRead masked like a plain read, the cassette as strictly).
    for (const [readMasking, stream] of (['cassette', 'testRead'] as const).flatMap((m) =>
      (manifest.streams as { name?: string }[]).map((s) => [m, s] as const),
    )) {
      if (!stream?.name) continue;
      const config: Record<string, unknown> = { ...structuredClone(baseConfig), url_base: api.url };
      // Refresh tokens are single use: a manifest read after another OAuth one gets the token the API issued last.
      const current = (api.state.auth as { refreshToken?: string } | undefined)?.refreshToken;
      if (current) config.credentials = { ...(config.credentials as object), refresh_token: current };
      const before = structuredClone(config);
      const env = { now: () => FROZEN, sleep: async () => {} };
      const { result, cassette } = await recordRead(manifest, config, stream.name, {}, env, { readMasking });
      assert.deepEqual(
        result.logs.filter((l) => l.level === 'ERROR'),
        [],
        `${file}/${stream.name}`,
      );
      assert.ok(cassette.exchanges.length > 0);

      const text = formatCassette(cassette);
      collectAuthenticators(manifest.streams);
      const all = [...new Set(secrets(manifest, before).concat(secrets(manifest, config)))];
      assert.deepEqual(secretsIn(text, all), [], `${file}/${stream.name}: the cassette holds a secret`);
      // Readable: one exchange per list entry, JSON bodies as YAML structures (one field per line).
      assert.equal((text.match(/^ {2}- request:$/gm) ?? []).length, cassette.exchanges.length);
      for (const x of cassette.exchanges) {
        const body = x.response?.body;
        const contentType = Object.entries(x.response?.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
        // application/json (not JSON Lines, whose body is several values and stays text).
        if (body && 'text' in body && !('base64' in body) && /\bjson\s*(;|$)/i.test(contentType) && body.text.trim()) {
          assert.fail(`${file}/${stream.name}: a JSON response body was stored as text: ${body.text.slice(0, 60)}`);
        }
      }
      // Basic credentials travel as base64(user:password): the whole header value is masked.
      assert.ok(!text.includes(Buffer.from('demo-user:demo-pass').toString('base64')));
      for (const x of cassette.exchanges) {
        const auth = Object.entries(x.request.headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
        if (auth) {
          assert.match(auth, /^(\w+ )?\*\*\*\*$/);
          authKinds.add(auth.split(' ')[0]);
        }
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
      // The editor's read shows config values whose key merely names a credential (as a plain read does);
      // the cassette, and so its replay, masks them: equal once those are masked on both sides.
      const strict = new CassetteMasker();
      strict.addCredentialsOf(before);
      strict.addCredentialsOf(config);
      const comparable = (r: typeof result) => (readMasking === 'cassette' ? r : strict.maskValue(r));
      assert.deepEqual(
        comparable(replay.result),
        comparable(result),
        `${file}/${stream.name} (${readMasking}): the replayed StreamRead differs`,
      );
    }
  });
}

test('the demo workspace exercises Basic and Bearer authorization headers (masked whole)', () => {
  assert.ok(authKinds.has('Basic') && authKinds.has('Bearer'), [...authKinds].join(', '));
});

test('cassettes were checked after a read with every authenticator kind', () => {
  const kinds = [
    'ApiKeyAuthenticator',
    'BasicHttpAuthenticator',
    'BearerAuthenticator',
    'JwtAuthenticator',
    'OAuthAuthenticator',
    'SessionTokenAuthenticator',
  ];
  assert.deepEqual(
    kinds.filter((k) => !authenticators.has(k)),
    [],
  );
});

test('the secret check finds a secret in the encodings a cassette could carry it in', () => {
  const basic = `Authorization: Basic ${Buffer.from('demo-user:demo-pass').toString('base64')}`;
  assert.equal(secretsIn(basic, ['demo-pass']).length, 1, 'base64 inside Basic credentials');
  assert.equal(secretsIn('url: http://x/?key=demo%2Bkey%21', ['demo+key!']).length, 1, 'URL-encoded');
  assert.equal(secretsIn('body: {"k": "demo\\/secret"}', ['demo/secret']).length, 1, 'JSON-escaped');
  assert.deepEqual(secretsIn('api_key: "****"', ['demo-api-key']), []);
});

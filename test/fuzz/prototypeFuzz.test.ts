// Prototype-key fuzzing (docs/security.md, "Prototype-safe data"): seeded random `__proto__`,
// `constructor` and `prototype` keys (and `__PROTO__`-style spellings that KeysToLower turns into them)
// at random places of manifests, API records, configs and cassettes. In process, every whole read,
// recording and replay must leave every built-in prototype untouched; over stdio, the real server must
// answer every read (an error is fine, a crash is not) and a clean canary manifest read after each
// case must still give its own records from its own host. FUZZ_CASES sets the number of cases.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { random } from './mutations';
import { LspTestClient } from '../lsp/lspClient';
import { TestReadRequest, type StreamRead } from '../../server/src/protocol';
import { testRead } from '../../server/src/runtime/testRead/testRead';
import { recordRead, replayRead } from '../../server/src/runtime/cassette/cassetteRead';
import { formatCassette, parseCassette } from '../../server/src/runtime/cassette/cassette';
import { setOwn } from '../../server/src/runtime/shared/safeObject';

const CASES = Number(process.env.FUZZ_CASES ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const KEYS = ['__proto__', 'constructor', 'prototype', '__PROTO__', 'Constructor', 'PROTOTYPE'];

let body = '{"data":[]}';
let server: Server;
let base = '';
const foreignHits: string[] = [];
before(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/canary')) {
      res.end('{"data":[{"id":"canary-1"},{"id":"canary-2"}]}');
      return;
    }
    if (!req.url?.startsWith('/items')) foreignHits.push(req.url ?? '');
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

type Rnd = () => number;
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

/** A random JSON value whose mappings may carry the prototype keys, `depth` levels deep at most. */
function hostileValue(rnd: Rnd, depth: number): unknown {
  const r = rnd();
  if (depth <= 0 || r < 0.3) return pick(rnd, [1, 'text', null, true, base, 'http://evil.invalid', 7.5]);
  if (r < 0.45) return Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => hostileValue(rnd, depth - 1));
  const out: Record<string, unknown> = {};
  for (let i = 0, n = 1 + Math.floor(rnd() * 4); i < n; i++)
    setOwn(out, rnd() < 0.6 ? pick(rnd, KEYS) : `k${i}`, hostileValue(rnd, depth - 1));
  return out;
}

/** Puts a prototype key with a hostile value into `n` random mappings of `root` (in place). */
function sprinkle(root: unknown, rnd: Rnd, n: number): void {
  const maps: Record<string, unknown>[] = [];
  const walk = (v: unknown, depth: number) => {
    if (v === null || typeof v !== 'object' || depth > 12) return;
    if (!Array.isArray(v)) maps.push(v as Record<string, unknown>);
    for (const child of Object.values(v as object)) walk(child, depth + 1);
  };
  walk(root, 0);
  for (let i = 0; i < n && maps.length; i++) setOwn(pick(rnd, maps), pick(rnd, KEYS), hostileValue(rnd, 3));
}

function manifest(rnd: Rnd): Record<string, unknown> {
  const transformations: unknown[] = [
    { type: 'KeysToLower' },
    { type: 'KeysReplace', old: pick(rnd, ['k0', 'PROTO', 'x']), new: pick(rnd, KEYS) },
    { type: 'DpathFlattenFields', field_path: [pick(rnd, KEYS)] },
    { type: 'RemoveFields', field_pointers: [[pick(rnd, KEYS)], ['**', pick(rnd, KEYS)]] },
  ];
  // Sometimes a write path with a prototype segment: the read must be refused, not crash or pollute.
  if (rnd() < 0.3)
    transformations.push({
      type: 'AddFields',
      fields: [{ type: 'AddedFieldDefinition', path: [pick(rnd, KEYS.slice(0, 3)), 'url_base'], value: 'http://evil.invalid' }],
    });
  else
    transformations.push({
      type: 'AddFields',
      fields: [{ type: 'AddedFieldDefinition', path: ['added'], value: `{{ record['${pick(rnd, KEYS)}'] }}` }],
    });
  const m: Record<string, unknown> = {
    version: '6.0.0',
    type: 'DeclarativeSource',
    definitions: {},
    check: { type: 'CheckStream', stream_names: ['s'] },
    streams: [
      {
        type: 'DeclarativeStream',
        name: 's',
        primary_key: [],
        $parameters: {},
        schema_loader: { type: 'InlineSchemaLoader', schema: { type: 'object', properties: {} } },
        retriever: {
          type: 'SimpleRetriever',
          requester: {
            type: 'HttpRequester',
            url: "{{ config['base'] }}/items",
            http_method: 'GET',
            request_parameters: {},
            request_headers: {},
          },
          record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
        },
        transformations: transformations.filter(() => rnd() < 0.8),
      },
    ],
  };
  sprinkle(m.definitions, rnd, 2);
  sprinkle((m.streams as Record<string, unknown>[])[0].$parameters, rnd, 1);
  return m;
}

function records(rnd: Rnd): string {
  const wrapper: Record<string, unknown> = {
    data: Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, i) => ({ id: i, k0: hostileValue(rnd, 3) })),
  };
  sprinkle(wrapper, rnd, 1 + Math.floor(rnd() * 6));
  return JSON.stringify(wrapper);
}

function config(rnd: Rnd): Record<string, unknown> {
  const c: Record<string, unknown> = { base, credentials: {} };
  sprinkle(c, rnd, 1 + Math.floor(rnd() * 3));
  return c;
}

function prototypeSnapshot(): string {
  const protos = [
    Object.prototype,
    Array.prototype,
    Function.prototype,
    String.prototype,
    Number.prototype,
    Boolean.prototype,
    Map.prototype,
    Set.prototype,
    Promise.prototype,
    RegExp.prototype,
    Date.prototype,
    Error.prototype,
  ];
  return protos
    .map((p) =>
      Reflect.ownKeys(p)
        .map((k) => {
          const d = Object.getOwnPropertyDescriptor(p, k)!;
          return `${String(k)}:${typeof d.value === 'function' ? d.value.name : typeof d.value}`;
        })
        .join(','),
    )
    .join('\n');
}

const errorsOf = (r: StreamRead) => r.logs.filter((l) => l.level === 'ERROR').map((l) => l.message);

test(`${CASES} reads, recordings and replays with random prototype keys: no built-in prototype changes, no crash`, async () => {
  const rnd = random(SEED);
  const snapshot = prototypeSnapshot();
  let refused = 0;
  for (let i = 0; i < CASES; i++) {
    body = records(rnd);
    const m = manifest(rnd);
    const at = `seed ${SEED} case ${i}`;
    try {
      const read = await testRead(structuredClone(m), config(rnd), 's');
      if (errorsOf(read).some((e) => /the path segment/.test(e))) refused++;
      const { cassette } = await recordRead(structuredClone(m), config(rnd), 's');
      sprinkle(cassette, rnd, 3);
      const parsed = parseCassette(
        formatCassette(cassette).replace(/^version:/m, `${stringify({ [pick(rnd, KEYS)]: hostileValue(rnd, 2) }).trim()}\nversion:`),
        'fuzz.yaml',
      );
      // The header may repeat a key sprinkled at the top: refused as YAML, with the line, which is fine.
      if (typeof parsed === 'string') assert.match(parsed, /^fuzz\.yaml:\d+: not a valid cassette: Map keys must be unique/, at);
      else await replayRead(structuredClone(m), parsed, { config: config(rnd) });
    } catch (e) {
      // A refused manifest may throw at build time with a config error; anything else is a crash.
      assert.equal((e as { failureType?: string }).failureType, 'config_error', `${at}: ${(e as Error).stack}`);
      refused++;
    }
    assert.equal(prototypeSnapshot(), snapshot, `${at}: a built-in prototype changed`);
  }
  assert.deepEqual(foreignHits, [], 'no request left for a URL the manifest did not name');
  assert.ok(refused > 0, 'some cases had a refused write path');
});

test(`over stdio: ${Math.ceil(CASES / 2)} hostile reads then a clean canary read each time, all answered, the canary unaffected`, async () => {
  const client = await LspTestClient.start();
  try {
    const rnd = random(SEED + 1);
    const canary = 'file:///fuzz/canary.yaml';
    await client.open(
      canary,
      stringify({
        version: '6.0.0',
        type: 'DeclarativeSource',
        check: { type: 'CheckStream', stream_names: ['c'] },
        streams: [
          {
            type: 'DeclarativeStream',
            name: 'c',
            primary_key: ['id'],
            schema_loader: { type: 'InlineSchemaLoader', schema: {} },
            retriever: {
              type: 'SimpleRetriever',
              requester: {
                type: 'HttpRequester',
                url: "{{ config['base'] }}/canary",
                authenticator: { type: 'BearerAuthenticator', api_token: "{{ config['token'] }}" },
              },
              record_selector: { type: 'RecordSelector', extractor: { type: 'DpathExtractor', field_path: ['data'] } },
            },
          },
        ],
      }),
    );
    for (let i = 0; i < Math.ceil(CASES / 2); i++) {
      body = records(rnd);
      const uri = `file:///fuzz/hostile-${i}.yaml`;
      await client.open(uri, stringify(manifest(rnd)));
      // Answered: a StreamRead (perhaps with errors) or a clear error response; never a dead server.
      await client.connection
        .sendRequest(TestReadRequest, { uri, streamName: 's', config: config(rnd), runId: `fuzz-${i}` })
        .catch((e: Error) => assert.ok(e.message.length > 0));
      const read = await client.connection.sendRequest(TestReadRequest, {
        uri: canary,
        streamName: 'c',
        config: { base, token: 'canary-token' },
        runId: `canary-${i}`,
      });
      assert.deepEqual(errorsOf(read), [], `seed ${SEED + 1} case ${i}`);
      assert.deepEqual(
        read.slices.flatMap((s) => s.pages).flatMap((p) => p.records),
        [{ id: 'canary-1' }, { id: 'canary-2' }],
      );
      assert.equal(read.slices[0].pages[0].request?.url, `${base}/canary`);
    }
    assert.ok(client.alive);
  } finally {
    await client.stop();
  }
  assert.deepEqual(foreignHits, []);
});

// The cURL round trip over the shipped server (WebAssembly shell parser included): a stream is read
// from a loopback API; its page's request is copied as cURL (masked, and with secrets re-rendered by
// airbyte/unmaskRequest); "New stream from cURL" turns the command into a manifest with 0 errors; that
// manifest is read in turn, and the API sees the same request (method, URL, query, headers, body).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LspTestClient } from './lspClient';
import { requestToCurl } from '../../server/src/runtime/shared/curlCommand';
import {
  TestReadRequest,
  StreamsFromRequestsRequest,
  UnmaskRequestRequest,
  newSealKey,
  sealConfig,
  openConfig,
  type TestReadParams,
} from '../../server/src/protocol';

type Seen = { method: string; path: string; query: [string, string][]; headers: Record<string, string>; body: string };
type Page = {
  request: { url: string; headers: Record<string, string> | null; http_method: string; body: string | null } | null;
  records: unknown[];
};

const SECRET = 'sk_live_roundtrip_5f3a9c';
const key = newSealKey();
let client: LspTestClient;
let api: Server;
let base = '';
const seen: Seen[] = [];

before(async () => {
  api = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({
        method: req.method ?? '',
        path: url.pathname,
        query: [...url.searchParams],
        headers: req.headers as Record<string, string>,
        body,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: [
            { id: 1, name: 'first' },
            { id: 2, name: 'second' },
          ],
        }),
      );
    });
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  client = await LspTestClient.startSealed(key);
});
after(async () => {
  await client.stop();
  await new Promise((r) => api.close(r));
});

const SOURCE = [
  'version: 6.44.0',
  'type: DeclarativeSource',
  'check: {type: CheckStream, stream_names: [orders]}',
  'streams:',
  '  - type: DeclarativeStream',
  '    name: orders',
  '    retriever:',
  '      type: SimpleRetriever',
  '      requester:',
  '        type: HttpRequester',
  `        url: "{{ config['url_base'] }}/v2/orders/search"`,
  '        http_method: POST',
  `        authenticator: {type: BearerAuthenticator, api_token: "{{ config['api_key'] }}"}`,
  '        request_headers: {X-Client: studio, X-Api-Version: "2024-01"}',
  '        request_parameters: {status: open, tags: "a b&c"}',
  '        request_body: {type: RequestBodyJsonObject, value: {filter: {since: "2024-01-01"}, limit: 5}}',
  '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: [data]}}',
  'spec:',
  '  type: Spec',
  '  connection_specification:',
  '    type: object',
  '    required: [url_base, api_key]',
  '    properties: {url_base: {type: string}, api_key: {type: string, airbyte_secret: true}}',
  '',
].join('\n');

async function readFirstPage(uri: string, streamName: string, config: Record<string, unknown>): Promise<Page> {
  const read = await client.connection.sendRequest(TestReadRequest, {
    uri,
    streamName,
    config: sealConfig(config, key),
    runId: `r-${uri}`,
  } satisfies TestReadParams);
  const page = read.slices[0]?.pages[0];
  assert.ok(page?.request, 'the first page has its request');
  return page;
}

async function streamFromCurl(curl: string): Promise<string> {
  const result = await client.connection.sendRequest(StreamsFromRequestsRequest, { source: sealConfig({ curl }, key) });
  assert.ok(!('error' in result), JSON.stringify(result));
  assert.equal(result.errors, 0, result.text);
  assert.ok(result.text);
  return result.text;
}

/** What a request is, for comparing: transport headers (host, length, encoding, agent, connection) left out. */
function shape(s: Seen) {
  const headers = Object.fromEntries(
    Object.entries(s.headers)
      .filter(([k]) => !/^(host|content-length|connection|accept-encoding|user-agent|accept)$/.test(k))
      .sort(),
  );
  return { method: s.method, path: s.path, query: s.query, headers, body: JSON.parse(s.body || 'null') };
}

test('copy as cURL (masked and with secrets) → new stream from cURL → the same request', async () => {
  const sourceUri = 'file:///fixtures/curl-round-trip/source.yaml';
  await client.open(sourceUri, SOURCE);
  const page = await readFirstPage(sourceUri, 'orders', { url_base: base, api_key: SECRET });
  const original = shape(seen[seen.length - 1]);
  assert.equal(original.headers.authorization, `Bearer ${SECRET}`);

  // Masked: the copy holds no secret, and the stream made from it reads the secret from an input.
  const masked = requestToCurl(page.request!);
  assert.ok(!masked.includes(SECRET) && masked.includes('Bearer ****'), masked);
  const fromMasked = await streamFromCurl(masked);
  assert.ok(!fromMasked.includes('****'), 'the masked token became an input, not a literal');
  assert.match(fromMasked, /type: BearerAuthenticator\n\s+api_token: "\{\{ config\['api_key'\] \}\}"/);
  assert.match(fromMasked, /api_key:\n\s+type: string\n\s+title: API Key\n\s+order: 0\n\s+airbyte_secret: true/);

  // With secrets: the server re-renders the masked header from the testing values, sealed both ways.
  const unmasked = await client.connection.sendRequest(UnmaskRequestRequest, {
    uri: sourceUri,
    streamName: 'orders',
    request: page.request!,
    config: sealConfig({ url_base: base, api_key: SECRET }, key),
  });
  assert.ok('$sealed' in unmasked.request, 'the clear request travels sealed');
  assert.deepEqual(unmasked.stillMasked, []);
  const clear = requestToCurl(openConfig(unmasked.request, key) as Page['request'] & object);
  assert.ok(clear.includes(`Bearer ${SECRET}`));
  const fromClear = await streamFromCurl(clear);
  assert.ok(!fromClear.includes(SECRET), 'a secret in the command never lands in the manifest');

  for (const [i, text] of [fromMasked, fromClear].entries()) {
    const uri = `file:///fixtures/curl-round-trip/new-${i}.yaml`;
    await client.open(uri, text);
    const before = seen.length;
    const again = await readFirstPage(uri, 'search', { api_key: SECRET });
    assert.equal(seen.length, before + 1);
    assert.deepEqual(shape(seen[seen.length - 1]), original);
    // No response was in the command, so field_path is [] for the author to set: the envelope is one record.
    assert.equal(again.records.length, 1);
    assert.ok(Array.isArray((again.records[0] as { data?: unknown }).data));
    assert.equal(again.request!.url, page.request!.url);
  }
});

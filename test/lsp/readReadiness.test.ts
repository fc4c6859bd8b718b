// Run stream, Replay and Compare ask `airbyte/readReadiness` first (issue 19): over stdio against the
// real server, a document whose YAML does not parse, or whose stream cannot be built, is refused with
// line:column and what to fix; a sound manifest is ready.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import { ReadReadinessRequest, type ReadReadinessParams } from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

const ask = (params: ReadReadinessParams) => client.connection.sendRequest(ReadReadinessRequest, params);

test('YAML that does not parse is refused at the first syntax error, whichever stream is asked for', async () => {
  const uri = 'file:///fixtures/run-broken-yaml.yaml';
  const text = readFileSync(join(ROOT, 'test', 'e2e', 'workspace', 'broken', 'run-broken-yaml.yaml'), 'utf8');
  await client.open(uri, text);
  const result = await ask({ uri, streamName: 'items' });
  assert.equal(result.ready, false);
  if (result.ready) return;
  assert.equal(
    result.message,
    'The YAML does not parse (line 15, column 17): Nested mappings are not allowed in compact mappings. Fix the YAML there, then run again.',
  );
  assert.deepEqual(result.range.start, { line: 14, character: 16 });
  assert.deepEqual(await ask({ uri }), result);
});

test('a stream that cannot be built is refused at its problem; another stream of the document still runs', async () => {
  const uri = 'file:///fixtures/unbuildable.yaml';
  const text = [
    'version: 6.0.0',
    'type: DeclarativeSource',
    'check: {type: CheckStream, stream_names: [good]}',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: good',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester: {type: HttpRequester, url: "http://127.0.0.1:9/a"}',
    '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}',
    '  - type: DeclarativeStream',
    '    name: bad',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester: {type: HttpRequester, url: "http://127.0.0.1:9/b", http_method: FETCH}',
    '      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}',
    '',
  ].join('\n');
  await client.open(uri, text);
  const bad = await ask({ uri, streamName: 'bad' });
  assert.equal(bad.ready, false, JSON.stringify(bad));
  if (bad.ready) return;
  assert.match(bad.message, /^Stream 'bad' cannot be built \(line 15, column \d+\): .+\. Fix it there, then run again\.$/);
  assert.equal(bad.range.start.line, 14);
  assert.deepEqual(await ask({ uri, streamName: 'good' }), { ready: true });
});

test('the demo manifest is ready', async () => {
  const uri = 'file:///fixtures/offset-increment-ready.yaml';
  await client.open(uri, readFileSync(join(ROOT, 'demo', 'workspace', 'offset-increment.yaml'), 'utf8'));
  assert.deepEqual(await ask({ uri, streamName: 'items' }), { ready: true });
});

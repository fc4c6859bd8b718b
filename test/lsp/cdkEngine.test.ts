// The Airbyte CDK engine through the real language server over stdio: the run lens of a stream with
// custom components says which engine runs it or what to install, airbyte/testRead runs such a stream
// on the CDK without being asked, and airbyte/compareEngines compares a demo stream on both engines.
// The reads need the reference CDK (built by .ci/run); without it they skip, saying so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import { findReferenceCdk } from '../unit/cdkEngine/referenceCdk';
import {
  CdkPythonNotification,
  CompareEnginesRequest,
  TestReadProgressNotification,
  TestReadRequest,
  type CdkPythonParams,
  type CompareEnginesParams,
  type TestReadParams,
  type TestReadProgressParams,
} from '../../server/src/protocol';

const ROOT = join(__dirname, '..', '..');
const MANIFEST = join(ROOT, 'demo/workspace/custom-components/manifest.yaml');
const URI = pathToFileURL(MANIFEST).toString();
const reference = findReferenceCdk();
const ref = 'skip' in reference ? null : reference;
let client: LspTestClient;
let demo: DemoApi;

before(async () => {
  demo = await startDemoApi();
  client = await LspTestClient.start();
  await client.open(URI, readFileSync(MANIFEST, 'utf8'));
});
after(async () => {
  await client.stop();
  await demo.close();
});

/** The run lens's title once the interpreter's probe has answered. */
async function runLensTitle(python: string): Promise<string> {
  await client.connection.sendNotification(CdkPythonNotification, { python, source: 'setting' } satisfies CdkPythonParams);
  for (let i = 0; i < 600; i++) {
    const title = (await client.codeLenses(URI)).map((l) => l.command?.title ?? '').find((t) => t.includes('labelled_items'));
    if (title && !title.includes('checking Python')) return title;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the probe never answered');
}

test('the run lens of a stream with custom components says what to install when there is no Python', async () => {
  assert.equal(
    await runLensTitle('/nonexistent/bin/python3'),
    '⚠ labelled_items uses Python components (LabelledItemsExtractor, …) — install Python 3 or set airbyte.cdk.python',
  );
});

const python3 = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
const python3Path = python3.status === 0 ? python3.stdout.trim() : null;
const python3HasCdk = python3Path !== null && spawnSync(python3Path, ['-c', 'import airbyte_cdk']).status === 0;

test('the run lens gives the pip command for an interpreter without airbyte-cdk', {
  skip: python3Path === null ? 'no python3 on the PATH' : python3HasCdk ? 'python3 has airbyte-cdk' : false,
}, async () => {
  assert.equal(
    await runLensTitle(python3Path!),
    `⚠ labelled_items uses Python components (LabelledItemsExtractor, …) — install airbyte-cdk: ${python3Path} -m pip install "airbyte-cdk>=6.0.0"`,
  );
});

test('with airbyte-cdk found, the lens says the stream runs on the CDK, and a test read runs there without being asked', {
  skip: ref ? false : (reference as { skip: string }).skip,
}, async () => {
  assert.equal(await runLensTitle(ref!.python), '▶ Run stream labelled_items on the Airbyte CDK');
  const events: Record<string, unknown>[] = [];
  const sub = client.connection.onNotification(TestReadProgressNotification, (p: TestReadProgressParams) => {
    if (p.runId === 'cdk1') events.push(p.event);
  });
  const params: TestReadParams = {
    uri: URI,
    streamName: 'labelled_items',
    config: { url_base: demo.url },
    limits: { maxPagesPerSlice: 2 },
    runId: 'cdk1',
    record: true,
  };
  const read = await client.connection.sendRequest(TestReadRequest, params);
  sub.dispose();
  assert.deepEqual(
    read.slices[0].pages.map((p) => p.records.length),
    [40, 40],
  );
  assert.equal(read.slices[0].pages[0].records[0].label, 'item-1');
  assert.ok(events.some((e) => e.type === 'log' && /Reading on the Airbyte CDK engine/.test(String(e.message))));
});

test('airbyte/compareEngines: a demo stream is identical on both engines', {
  skip: ref ? false : (reference as { skip: string }).skip,
}, async () => {
  const uri = pathToFileURL(join(ROOT, 'demo/workspace/cursor-pagination.yaml')).toString();
  await client.open(uri, readFileSync(join(ROOT, 'demo/workspace/cursor-pagination.yaml'), 'utf8'));
  await client.connection.sendNotification(CdkPythonNotification, { python: ref!.python, source: 'setting' } satisfies CdkPythonParams);
  const params: CompareEnginesParams = {
    uri,
    streamName: 'cursor_in_body',
    config: { url_base: demo.url },
    limits: { maxPagesPerSlice: 2 },
    runId: 'cmp1',
  };
  const result = await client.connection.sendRequest(CompareEnginesRequest, params);
  assert.ok('identical' in result, JSON.stringify(result));
  assert.deepEqual(result.differences, []);
  assert.equal(result.identical, true);
  assert.equal(result.counts.cdk.pages, 2);
});

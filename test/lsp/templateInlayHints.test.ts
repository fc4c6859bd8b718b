// Inlay hints of template values over stdio, after real test reads of the demo API: none before a read;
// after it each templated field shows its value on the last page, or on the page the results view
// selected; secrets stay masked; the setting turns them off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { LspTestClient } from './lspClient';
import { startDemoApi, type DemoApi } from '../../demo/api/server';
import {
  SelectPageNotification,
  TemplateHintsSettingNotification,
  TestReadRequest,
  type StreamRead,
  type TestReadParams,
} from '../../server/src/protocol';

const uri = 'file:///w/hints/manifest.yaml';
const text = readFileSync(join(__dirname, '..', 'fixtures', 'lsp', 'captured-reads.yaml'), 'utf8');
const lines = text.split('\n');
const SECRET = 'secret-key-123456';
let client: LspTestClient;
let demo: DemoApi;

before(async () => {
  demo = await startDemoApi({ port: 0 });
  client = await LspTestClient.start();
  await client.open(uri, text);
});
after(async () => {
  await client.stop();
  await demo.close();
});

const hints = () =>
  client.connection.sendRequest<InlayHint[]>('textDocument/inlayHint', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
const hintOn = (all: InlayHint[], pattern: RegExp) => all.find((h) => pattern.test(lines[h.position.line]));
const label = (h: InlayHint | undefined) => (typeof h?.label === 'string' ? h.label : '');

test('no hint before a read; after it, values on the last page, or on the selected one', async () => {
  assert.deepEqual(await hints(), []);
  const read = await client.request<StreamRead>(TestReadRequest, {
    uri,
    streamName: 'cursor_in_body',
    config: { url_base: demo.url, api_key: SECRET },
    limits: { maxRecords: 1000 },
    runId: 'r',
  } satisfies TestReadParams);
  assert.equal(read.slices[0].pages.length, 3);
  let all = await hints();
  const url = hintOn(all, /^\s+url: "\{\{ config\['url_base'\] \}\}\/cursor\/items"$/);
  assert.equal(label(url), `= "${demo.url}/cursor/items"`);
  // After the closing quote of the scalar.
  assert.equal(url?.position.character, lines[url!.position.line].length);
  const echo = hintOn(all, /^\s+echo: /);
  assert.ok(echo && label(echo) !== '= "first"', label(echo));
  assert.match(JSON.stringify(echo.tooltip), /page 3 of the last read of `cursor_in_body`/);
  // The secret header's template shows the masked value.
  assert.equal(label(hintOn(all, /X-Api-Key:/)), '= "****"');
  assert.doesNotMatch(JSON.stringify(all), new RegExp(SECRET));

  await client.connection.sendNotification(SelectPageNotification, { uri, streamName: 'cursor_in_body', slice: 0, page: 0 });
  all = await hints();
  assert.equal(label(hintOn(all, /^\s+echo: /)), '= "first"');
  assert.match(JSON.stringify(hintOn(all, /^\s+echo: /)?.tooltip), /page 1 of the last read/);

  await client.connection.sendNotification(TemplateHintsSettingNotification, { enabled: false });
  assert.deepEqual(await hints(), []);
  await client.connection.sendNotification(TemplateHintsSettingNotification, { enabled: true });
  assert.ok((await hints()).length > 0);
});

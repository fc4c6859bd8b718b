import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';
import { startDemoApi } from '../../demo/api/server';
import { TestReadRequest } from '../../server/src/protocol';

test('scratch', async () => {
  const demo = await startDemoApi({ port: 0 });
  const client = await LspTestClient.start();
  const uri = 'file:///w/captured.yaml';
  const text = readFileSync(join(__dirname, '..', 'fixtures', 'lsp', 'captured-reads.yaml'), 'utf8');
  await client.open(uri, text);
  const config = { url_base: demo.url, api_key: 'secret-key-123456' };
  for (const s of ['cursor_in_body', 'items', 'parents', 'children']) {
    const r: any = await client.request(TestReadRequest, { uri, streamName: s, config, runId: s });
    console.log(s, r.slices.map((x: any) => x.pages.length), r.logs.filter((l: any) => l.level === 'ERROR').map((l: any) => l.message));
  }
  const show = async (label: string, needle: string, delta: number, nth = 0) => {
    const items = await client.completion(uri, positionOf(text, needle, delta, nth));
    console.log('C', label, items.slice(0, 12).map((i) => `${i.label} [${i.detail}] ${JSON.stringify(i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : '')}`));
  };
  await show('response.', 'response.meta.next_cursor }}', 'response.'.length);
  await show('response.meta.', 'response.meta.next_cursor }}', 'response.meta.'.length);
  await show("headers['", "headers['Content", "headers['".length);
  await show('last_record.', 'last_record.id', 'last_record.'.length);
  await show('record.', 'record.id > 0', 'record.'.length);
  await show('stream_slice.', 'stream_slice.start_time', 'stream_slice.'.length);
  await show('stream_partition.', 'stream_partition.parent_id', 'stream_partition.'.length);
  await show('field_path item', '- records', 2);
  await show('field_path flow', 'field_path: [data]', 'field_path: ['.length);
  await show('cursor_field', 'cursor_field: updated_at', 'cursor_field: '.length);
  await show('primary_key', 'primary_key: id', 'primary_key: '.length);
  await show('field_pointers', 'field_pointers: [[active]]', 'field_pointers: [['.length);
  await show('add path', 'path: [source]', 'path: ['.length);
  await show('parent_key', 'parent_key: id', 'parent_key: '.length);
  await show('partition_field', 'partition_field: parent_id', 'partition_field: '.length);
  const hover = async (label: string, needle: string, delta: number) => {
    const h: any = await client.hover(uri, positionOf(text, needle, delta));
    console.log('H', label, h?.contents?.value);
  };
  await hover('cursor_value', 'response.meta.next_cursor }}', 3);
  await hover('cursor_value key', 'cursor_value:', 3);
  await hover('stop', 'next_cursor is none', 3);
  await hover('field_path', 'field_path:\n', 3);
  await hover('field_path item', '- records', 3);
  await hover('echo', 'next_page_token.next_page_token if', 3);
  await hover('api_key', "config['api_key']", 3);
  await hover('since', 'stream_slice.start_time', 3);
  await hover('condition', 'record.id > 0', 3);
  console.log('L', (await client.codeLenses(uri)).map((l) => `${l.range.start.line}: ${l.command?.title}`));
  await client.stop();
  await demo.close();
});

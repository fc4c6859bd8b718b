// Template intelligence over stdio: diagnostics located inside templates, completion of variables,
// config keys and filters, hover on config keys and variables, definition from a config key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspTestClient } from './lspClient';
import { positionOf } from './fixtureText';

const uri = 'file:///w/templates/manifest.yaml';
const text = readFileSync(join(__dirname, '..', 'fixtures', 'templates', 'manifest.yaml'), 'utf8');
let client: LspTestClient;
let diagnostics: Awaited<ReturnType<LspTestClient['open']>>;
before(async () => {
  client = await LspTestClient.start();
  diagnostics = await client.open(uri, text);
});
after(async () => { await client.stop(); });

function rangeText(range: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const lines = text.split('\n');
  return range.start.line === range.end.line ? lines[range.start.line].slice(range.start.character, range.end.character) : '<multi-line>';
}

test('diagnostics are located on the offending text inside templates', () => {
  const byCode = (code: string) => diagnostics.diagnostics.filter((d) => d.code === code).map((d) => rangeText(d.range));
  assert.deepEqual(byCode('template-syntax'), ['nope']);
  assert.deepEqual(byCode('template-variable-not-available'), ['last_record']);
  assert.deepEqual(byCode('template-stream-state'), ['stream_state']);
  assert.deepEqual(byCode('template-last-records'), ['last_records']);
  assert.deepEqual(byCode('template-undeclared-config-key'), ["config.get('strat_date')"]);
});

test('completion offers the field variables, config keys after config[\' and filters after |', async () => {
  const vars = (await client.completion(uri, positionOf(text, 'stream_slice.id'))).map((i) => i.label);
  assert.ok(vars.includes('stream_slice') && vars.includes('next_page_token') && vars.includes('format_datetime'));
  assert.ok(!vars.includes('last_record'));
  const keys = (await client.completion(uri, positionOf(text, "config['region']", "config['".length))).map((i) => i.label);
  assert.deepEqual(keys, ['region', 'start_date', 'page_size', 'credentials']);
  const filters = (await client.completion(uri, positionOf(text, "| default('')", 2))).map((i) => i.label);
  assert.ok(filters.includes('default') && filters.includes('hash'));
});

test('hover on a config key shows its spec property; on a variable its availability', async () => {
  const region = await client.hover(uri, positionOf(text, "config['region']", 10));
  assert.match(JSON.stringify(region?.contents), /Region/);
  const lastRecord = await client.hover(uri, positionOf(text, 'last_record.id', 3));
  assert.match(JSON.stringify(lastRecord?.contents), /Not available/);
});

test('definition from a config key jumps to its spec property', async () => {
  const [link] = await client.definition(uri, positionOf(text, "config['region']", 10));
  assert.ok(link, 'a definition link');
  assert.deepEqual(link.targetSelectionRange.start, positionOf(text, 'region:'));
});

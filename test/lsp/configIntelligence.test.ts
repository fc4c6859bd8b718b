// Config intelligence over stdio on a spec written the way the Connector Builder writes it
// (`additionalProperties: true`): declared keys drive completion (`config.`, `config['`,
// `config["`, `config.get('`, nested objects, oneOf options), hover, go-to-definition and find
// references; an undeclared key is a warning with "did you mean" or an information note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Location } from 'vscode-languageserver-protocol';
import { LspTestClient } from './lspClient';
import { positionOf, readFixture } from './fixtureText';

const uri = 'file:///w/open-spec/manifest.yaml';
const text = readFixture('open-spec.yaml');
let client: LspTestClient;
let diagnostics: Awaited<ReturnType<LspTestClient['open']>>;
let version = 1;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
  diagnostics = await client.open(uri, text);
});
after(async () => { await client.stop(); });

const lines = text.split('\n');
const lineOf = (needle: string, nth = 0) => positionOf(text, needle, 0, nth).line;

/** Types `typed` into a template (after `{{ `; by default the double-quoted `per_page`) and returns the completion items there. */
async function completeAfter(typed: string, anchor = 'per_page: "{{ ') {
  const at = positionOf(text, anchor, anchor.length);
  await client.edit(uri, ++version, [{ range: { start: at, end: at }, text: typed }]);
  const items = await client.completion(uri, { line: at.line, character: at.character + typed.length });
  await client.change(uri, text, ++version);
  return items;
}

const TOP_KEYS = ['credentials', 'api_key', 'region', 'page_size', 'advanced'];

test("completion after config. / config[' / config[\" / config.get(' lists the declared keys of an open spec", async () => {
  for (const typed of ['config.', "config['", "config.get('"]) {
    const labels = (await completeAfter(typed)).map((i) => i.label);
    assert.deepEqual(labels, TOP_KEYS, typed);
  }
  // `"` inside a double-quoted YAML string would end it: typed in a single-quoted one.
  assert.deepEqual((await completeAfter('config["', "locale: '{{ ")).map((i) => i.label), TOP_KEYS, 'config["');
  assert.deepEqual((await completeAfter("config.get(''", "locale: '{{ ")).map((i) => i.label), TOP_KEYS, "config.get('' in a single-quoted scalar");
  const apiKey = (await completeAfter('config.')).find((i) => i.label === 'api_key')!;
  assert.match(apiKey.detail ?? '', /API Key · string · secret/);
});

test('completion in nested objects and in oneOf options names the option of each key', async () => {
  const nested = (await completeAfter('config.advanced.')).map((i) => i.label);
  assert.deepEqual(nested, ['start_date']);
  const options = await completeAfter("config['credentials']['");
  assert.deepEqual(options.map((i) => i.label), ['auth_type', 'client_id', 'client_secret', 'refresh_token', 'api_token']);
  assert.match(options.find((i) => i.label === 'client_id')!.detail!, /option: OAuth2\.0/);
  assert.match(options.find((i) => i.label === 'api_token')!.detail!, /option: API Token/);
  assert.match(options.find((i) => i.label === 'auth_type')!.detail!, /option: OAuth2\.0 \| API Token/);
});

test('hover on a declared key shows title, description, type, secret, default and examples', async () => {
  const apiKey = JSON.stringify((await client.hover(uri, positionOf(text, "config['api_key']", "config['a".length)))?.contents);
  for (const part of ['config.api_key', 'API Key', 'The key from Settings', 'Type: `string`', 'Secret', 'hd_live_0123']) assert.ok(apiKey.includes(part), `${part} in ${apiKey}`);
  assert.doesNotMatch(apiKey, /not declared/);
  const region = JSON.stringify((await client.hover(uri, positionOf(text, 'config.region', 'config.r'.length)))?.contents);
  for (const part of ['Region', 'Default: `us`', 'Allowed values', 'Data center']) assert.ok(region.includes(part), `${part} in ${region}`);
  const doubleQuoted = JSON.stringify((await client.hover(uri, positionOf(text, 'config[\\"api_key', 'config[\\"a'.length)))?.contents);
  assert.match(doubleQuoted, /API Key/);
  const option = JSON.stringify((await client.hover(uri, positionOf(text, "['client_id']", 3)))?.contents);
  assert.match(option, /config\.credentials\.client_id/);
  assert.match(option, /Client ID/);
  assert.match(option, /option \*OAuth2\.0\*/);
  const nested = JSON.stringify((await client.hover(uri, positionOf(text, 'advanced.start_date', 'advanced.s'.length)))?.contents);
  assert.match(nested, /Start Date/);
});

test('hover in a templated mapping key, and on the innermost read of nested reads', async () => {
  const inKey = JSON.stringify((await client.hover(uri, positionOf(text, "\"{{ config['region'] }}_only", "\"{{ config['r".length)))?.contents);
  assert.match(inKey, /config\.region\*\* — Region/);
  const inner = JSON.stringify((await client.hover(uri, positionOf(text, "config['api_key']) }}", "config['a".length)))?.contents);
  assert.match(inner, /config\.api_key\*\* — API Key/);
  const outer = JSON.stringify((await client.hover(uri, positionOf(text, "get('api_token'", "get('a".length)))?.contents);
  assert.match(outer, /config\.credentials\.api_token\*\* — Token/);
});

test('go to definition from a config key lands on its spec property, inside its oneOf option too', async () => {
  const [apiKey] = await client.definition(uri, positionOf(text, "config['api_key']", "config['a".length));
  assert.equal(apiKey.targetSelectionRange.start.line, lineOf('      api_key:\n        type: string'));
  const [clientId] = await client.definition(uri, positionOf(text, "['client_id']", 3));
  assert.equal(clientId.targetSelectionRange.start.line, lineOf('              client_id:'));
  const [startDate] = await client.definition(uri, positionOf(text, 'advanced.start_date', 'advanced.s'.length));
  assert.equal(startDate.targetSelectionRange.start.line, lineOf('          start_date:'));
});

test('find references from a spec property lists every template that reads it', async () => {
  const references = async (needle: string, delta: number, includeDeclaration: boolean) => {
    const result = await client.request<Location[] | null>('textDocument/references', { textDocument: { uri }, position: positionOf(text, needle, delta), context: { includeDeclaration } });
    return (result ?? []).map((l) => lines[l.range.start.line].slice(l.range.start.character, l.range.end.character) + `@${l.range.start.line}`);
  };
  const apiKeyLine = lineOf('      api_key:\n        type: string');
  assert.deepEqual(await references('      api_key:\n        type: string', 8, false), [`api_key@${lineOf("config['api_key']")}`, `api_key@${lineOf('config[\\"api_key')}`, `api_key@${lineOf("config['api_key']) }}")}`]);
  assert.deepEqual((await references('      api_key:\n        type: string', 8, true))[0], `api_key@${apiKeyLine}`);
  // A key declared in a oneOf option; reads through `config['credentials']['client_id']` count.
  assert.deepEqual(await references('              client_id:', 16, false), [`client_id@${lineOf("config['credentials']['client_id']")}`]);
  // The object itself is used by every read below it.
  assert.equal((await references('      credentials:', 8, false)).length, 4);
  // From a read in a template, the same list.
  // Templated mapping keys count too.
  assert.deepEqual(await references('config.region', 'config.r'.length, false), [`region@${lineOf('config.region')}`, `region@${lineOf('config.region', 1)}`, `region@${lineOf("\"{{ config['region'] }}_only")}`]);
});

test('an undeclared key: a warning with "did you mean" when close, else an information note', () => {
  const found = diagnostics.diagnostics.filter((d) => d.code === 'template-undeclared-config-key');
  const typo = found.find((d) => String(d.message).includes('api_kye'));
  assert.ok(typo, JSON.stringify(found));
  assert.equal(typo.severity, 2);
  assert.match(String(typo.message), /Did you mean 'api_key'\?/);
  const migrated = found.find((d) => String(d.message).includes('legacy_account_id'));
  assert.ok(migrated);
  assert.equal(migrated.severity, 3);
  assert.equal(found.length, 2, 'declared keys, nested keys and oneOf keys are not reported');
});

test('a spec closed with additionalProperties: false makes every undeclared key a warning', async () => {
  const closedUri = 'file:///w/open-spec/closed.yaml';
  const closed = await client.open(closedUri, text.replace('    additionalProperties: true', '    additionalProperties: false'));
  const migrated = closed.diagnostics.find((d) => d.code === 'template-undeclared-config-key' && String(d.message).includes('legacy_account_id'));
  assert.equal(migrated?.severity, 2);
  assert.match(String(migrated?.message), /allows no other keys/);
});

// Completion of every authenticator and paginator field at every depth, from the catalog, over
// stdio: nested components and plain-schema objects, enum values, the schema's examples as values,
// reference paths one segment at a time, and hover on every template variable and filter.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';
import { positionOf, readFixture } from './fixtureText';
import { allComponents, getComponent, type ComponentDef } from '../../server/src/runtime/schema/catalog';
import { FILTER_DOCS, VARIABLES_BY_KIND } from '../../server/src/runtime/interpolation/variables';

const uri = 'file:///w/auth-pagination/manifest.yaml';
const text = readFixture('auth-pagination.yaml');
let client: LspTestClient;
let version = 1;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
  await client.open(uri, text);
});
after(async () => { await client.stop(); });

/** Completion labels on a new line inserted after the line ending with `anchor`, at `indent` spaces. */
async function keysAfter(anchor: string, indent: number): Promise<string[]> {
  const at = positionOf(text, `${anchor}\n`, anchor.length);
  await client.edit(uri, ++version, [{ range: { start: at, end: at }, text: `\n${' '.repeat(indent)}` }]);
  const items = await client.completion(uri, { line: at.line + 1, character: indent });
  await client.change(uri, text, ++version);
  return items.map((i) => i.label);
}

async function valuesAt(needle: string, delta: number) {
  return client.completion(uri, positionOf(text, needle, delta));
}

const includesAll = (labels: string[], expected: string[]) => {
  for (const e of expected) assert.ok(labels.includes(e), `${e} in ${labels.join(', ')}`);
};

test('nested components of authenticators: login_requester, its authenticator, request_authentication and its inject_into', async () => {
  includesAll(await keysAfter('url_base: https://login.example.test', 6), ['path', 'http_method', 'request_parameters', 'error_handler']);
  includesAll(await keysAfter(`username: "{{ config['user'] }}"`, 8), ['password']);
  includesAll(await keysAfter('        inject_into: header', 8), ['field_name', 'field_path']);
  includesAll(await keysAfter('    session_token_path: [token]', 4), ['expiration_duration', 'decoder']);
});

test('plain-schema objects: refresh_token_updater, jwt_headers, jwt_payload', async () => {
  assert.deepEqual(await keysAfter('      refresh_token_name: refresh_token', 6), ['access_token_config_path', 'refresh_token_config_path', 'token_expiry_date_config_path', 'refresh_token_error_status_codes', 'refresh_token_error_key', 'refresh_token_error_values']);
  assert.deepEqual(await keysAfter('      kid: key-1', 6), ['typ', 'cty']);
  assert.deepEqual(await keysAfter('      iss: me', 6), ['sub', 'aud']);
  const hover = await client.hover(uri, positionOf(text, 'refresh_token_name: refresh_token', 2));
  assert.match(JSON.stringify(hover?.contents), /Key of the new refresh token/);
});

test('paginator options and error handler response filters, written without `type`', async () => {
  includesAll(await keysAfter('            field_name: limit', 12), ['field_path']);
  includesAll(await keysAfter('                http_codes: [404]', 16), ['failure_type', 'error_message', 'error_message_contains', 'predicate']);
});

test('enum values at depth: inject_into, algorithm, response filter action', async () => {
  assert.deepEqual((await valuesAt('inject_into: header', 'inject_into: '.length)).map((i) => i.label).sort(), ['body_data', 'body_json', 'header', 'request_parameter']);
  assert.ok((await valuesAt('algorithm: RS256', 'algorithm: '.length)).some((i) => i.label === 'ES256'));
  assert.ok((await valuesAt('- action: IGNORE', '- action: '.length)).some((i) => i.label === 'RETRY'));
});

test("the schema's examples as values where there is no enum", async () => {
  const grant = await valuesAt('grant_type: refresh_token', 'grant_type: '.length);
  assert.deepEqual(grant.map((i) => i.label), ['refresh_token', 'client_credentials']);
  assert.equal(grant[0].detail, 'default');
  const format = await valuesAt('token_expiry_date_format: "%Y', 'token_expiry_date_format: "'.length);
  const item = format.find((i) => i.label === '%Y-%m-%d %H:%M:%S.%f+00:00');
  assert.ok(item, format.map((i) => i.label).join(', '));
  // The user opened a double quote: the value goes inside it.
  assert.equal((item.textEdit as { newText: string }).newText, '"%Y-%m-%d %H:%M:%S.%f+00:00"');
  const datetime = (await valuesAt('datetime_format: "%Y-%m-%d"', 'datetime_format: '.length)).map((i) => i.label);
  includesAll(datetime, ['%Y-%m-%dT%H:%M:%S.%f%z', '%Y-%m-%d', '%s', '%ms']);
});

test('reference completion goes one path segment at a time', async () => {
  const top = (await valuesAt('$ref: "#/definitions/session_auth"', '$ref: "#/'.length)).sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''));
  assert.equal(top[0].label, 'definitions', 'the section of reusable pieces first');
  assert.deepEqual(top.map((i) => i.label).sort(), ['check', 'definitions', 'spec', 'streams', 'type', 'version']);
  assert.ok(!top.some((i) => i.label.includes('/')), 'only top-level keys');
  const definitions = await valuesAt('$ref: "#/definitions/session_auth"', '$ref: "#/definitions/'.length);
  assert.deepEqual(definitions.map((i) => i.label), ['session_auth', 'oauth', 'jwt', 'streams']);
  assert.equal((definitions[0].textEdit as { newText: string }).newText, '"#/definitions/session_auth"');
  const streams = await valuesAt('- $ref: "#/definitions/streams/items"', '- $ref: "#/definitions/streams/'.length);
  assert.deepEqual(streams.map((i) => i.label), ['items']);
  assert.match(streams[0].detail ?? '', /DeclarativeStream/);
});

/** Every component an authenticator or paginator can hold, at any depth, per the catalog. */
function authAndPaginationClosure(): ComponentDef[] {
  const out = new Map<string, ComponentDef>();
  const add = (c: ComponentDef | undefined) => {
    if (!c || out.has(c.type)) return;
    out.set(c.type, c);
    for (const f of Object.values(c.fields)) for (const t of f.components ?? []) add(getComponent(t));
  };
  for (const c of allComponents()) if (c.area === 'auth' || c.area === 'pagination') add(c);
  return [...out.values()];
}

test('every field of every component reachable from an authenticator or paginator is offered, with its values', async () => {
  const components = authAndPaginationClosure();
  assert.ok(components.length > 20, `${components.length} components`);
  // One definitions entry per case, each with the cursor place recorded.
  const lines = ['version: 6.44.0', 'type: DeclarativeSource', 'definitions:'];
  const keyCases: { at: number; type: string; expected: string[] }[] = [];
  const valueCases: { at: { line: number; character: number }; what: string; expected: string[] }[] = [];
  for (const c of components) {
    lines.push(`  k_${c.type}:`, `    type: ${c.type}`, '    ');
    keyCases.push({ at: lines.length - 1, type: c.type, expected: Object.keys(c.fields) });
    for (const [name, f] of Object.entries(c.fields)) {
      const props = f.schema && typeof f.schema.properties === 'object' ? Object.keys(f.schema.properties as object) : [];
      if (props.length) {
        lines.push(`  o_${c.type}_${name}:`, `    type: ${c.type}`, `    ${name}:`, '      ');
        keyCases.push({ at: lines.length - 1, type: `${c.type}.${name}`, expected: props });
      }
      const values = f.enum ?? (f.examples?.length ? [...(f.default !== undefined && typeof f.default !== 'object' ? [f.default] : []), ...f.examples] : null);
      if (values) {
        lines.push(`  v_${c.type}_${name}:`, `    type: ${c.type}`, `    ${name}: `);
        valueCases.push({ at: { line: lines.length - 1, character: lines[lines.length - 1].length }, what: `${c.type}.${name}`, expected: [...new Set(values.map((v) => (v === '' ? '""' : String(v))))] });
      }
    }
  }
  const generated = 'file:///w/auth-pagination/every-field.yaml';
  await client.open(generated, lines.join('\n') + '\n');
  for (const k of keyCases) {
    const labels = (await client.completion(generated, { line: k.at, character: lines[k.at].length })).map((i) => i.label);
    for (const e of k.expected) assert.ok(labels.includes(e), `${k.type}: ${e} not in ${labels.join(', ')}`);
  }
  for (const v of valueCases) {
    const labels = (await client.completion(generated, v.at)).map((i) => i.label);
    assert.deepEqual(labels.slice().sort(), v.expected.slice().sort(), v.what);
  }
  assert.ok(valueCases.some((v) => v.what === 'OAuthAuthenticator.grant_type'));
});

test('hover on every template variable and filter says what it is for, with an example', async () => {
  const variables = [...new Map(Object.values(VARIABLES_BY_KIND).flat().map((v) => [v.name, v])).values()];
  const lines = ['version: 6.44.0', 'type: DeclarativeSource', 'streams:', '  - type: DeclarativeStream', '    name: s', '    retriever:', '      type: SimpleRetriever',
    '      requester:', '        type: HttpRequester', '        url_base: https://x.test', '        request_parameters:'];
  const spots: { line: number; character: number; name: string; description: string; example: string }[] = [];
  for (const v of variables) {
    lines.push(`          v_${v.name}: "{{ ${v.name} }}"`);
    spots.push({ line: lines.length - 1, character: lines[lines.length - 1].indexOf(v.name, 14) + 1, name: v.name, description: v.description, example: v.example });
  }
  for (const f of FILTER_DOCS) {
    lines.push(`          f_${f.name}: "{{ config.x | ${f.name} }}"`);
    spots.push({ line: lines.length - 1, character: lines[lines.length - 1].lastIndexOf(f.name) + 1, name: f.name, description: f.description, example: f.example });
  }
  const generated = 'file:///w/auth-pagination/template-hover.yaml';
  await client.open(generated, lines.join('\n') + '\n');
  for (const s of spots) {
    const value = JSON.stringify((await client.hover(generated, { line: s.line, character: s.character }))?.contents ?? '');
    assert.ok(value.includes(JSON.stringify(s.description).slice(1, -1)), `${s.name}: description in ${value}`);
    assert.ok(value.includes(JSON.stringify(s.example).slice(1, -1)), `${s.name}: example in ${value}`);
  }
});


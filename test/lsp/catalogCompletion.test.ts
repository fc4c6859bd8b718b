// Completion of every authenticator and paginator field at every depth, from the catalog, over
// stdio (generated from the catalog, so not a fixed case), and hover on every template variable and
// filter. The hand-picked places (nested components, plain-schema objects, enum values, examples,
// reference paths) are cases in test/fixtures/features/completion/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';
import { allComponents, getComponent, type ComponentDef } from '../../server/src/runtime/schema/catalog';
import { FILTER_DOCS, VARIABLES_BY_KIND } from '../../server/src/runtime/interpolation/variables';

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start({ validationDelayMs: 0 });
});
after(async () => {
  await client.stop();
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
      const values =
        f.enum ??
        (f.examples?.length ? [...(f.default !== undefined && typeof f.default !== 'object' ? [f.default] : []), ...f.examples] : null);
      if (values) {
        lines.push(`  v_${c.type}_${name}:`, `    type: ${c.type}`, `    ${name}: `);
        valueCases.push({
          at: { line: lines.length - 1, character: lines[lines.length - 1].length },
          what: `${c.type}.${name}`,
          expected: [...new Set(values.map((v) => (v === '' ? '""' : String(v))))],
        });
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
  const variables = [
    ...new Map(
      Object.values(VARIABLES_BY_KIND)
        .flat()
        .map((v) => [v.name, v]),
    ).values(),
  ];
  const lines = [
    'version: 6.44.0',
    'type: DeclarativeSource',
    'streams:',
    '  - type: DeclarativeStream',
    '    name: s',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    '        type: HttpRequester',
    '        url_base: https://x.test',
    '        request_parameters:',
  ];
  const spots: { line: number; character: number; name: string; description: string; example: string }[] = [];
  for (const v of variables) {
    lines.push(`          v_${v.name}: "{{ ${v.name} }}"`);
    spots.push({
      line: lines.length - 1,
      character: lines[lines.length - 1].indexOf(v.name, 14) + 1,
      name: v.name,
      description: v.description,
      example: v.example,
    });
  }
  for (const f of FILTER_DOCS) {
    lines.push(`          f_${f.name}: "{{ config.x | ${f.name} }}"`);
    spots.push({
      line: lines.length - 1,
      character: lines[lines.length - 1].lastIndexOf(f.name) + 1,
      name: f.name,
      description: f.description,
      example: f.example,
    });
  }
  const generated = 'file:///w/auth-pagination/template-hover.yaml';
  await client.open(generated, lines.join('\n') + '\n');
  for (const s of spots) {
    const value = JSON.stringify((await client.hover(generated, { line: s.line, character: s.character }))?.contents ?? '');
    assert.ok(value.includes(JSON.stringify(s.description).slice(1, -1)), `${s.name}: description in ${value}`);
    assert.ok(value.includes(JSON.stringify(s.example).slice(1, -1)), `${s.name}: example in ${value}`);
  }
});

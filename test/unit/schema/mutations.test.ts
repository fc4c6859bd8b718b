// Generates mutations of the fixture manifests (required field removed, component type misspelt,
// enum value changed, reference broken) and checks that each yields exactly one error, located on
// the mutated component or reference, with a readable message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMap, isPair, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { JsonPath } from '../../../server/src/runtime/manifest/origins';
import { findSourceNode } from '../../../server/src/runtime/manifest/locator/sourceNodes';
import { fieldInfo, getComponent, requiredFields } from '../../../server/src/runtime/schema/catalog';
import { errors, fixture } from './helpers';

type Mutation = { name: string; apply(doc: ReturnType<typeof parseDocument>): void; component: JsonPath; expect: RegExp };

/** Every mapping of the fixture whose `type` names a catalog component, with its path. */
function components(text: string): { path: JsonPath; type: string; keys: string[] }[] {
  const out: { path: JsonPath; type: string; keys: string[] }[] = [];
  const walk = (node: unknown, path: JsonPath) => {
    if (isMap(node)) {
      const keys = node.items.filter(isPair).map((p) => String(isScalar(p.key) ? p.key.value : p.key));
      const typePair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'type');
      const type = typePair && isScalar(typePair.value) ? String(typePair.value.value) : undefined;
      if (type && getComponent(type)) out.push({ path, type, keys });
      for (const p of node.items) if (isPair(p) && isScalar(p.key)) walk(p.value, [...path, String(p.key.value)]);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i]));
    }
  };
  walk(parseDocument(text).contents, []);
  return out;
}

/** Every reference (a `$ref` value or a `#/` string) with its path. */
function references(text: string): JsonPath[] {
  const out: JsonPath[] = [];
  const walk = (node: unknown, path: JsonPath) => {
    if (isMap(node))
      for (const p of node.items) {
        if (isPair(p) && isScalar(p.key)) walk(p.value, [...path, String(p.key.value)]);
      }
    else if (isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i]));
    else if (isScalar(node) && typeof node.value === 'string' && node.value.startsWith('#/')) out.push(path);
  };
  walk(parseDocument(text).contents, []);
  return out;
}

function mutationsOf(text: string): Mutation[] {
  const list: Mutation[] = [];
  for (const c of components(text)) {
    for (const field of requiredFields(c.type)) {
      if (!c.keys.includes(field)) continue;
      // Spec §1.3 (reference quirk): a same-named parameter fills the removed field instead, which
      // is then reported as a wrong value copied from `$parameters`.
      const expect = new RegExp(`${c.type}: missing required field \`${field}\`|comes from \`\\$parameters\\.${field}\``);
      list.push({
        name: `remove ${c.type}.${field} at ${c.path.join('/')}`,
        component: c.path,
        expect,
        apply: (d) => d.deleteIn([...c.path, field]),
      });
    }
    const misspelt = c.type.slice(0, -2) + c.type.slice(-1) + c.type.slice(-2, -1);
    list.push({
      name: `misspell ${c.type} at ${c.path.join('/')}`,
      component: c.path,
      expect: new RegExp(`Unknown component type \`${misspelt}\`.*Did you mean \`${c.type}\`\\?`),
      apply: (d) => d.setIn([...c.path, 'type'], misspelt),
    });
    for (const key of c.keys) {
      const f = fieldInfo(c.type, key);
      if (!f?.enum || f.components) continue;
      list.push({
        name: `bad enum ${c.type}.${key}`,
        component: c.path,
        expect: new RegExp(`${c.type}: \`${key}\` must be one of`),
        apply: (d) => d.setIn([...c.path, key], 'not_a_valid_value'),
      });
    }
  }
  for (const ref of references(text)) {
    list.push({
      name: `break reference at ${ref.join('/')}`,
      component: ref,
      expect: /Reference `#\/definitions\/no_such_thing` cannot be resolved: there is no `no_such_thing` under `#\/definitions`/,
      apply: (d) => d.setIn(ref, '#/definitions/no_such_thing'),
    });
  }
  return list;
}

function rangeOf(text: string, path: JsonPath): [number, number] {
  const doc = parseDocument(text);
  const { node, pair } = findSourceNode(doc, path);
  const start = (pair?.key as Node | undefined)?.range?.[0] ?? node?.range?.[0] ?? 0;
  return [start, node?.range?.[1] ?? start];
}

for (const name of ['complete.yaml']) {
  test(`every mutation of ${name} gives exactly one located, readable error`, () => {
    const original = fixture(name);
    const mutations = mutationsOf(original);
    assert.ok(mutations.length >= 60, `only ${mutations.length} mutations generated`);
    const kinds = new Set(mutations.map((m) => m.name.split(' ')[0]));
    assert.deepEqual([...kinds].sort(), ['bad', 'break', 'misspell', 'remove']);
    for (const m of mutations) {
      const doc = parseDocument(original);
      m.apply(doc);
      const text = doc.toString();
      const found = errors(text);
      assert.equal(found.length, 1, `${m.name}: ${JSON.stringify(found.map((e) => e.message))}`);
      const [e] = found;
      assert.match(e.message, m.expect, m.name);
      // A value copied from `$parameters` is reported where the parameter is written.
      if (/comes from `\$parameters/.test(e.message)) continue;
      const [start, end] = rangeOf(text, m.component);
      assert.ok(
        e.span.start >= start && e.span.end <= end && e.span.end > e.span.start,
        `${m.name}: error at ${e.span.start}-${e.span.end} ("${e.at}"), component at ${start}-${end}`,
      );
    }
  });
}

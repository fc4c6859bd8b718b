// Offsets of template characters in the document for every YAML scalar style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument, isMap, type Scalar } from 'yaml';
import { scalarOffsets } from '../../../server/src/runtime/manifest/locator/scalarOffsets';

/** The scalar value of `key` in a one-level mapping, with its offsets. */
function offsetsOf(text: string, key: string): { value: string; offsets: number[] } {
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) throw new Error('mapping expected');
  const node = doc.contents.get(key, true) as Scalar;
  return { value: node.value as string, offsets: scalarOffsets(text, node)! };
}

/** Every non-space character of the value maps onto the same character in the text (or onto the backslash of its escape). */
function assertExact(text: string, key: string): void {
  const { value, offsets } = offsetsOf(text, key);
  assert.equal(offsets.length, value.length + 1);
  [...value].forEach((ch, i) => {
    if (ch === ' ' || ch === '\n') return;
    const at = text[offsets[i]];
    assert.ok(at === ch || (at === '\\' && text[offsets[i] + 1] === ch), `${JSON.stringify(value)} index ${i}: ${at}`);
  });
}

test('plain, single-quoted and double-quoted scalars', () => {
  assertExact('a: x {{ config.k }} y\n', 'a');
  assertExact("a: '{{ config[''k''] }}'\n", 'a');
  assertExact('a: "{{ config[\\"k\\"] }}"\n', 'a');
});

test('double-quoted escapes map the decoded character to its escape', () => {
  const text = 'a: "x\\ty{{ v }}"\n';
  const { value, offsets } = offsetsOf(text, 'a');
  assert.equal(value, 'x\ty{{ v }}');
  assert.equal(text.slice(offsets[1], offsets[1] + 2), '\\t');
  assert.equal(text[offsets[value.indexOf('v')]], 'v');
});

test('folded, literal and multi-line plain scalars', () => {
  assertExact('a: >-\n  {{ next_page_token\n  | default(1) }}\n', 'a');
  assertExact('a: |\n  {% if x %}\n    {{ y }}\n  {% endif %}\nb: 1\n', 'a');
  assertExact('a: {{ a }} and\n  {{ b }}\n'.replace('a: {{ a }}', 'a: x{{ a }}'), 'a');
});

test('the end offset follows the last character', () => {
  const text = 'a: "{{ v }}"\n';
  const { offsets } = offsetsOf(text, 'a');
  assert.equal(offsets[offsets.length - 1], text.indexOf('"', 4));
});

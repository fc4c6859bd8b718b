import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cursorContextAt } from '../../../server/src/runtime/manifest/locator/cursorContext';

/** The context at the `|` marker of `marked`. */
function at(marked: string) {
  const offset = marked.indexOf('|');
  return cursorContextAt(marked.slice(0, offset) + marked.slice(offset + 1), offset);
}

const base = 'streams:\n  - type: DeclarativeStream\n    name: a\n  - type: DeclarativeStream\n    retriever:\n      requester:\n        ';

test('a blank line inside a mapping is a key position with the mapping path', () => {
  const c = at(base + '|\n')!;
  assert.equal(c.position, 'key');
  assert.deepEqual(c.mapPath, ['streams', 1, 'retriever', 'requester']);
  assert.equal(c.prefix.text, '');
});

test('a half-typed key is a key position; the prefix is what was typed', () => {
  const c = at(base + 'url_b|\n')!;
  assert.equal(c.position, 'key');
  assert.deepEqual(c.mapPath, ['streams', 1, 'retriever', 'requester']);
  assert.equal(c.prefix.text, 'url_b');
  assert.equal(c.word!.text, 'url_b');
});

test('after `key: ` is a value position for that key', () => {
  const c = at(base + 'http_method: P|\n')!;
  assert.equal(c.position, 'value');
  assert.equal(c.field, 'http_method');
  assert.deepEqual(c.mapPath, ['streams', 1, 'retriever', 'requester']);
  assert.equal(c.prefix.text, 'P');
});

test('a key on a dash line belongs to that item, counted among its siblings', () => {
  const c = at('streams:\n  - name: a\n  - name: b\n  - ty|\n')!;
  assert.deepEqual(c.mapPath, ['streams', 2]);
  assert.equal(c.inNewItem, true);
  const second = at('streams:\n  - name: a\n  - name: b\n    ty|\n')!;
  assert.deepEqual(second.mapPath, ['streams', 1]);
});

test('compact sequences (dashes at the key indentation) and hovering a whole key word', () => {
  const c = at('streams:\n- name: a\n  retriever:\n    type: Simple\n    pagi|nator:\n')!;
  assert.deepEqual(c.mapPath, ['streams', 0, 'retriever']);
  assert.equal(c.word!.text, 'paginator');
});

test('templates on the line are reported; comments give no context', () => {
  const c = at('a:\n  b: "{{ config[\'x|\'] }}"\n')!;
  assert.ok(c.template);
  assert.equal(at('a:\n  # comm|ent\n'), null);
  assert.equal(at('a:\n  b: "{{ x }} |"\n')!.template, null);
});

test('deep in a long list: item indices and paths count every earlier item, blank and comment lines aside', () => {
  const items: string[] = [];
  for (let i = 0; i < 3000; i++) {
    items.push(
      `  - name: s${i}`,
      '    retriever:',
      '      requester:',
      `        path: /p${i}`,
      '',
      '    # a comment',
      '    schema_loader:',
      '      - a',
      '      - b',
    );
  }
  const text = `streams:\n${items.join('\n')}\n`;
  const line = (k: number) => text.split('\n')[k];
  const offsetOf = (k: number, col: number) => text.split('\n').slice(0, k).join('\n').length + 1 + col;
  // Line 1 + 9 * 2500 + 3 is item 2500's `path:` line.
  const k = 1 + 9 * 2500 + 3;
  assert.equal(line(k), '        path: /p2500');
  const c = cursorContextAt(text, offsetOf(k, 10))!;
  assert.equal(c.position, 'key');
  assert.deepEqual(c.mapPath, ['streams', 2500, 'retriever', 'requester']);
  const afterComment = cursorContextAt(text, offsetOf(1 + 9 * 2999 + 6, 6))!;
  assert.deepEqual(afterComment.mapPath, ['streams', 2999]);
  const inner = cursorContextAt(text, offsetOf(1 + 9 * 1234 + 8, 9))!;
  assert.deepEqual(inner.mapPath, ['streams', 1234, 'schema_loader', 1]);
});

test('the same text read again after an edit above the cursor gives the new indices', () => {
  const text = 'streams:\n  - a: 1\n  - b: 2\n    c|: 3\n';
  assert.deepEqual(at(text)!.mapPath, ['streams', 1]);
  assert.deepEqual(at(text.replace('  - a: 1\n', '  - a: 1\n  - z: 0\n'))!.mapPath, ['streams', 2]);
  assert.deepEqual(at(text.replace('  - a: 1\n', ''))!.mapPath, ['streams', 0]);
});

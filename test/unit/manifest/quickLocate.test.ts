// The indentation-only locator must agree with the `yaml` parser wherever it answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import type { ManifestLocator } from '../../../server/src/runtime/manifest/locator/manifestLocator';

/** The indentation locator as every caller reaches it: through the manifest's locator (one per text). */
let lastLocator: ManifestLocator | undefined;
const quickLocate = (text: string, path: (string | number)[]) => {
  if (lastLocator?.text !== text) lastLocator = parseManifest(text).locator;
  return lastLocator.quickLocate(path);
};

type Expected = {
  path: (string | number)[];
  key: [number, number];
  value: [number, number] | null;
  style: string | null;
  decoded: unknown;
};

/** Every mapping key of a document with the parser's key range and, for plain scalars, value range. */
function expectedKeys(text: string): Expected[] {
  const doc = parseDocument(text, { uniqueKeys: false });
  const out: Expected[] = [];
  const walk = (node: Node | null, path: (string | number)[]) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key) || !pair.key.range) continue;
        const p = [...path, String(pair.key.value)];
        const v = pair.value as Node | null;
        const scalar = isScalar(v) && v.range && ['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'].includes(String(v.type)) ? v : null;
        out.push({
          path: p,
          key: [pair.key.range[0], pair.key.range[1]],
          value: scalar ? [scalar.range![0], scalar.range![1]] : null,
          style: scalar ? String(scalar.type) : null,
          decoded: scalar ? scalar.value : undefined,
        });
        walk(v, p);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, [...path, i]));
  };
  walk(doc.contents as Node, []);
  // Duplicate keys: the loaded value follows the later one.
  const last = new Map<string, Expected>();
  for (const e of out) last.set(JSON.stringify(e.path), e);
  return [...last.values()];
}

/** Checks every key of `text`; returns how many the quick locator answered. */
function compare(text: string, label: string): { answered: number; total: number } {
  let answered = 0;
  const expected = expectedKeys(text);
  for (const e of expected) {
    const q = quickLocate(text, e.path);
    if (!q) continue;
    answered++;
    assert.deepEqual([q.keySpan.start, q.keySpan.end], e.key, `${label}: key of ${JSON.stringify(e.path)}`);
    if (q.valueSpan) {
      assert.deepEqual([q.valueSpan.start, q.valueSpan.end], e.value, `${label}: value of ${JSON.stringify(e.path)}`);
      assert.equal(q.valueStyle, e.style, `${label}: style of ${JSON.stringify(e.path)}`);
    }
  }
  return { answered, total: expected.length };
}

test('agrees with the parser on every key of the fixture manifests', () => {
  const dir = join(__dirname, '..', '..', 'fixtures', 'manifests');
  let answered = 0;
  let total = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    const r = compare(text, f);
    answered += r.answered;
    total += r.total;
    // Windows line endings give the same answers.
    compare(text.replace(/\r?\n/g, '\r\n'), `${f} (CRLF)`);
  }
  assert.ok(total > 100 && answered / total > 0.8, `answered ${answered} of ${total}`);
});

test('declines what is not plain block style instead of guessing', () => {
  const text =
    'a:\n  b: {c: 1}\n  d: &x\n    e: 1\n  f: [1, 2]\n  "q": 2\n  ? complex\n  : 3\nlist:\n- x: 1\n  y: 2\n-   z: 3\nlast: |\n  g: not a key\n';
  assert.equal(quickLocate(text, ['a', 'b', 'c']), null);
  assert.equal(quickLocate(text, ['a', 'd', 'e']), null);
  assert.equal(quickLocate(text, ['a', 'f', 0]), null);
  assert.deepEqual(quickLocate(text, ['list', 1, 'z'])?.keySpan, { start: text.indexOf('z: 3'), end: text.indexOf('z: 3') + 1 });
  assert.deepEqual(quickLocate(text, ['list', 0, 'y'])?.valueSpan, { start: text.indexOf('y: 2') + 3, end: text.indexOf('y: 2') + 4 });
  assert.deepEqual(quickLocate(text, ['last'])?.keySpan, { start: text.indexOf('last'), end: text.indexOf('last') + 4 });
  assert.equal(quickLocate(text, ['last', 'g']), null);
  compare(text, 'inline');
});

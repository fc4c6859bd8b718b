// The indentation-only scalar finder must give the parser's range and style wherever it answers,
// for one-line and multi-line values, and decline what it cannot be sure of.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';

/** The finder as every caller reaches it: through the manifest's locator. */
const quickScalar = (text: string, path: (string | number)[], value: string) =>
  parseManifest(text).locator.quickScalar(path, value)?.node ?? null;

/** Every string scalar of `text` under a mapping key, as the parser gives it. */
function stringScalars(text: string): { path: (string | number)[]; node: { range: number[]; type: string; value: string } }[] {
  const out: { path: (string | number)[]; node: { range: number[]; type: string; value: string } }[] = [];
  const walk = (node: Node | null, path: (string | number)[]) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const p = [...path, String(pair.key.value)];
        const v = pair.value as Node | null;
        if (isScalar(v) && typeof v.value === 'string' && v.range)
          out.push({ path: p, node: { range: [v.range[0], v.range[1]], type: String(v.type), value: v.value } });
        walk(v, p);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, [...path, i]));
  };
  walk(parseDocument(text).contents as Node, []);
  return out;
}

/** Checks every string scalar; returns how many were answered, and their styles. */
function compare(text: string, label: string): { answered: number; styles: Set<string> } {
  let answered = 0;
  const styles = new Set<string>();
  const locator = parseManifest(text).locator;
  for (const { path, node } of stringScalars(text)) {
    const q = locator.quickScalar(path, node.value)?.node;
    if (!q) continue;
    answered++;
    styles.add(String(q.type));
    assert.deepEqual([q.range![0], q.range![1], q.type], [node.range[0], node.range[1], node.type], `${label}: ${JSON.stringify(path)}`);
    assert.equal(q.value, node.value);
  }
  return { answered, styles };
}

const MULTI_LINE = [
  'requester:',
  '  url_base: >-',
  "    {{ 'https://sandbox.example.test' if config.sandbox else",
  "    'https://api.example.test' }}",
  '  path: /v3/company/{{ config.realm_id }}/query',
  '  request_parameters:',
  '    query: >-',
  "      SELECT * FROM Account WHERE updated > '{{",
  "      stream_slice.start_time }}' AND x",
  '',
  '      ORDER BY id  ',
  '    literal: |',
  '      first {{ a }}',
  '',
  '      # not a comment inside a literal',
  '    plain: SELECT {{',
  '      next_page_token }} and',
  '        deeper # a comment ends it',
  '    double: "a {{ b }}',
  '      c \\" d"  # comment',
  "    single: 'it''s {{ x }}",
  "      folded'",
  '    one: "{{ config[\'k\'] }}" # trailing',
  '    next_single:',
  '',
  '      \'{{ not response.get("paging", {}).get("next", {})',
  "      }}'",
  '    next_double:',
  '      "{{ a }} \\" b"',
  '    next_plain:',
  '      x {{ y }}',
  '        z',
  'streams:',
  '  - name: s',
  '    filter: >',
  '      {{ record.id }}',
  '      kept',
  '  - condition: |-',
  '      {{ response.more }}',
  'last: end',
  '',
].join('\n');

test('gives the parser range and style of one-line and multi-line scalars', () => {
  const { answered, styles } = compare(MULTI_LINE, 'multi-line');
  assert.deepEqual([...styles].sort(), ['BLOCK_FOLDED', 'BLOCK_LITERAL', 'PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE']);
  // Every string under a key: nothing here needs the parser.
  assert.equal(answered, stringScalars(MULTI_LINE).length);
});

test('agrees with the parser on every string scalar of the fixture manifests', () => {
  const dir = join(__dirname, '..', '..', 'fixtures', 'manifests');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.ok(compare(text, f).answered > 0, f);
  }
});

test('declines headers, layouts and values it cannot be sure of', () => {
  const text = [
    'a: |2',
    '    two',
    'b: |+',
    '  keep',
    '',
    'c: >-',
    '  x',
    'd: "open',
    '  never closed',
    'e: [1, 2]',
    'f: x # c',
    '  y',
    '',
  ].join('\n');
  // An indentation indicator or keep chomping: left to the parser.
  assert.equal(quickScalar(text, ['a'], '  two\n'), null);
  assert.equal(quickScalar(text, ['b'], 'keep\n\n'), null);
  // A value that does not match what is written there.
  assert.equal(quickScalar(text, ['c'], 'y'), null);
  assert.equal(quickScalar(text, ['d'], 'open never closed'), null);
  assert.equal(quickScalar(text, ['e'], '[1, 2]'), null);
  // A comment ends a plain scalar: what follows is not its continuation.
  assert.equal(quickScalar(text, ['f'], 'x y'), null);
  // Windows line endings are left to the parser.
  assert.equal(quickScalar('k: >-\r\n  a\r\n  b\r\n', ['k'], 'a b'), null);
  // A value on the next line: a block scalar header there, or a line no deeper than the key.
  assert.equal(quickScalar('k:\n  |\n  a\n', ['k'], 'a\n'), null);
  assert.equal(quickScalar('k:\n- a\n', ['k'], 'a'), null);
});

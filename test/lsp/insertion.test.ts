// Data-driven insertion test: every completion item the real server (over stdio) offers at the
// cursor marker `‸` of each fixture in test/fixtures/insertion/ is applied exactly as VS Code
// applies it (vscodeInsertion.ts), for a client that announces `insertTextMode: asIs` (as
// vscode-languageclient does) and for one that does not (VS Code then adjusts the indentation).
// The document after insertion must parse without a YAML error, leave everything outside the
// fixture's `# into:` mapping unchanged, and (multi-line items) put the inserted keys in that
// mapping: a complete component's `type` and every field it requires, a field's nested `type`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import type { CompletionItem } from 'vscode-languageserver-protocol';
import { LspTestClient } from './lspClient';
import { positionAt } from './fixtureText';
import { applyAsVsCode } from './vscodeInsertion';
import { requiredFields } from '../../server/src/runtime/schema/catalog';

const DIR = join(__dirname, '..', 'fixtures', 'insertion');
const MARK = '‸';

type Fixture = { name: string; text: string; offset: number; into: (string | number)[] };

function loadFixtures(): Fixture[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const raw = readFileSync(join(DIR, name), 'utf8');
      const offset = raw.indexOf(MARK);
      assert.ok(offset >= 0, `${name} has no cursor marker ${MARK}`);
      const into = /^# into:[ \t]*(.*)$/m.exec(raw);
      assert.ok(into, `${name} has no "# into:" line`);
      const path =
        into[1].trim() === ''
          ? []
          : into[1]
              .trim()
              .split('.')
              .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      return { name, text: raw.replace(MARK, ''), offset, into: path };
    });
}

const fixtures = loadFixtures();

/** The value at `path` of a parsed document. */
function at(value: unknown, path: (string | number)[]): unknown {
  let v = value;
  for (const s of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[s] : undefined;
  return v;
}

/** The document's value with the value at `path` blanked (what must not change elsewhere). */
function outside(value: unknown, path: (string | number)[]): unknown {
  if (path.length === 0) return null;
  const copy = structuredClone(value);
  const parent = at(copy, path.slice(0, -1));
  if (parent !== null && typeof parent === 'object') (parent as Record<string | number, unknown>)[path[path.length - 1]] = null;
  return copy;
}

function keysBelow(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysBelow(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysBelow(v, out);
    }
  }
  return out;
}

/** Checks one accepted item; returns the problems found (empty when it inserts right). */
function check(fx: Fixture, item: CompletionItem): string[] {
  const problems: string[] = [];
  const { text, inserted } = applyAsVsCode(fx.text, item);
  const doc = parseDocument(text);
  if (doc.errors.length) return [`YAML error: ${doc.errors[0].message.split('\n')[0]}\n--- document ---\n${text}`];
  const after = doc.toJS();
  // What the document was without the word being replaced.
  const edit = item.textEdit as { range: { start: { line: number; character: number }; end: { line: number; character: number } } };
  const lines = fx.text.split('\n');
  const off = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const original = parseDocument(fx.text);
  const before = original.errors.length
    ? parseDocument(fx.text.slice(0, off(edit.range.start)) + fx.text.slice(off(edit.range.end))).toJS()
    : original.toJS();
  if (!isDeepStrictEqual(outside(after, fx.into), outside(before, fx.into)))
    problems.push(`changed the document outside ${fx.into.join('.') || 'the root'}\n--- document ---\n${text}`);
  const target = at(after, fx.into);
  const keys = keysBelow(target);
  for (const m of inserted.matchAll(/^[ \t]*(?:- )?([A-Za-z_$][\w$]*):(?:[ \t]|$)/gm)) {
    if (!keys.has(m[1])) problems.push(`inserted key ${m[1]} is not inside ${fx.into.join('.') || 'the root'}\n--- document ---\n${text}`);
  }
  if (inserted.includes('\n')) {
    if (target === null || typeof target !== 'object' || Array.isArray(target))
      return [...problems, `${fx.into.join('.')} is not a mapping after insertion\n--- document ---\n${text}`];
    const map = target as Record<string, unknown>;
    const complete = /^(\w+)(?: with (\w+))? \(complete\)$/.exec(String(item.label));
    if (complete) {
      if (map.type !== complete[1]) problems.push(`type is ${String(map.type)}, expected ${complete[1]}`);
      for (const f of requiredFields(complete[1]))
        if (!(f in map)) problems.push(`required field ${f} of ${complete[1]} is not in the mapping`);
    } else if (/^\w+$/.test(String(item.label))) {
      const nested = map[String(item.label)];
      const first = Array.isArray(nested) ? nested[0] : nested;
      if (first === null || typeof first !== 'object' || !('type' in first))
        problems.push(`${String(item.label)} did not get a nested mapping with type\n--- document ---\n${text}`);
    }
  }
  return problems;
}

const clients: { mode: string; client?: LspTestClient; completionItem: Record<string, unknown> }[] = [
  {
    mode: 'client announcing insertTextMode asIs (vscode-languageclient)',
    completionItem: { snippetSupport: true, insertTextModeSupport: { valueSet: [1, 2] } },
  },
  { mode: 'client without insertTextMode support (VS Code adjusts indentation)', completionItem: { snippetSupport: true } },
];

before(async () => {
  for (const c of clients) c.client = await LspTestClient.start({ validationDelayMs: 0 }, {}, c.completionItem);
});
after(async () => {
  for (const c of clients) await c.client?.stop();
});

test('the insertion fixtures cover the contexts the issue names', () => {
  const names = fixtures.map((f) => f.name);
  for (const n of [
    'authenticator',
    'paginator',
    'stream-item',
    'retriever-key',
    'requester-key',
    'record-filter',
    'incremental-sync',
    'empty-file',
  ]) {
    assert.ok(names.includes(`${n}.yaml`), `fixture ${n}.yaml`);
  }
});

for (const c of clients) {
  for (const fx of fixtures) {
    test(`${fx.name}: every item inserts valid YAML in the intended mapping (${c.mode})`, async () => {
      const uri = `file:///w/insertion/${c.completionItem.insertTextModeSupport ? 'asis' : 'adjust'}/${fx.name}`;
      await c.client!.open(uri, fx.text);
      const items = await c.client!.completion(uri, positionAt(fx.text, fx.offset));
      assert.ok(items.length > 0 || fx.name === 'flow-mapping.yaml', `${fx.name}: no completion items`);
      const failures: string[] = [];
      for (const item of items) {
        for (const p of check(fx, item)) failures.push(`[${String(item.label)}] ${p}`);
      }
      assert.deepEqual(failures, [], `${failures.length} of ${items.length} items insert wrongly:\n${failures.slice(0, 3).join('\n\n')}`);
    });
  }
}

test('the contexts with components offer multi-line items, and every one was checked', async () => {
  const client = clients[1].client!;
  for (const name of [
    'authenticator.yaml',
    'paginator.yaml',
    'stream-item.yaml',
    'retriever-key.yaml',
    'requester-key.yaml',
    'record-filter.yaml',
    'incremental-sync.yaml',
    'empty-file.yaml',
  ]) {
    const fx = fixtures.find((f) => f.name === name)!;
    const uri = `file:///w/insertion/count/${name}`;
    await client.open(uri, fx.text);
    const items = await client.completion(uri, positionAt(fx.text, fx.offset));
    const multi = items.filter((i) => ((i.textEdit as { newText: string } | undefined)?.newText ?? '').includes('\n'));
    assert.ok(multi.length > 0, `${name}: no multi-line item`);
  }
});

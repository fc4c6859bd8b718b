// Feature tests as data: every test/fixtures/features/<feature>/*.case runs against the shipped
// server over stdio (cases/runCase.ts), and each expected section of the case must equal what the
// server answered, rendered as text (cases/render.ts). `UPDATE_EXPECT=1 npm test` rewrites the
// expected sections from the answers (known-failing cases excepted): review every change before committing it. A case with
// `known-failing: <why>` is run and reported as TODO; it does not fail the suite. How to add a case:
// docs/editor.md, "Feature cases".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LspTestClient } from './lspClient';
import { readCase, writeCase, type CaseFile } from './cases/caseFile';
import { runCase, type CaseClients } from './cases/runCase';

const ROOT = join(__dirname, '..', 'fixtures', 'features');
const UPDATE = process.env.UPDATE_EXPECT === '1';

function caseFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? caseFiles(full) : name.endsWith('.case') ? [full] : [];
    });
}

// A case file that cannot be read fails its own test, with its path, not the whole run.
const loaded = caseFiles(ROOT).map((path) => {
  try {
    return readCase(path);
  } catch (err) {
    return { path, error: err as Error };
  }
});
const cases = loaded.filter((c): c is CaseFile => !('error' in c));

for (const bad of loaded.filter((c): c is { path: string; error: Error } => 'error' in c)) {
  test(`${relative(ROOT, bad.path)}: the case file reads`, () => {
    throw bad.error;
  });
}
const clients: Partial<CaseClients> = {};

before(async () => {
  const base = { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] };
  clients.asIs = await LspTestClient.start({ validationDelayMs: 0 }, {}, { ...base, insertTextModeSupport: { valueSet: [1, 2] } });
  clients.adjust = await LspTestClient.start({ validationDelayMs: 0 }, {}, base);
});
after(async () => {
  await clients.asIs?.stop();
  await clients.adjust?.stop();
});

test('there is at least one case per feature', () => {
  const features = new Set(cases.map((c) => c.header.feature));
  for (const f of ['completion', 'hover', 'diagnostics', 'quickfix', 'refactor', 'rename', 'definition', 'references'])
    assert.ok(features.has(f as CaseFile['header']['feature']), `no ${f} case`);
});

for (const c of cases) {
  const name = relative(ROOT, c.path);
  const knownFailing = c.header['known-failing'];
  test(`${name}: ${c.header.title ?? ''}`, { todo: knownFailing ? `known failing: ${knownFailing}` : undefined }, async () => {
    const { actual, problems } = await runCase(clients as CaseClients, c);
    // A known-failing case keeps its hand-written expectation: what the server should answer.
    if (UPDATE && !knownFailing) {
      const fresh = readCase(c.path);
      writeCase(fresh, new Map([...actual].filter(([section]) => fresh.expected.has(section))));
    }
    const mismatches: string[] = [...problems];
    if (!UPDATE) {
      for (const [section, expected] of c.expected) {
        const got = actual.get(section);
        if (got === undefined) mismatches.push(`section "${section}": the server gave no such result`);
        else if (got !== expected) mismatches.push(`section "${section}" differs\n--- expected ---\n${expected}--- actual ---\n${got}`);
      }
    }
    assert.deepEqual(mismatches, [], `${name}:\n${mismatches.join('\n\n')}`);
  });
}

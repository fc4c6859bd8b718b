// Reference fan-out (issue 11, item 8): levels that each reference the next twice double at every
// level. Resolution is bounded in total size and reports one located error instead of taking the
// process past 2 GB; real manifests, the largest included, resolve as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { resolveManifest } from '../../../server/src/runtime/manifest/resolve';
import { validateManifest } from '../../../server/src/runtime/validation/validateManifest';
import { fanOutManifest } from '../../fuzz/hostileInputs';

test('a 30-level fan-out (2 KB) stops with one located error instead of 2^31 copies', () => {
  const text = fanOutManifest(30);
  assert.ok(text.length < 2500);
  const started = Date.now();
  const problems = validateManifest(parseManifest(text));
  const elapsed = Date.now() - started;
  const tooLarge = problems.filter((p) => p.code === 'resolution-too-large');
  assert.equal(tooLarge.length, 1, JSON.stringify(problems.map((p) => p.code)));
  assert.match(tooLarge[0].message, /would produce more than 300,000 values; resolution stopped at `#\/definitions\/l\d+`/);
  // Located at a reference as written, with the chain of references that led there.
  const at = text.slice(tooLarge[0].span.start, tooLarge[0].span.end);
  assert.match(at, /#\/definitions\/l\d+/);
  assert.ok((tooLarge[0].related ?? []).length > 0);
  // Nothing below the half-resolved view is reported as noise.
  assert.equal(problems.filter((p) => p.severity === 'error').length, 1, JSON.stringify(problems.map((p) => p.message)));
  assert.ok(elapsed < 15_000, `${elapsed} ms`);
});

test('a fan-out below the bound resolves completely', () => {
  const r = resolveManifest(parseManifest(fanOutManifest(8)).value);
  assert.deepEqual(r.problems, []);
  let leaf = (r.value as { definitions: Record<string, unknown> }).definitions.l0 as Record<string, unknown>;
  for (let i = 0; i < 8; i++) leaf = leaf.k1 as Record<string, unknown>;
  assert.deepEqual(leaf, { x: 1 });
});

test('many inherited $parameters times many components is bounded too', () => {
  // 2^13 typed components under 5 resolution-sized levels each inherit 400 parameters.
  const lines = ['version: 6.0.0', 'type: DeclarativeSource', 'definitions:'];
  for (let i = 0; i < 13; i++)
    lines.push(`  l${i}:`, '    type: Level', `    a: "#/definitions/l${i + 1}"`, `    b: "#/definitions/l${i + 1}"`);
  lines.push('  l13: {type: Level}', 'streams:', '  - type: DeclarativeStream', '    name: s', '    $parameters:');
  for (let i = 0; i < 400; i++) lines.push(`      p${i}: v`);
  lines.push('    retriever: "#/definitions/l0"');
  const problems = validateManifest(parseManifest(`${lines.join('\n')}\n`));
  const tooLarge = problems.find((p) => p.code === 'resolution-too-large');
  assert.ok(tooLarge, JSON.stringify(problems.map((p) => p.code)));
  assert.match(tooLarge.message, /Propagating `\$parameters` would write more than 600,000 values/);
});

// The corpus lives beside the repository (../shared) and may be absent: the corpus checks of .ci/run
// cover every manifest there; this test adds the largest one when it is present.
const appfigures = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus', 'manifests', 'source-appfigures.yaml');
test('the largest real manifest (source-appfigures) resolves without hitting the bound', {
  skip: !existsSync(appfigures) && 'the corpus (../shared) is not beside this checkout',
}, () => {
  const file = appfigures;
  const problems = resolveManifest(parseManifest(readFileSync(file, 'utf8')).value).problems;
  assert.deepEqual(
    problems.map((p) => p.code),
    [],
  );
});

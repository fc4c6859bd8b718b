// Component fixtures (test/fixtures/components/*.case.yaml) against their goldens recorded from the
// reference CDK (scripts/differential/recordComponentGoldens.mjs): the case's scripted API runs on
// 127.0.0.1, our runtime (out/runtime.js) reads the stream or runs `check`, and must send the same
// requests and read the same slices, records and state (or give the same connection status and message).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
// @ts-expect-error: plain ES module without type declarations
import { summaryOf, wireRequests } from '../../../scripts/differential/compare.mjs';
// @ts-expect-error: plain ES module without type declarations
import { startScriptedApi, withOrigin } from '../../../scripts/differential/scriptedApi.mjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = require(join(__dirname, '..', '..', '..', 'out', 'runtime.js'));
const dir = join(__dirname, '..', '..', 'fixtures', 'components');

type Case = {
  command?: 'check';
  stream?: string;
  now?: string;
  limits?: object;
  state?: object[];
  config?: object;
  manifest: object;
  routes: object[];
  ours_explains?: boolean;
};
type Golden = {
  expected: { summary?: unknown; errors?: string[]; exception?: string; status?: string; message?: string | null };
  requests: unknown[];
};

type Summary = { slices: { slice_descriptor: unknown }[] };

/**
 * The reference's slice descriptor may name a later partition of the same read (its partitions are made
 * on another thread, reference-incremental.md §6.1), as the harness accepts (compare.mjs): where the
 * reference's names another of our slices, it is taken.
 */
function sameReadDescriptors(ours: Summary, reference: Summary): Summary {
  const text = (d: unknown) => JSON.stringify(d);
  const descriptors = ours.slices.map((s) => text(s.slice_descriptor));
  ours.slices.forEach((s, i) => {
    const theirs = reference.slices[i];
    if (theirs && text(s.slice_descriptor) !== text(theirs.slice_descriptor) && descriptors.includes(text(theirs.slice_descriptor)))
      s.slice_descriptor = theirs.slice_descriptor;
  });
  return ours;
}

const cases = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.case.yaml'))
      .sort()
  : [];

test('every component fixture has a golden recorded from the reference', () => {
  assert.ok(cases.length > 0);
  for (const f of cases)
    assert.ok(
      existsSync(join(dir, f.replace('.case.yaml', '.golden.json'))),
      `${f} has no golden: run scripts/differential/recordComponentGoldens.mjs`,
    );
});

for (const file of cases) {
  const spec = parse(readFileSync(join(dir, file), 'utf8')) as Case;
  const goldenFile = join(dir, file.replace('.case.yaml', '.golden.json'));
  if (!existsSync(goldenFile)) continue;
  const golden = JSON.parse(readFileSync(goldenFile, 'utf8')) as Golden;
  test(`component golden: ${file.replace('.case.yaml', '')} ${spec.command === 'check' ? 'checks' : 'reads'} as the reference did`, async () => {
    const api = await startScriptedApi(spec.routes ?? []);
    try {
      const manifest = withOrigin(spec.manifest, api.origin);
      const config = withOrigin(spec.config ?? {}, api.origin);
      const expected = withOrigin(golden.expected, api.origin) as Golden['expected'];
      const env = {
        now: () => new Date(spec.now ?? '2024-03-15T12:00:00Z'),
        sleep: async () => {},
        ...(spec.state ? { state: spec.state } : {}),
      };
      if (spec.command === 'check') {
        const status = await rt.check(manifest, config, env);
        assert.deepEqual(
          { status: status.status, message: status.message },
          { status: expected.status, message: expected.message ?? null },
        );
      } else if (expected.exception !== undefined) {
        // The reference's whole read failed: ours throws with the reference's message.
        await assert.rejects(rt.testRead(manifest, config, spec.stream, spec.limits ?? {}, env), (e: Error) => {
          assert.ok(expected.exception!.endsWith(e.message), `reference: ${expected.exception}\nours: ${e.message}`);
          return true;
        });
      } else {
        const read = await rt.testRead(manifest, config, spec.stream, spec.limits ?? {}, env);
        assert.deepEqual(
          sameReadDescriptors(JSON.parse(JSON.stringify(summaryOf(read))), expected.summary as Summary),
          expected.summary,
          'slices, records and state',
        );
        const ourErrors = read.logs.filter((l: { level: string }) => l.level === 'ERROR').map((l: { message: string }) => l.message);
        // Deliberate (docs/fidelity.md): where the reference reads nothing silently, ours says why.
        if (spec.ours_explains)
          assert.equal(ourErrors.length, (expected.errors ?? []).length + 1, `ours explains the empty read: ${ourErrors.join(' | ')}`);
        else
          assert.deepEqual(
            ourErrors.length > 0,
            (expected.errors ?? []).length > 0,
            `errors: reference ${JSON.stringify(expected.errors)} / ours ${JSON.stringify(ourErrors)}`,
          );
      }
      assert.deepEqual(wireRequests(api.exchanges), withOrigin(golden.requests, api.origin), 'requests on the wire');
    } finally {
      await api.close();
    }
  });
}

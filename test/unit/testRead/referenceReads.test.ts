// Reference reads (issue 20): each fixture of test/fixtures/reference-reads holds a scripted API, a manifest,
// a config and what the reference CDK's test read answered against that API (recorded by
// scripts/differential/recordReferenceReads.mjs with the reference at the pinned commit, clock frozen). The
// same API is replayed to our runtime and the parts each fixture names in `compare` must be the reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testRead } from '../../../server/src/runtime';
// @ts-expect-error: a plain ES module shared with the recorder
import { startScriptedApi, withOrigin, withoutOrigin } from '../../../scripts/differential/referenceScriptedApi.mjs';

type Obj = Record<string, unknown>;
type Fixture = {
  about: string;
  compare: string[];
  manifest: Obj;
  config: Obj;
  stream: string;
  limits?: Obj;
  now?: string;
  state?: unknown[];
  routes: Obj;
  reference: { requests: string[]; streamRead: Obj };
};

const dir = join(__dirname, '..', '..', 'fixtures', 'reference-reads');

/** The part of a StreamRead a fixture compares. */
function project(read: Obj, what: string): unknown {
  const slices = (read.slices as Obj[]) ?? [];
  const pages = slices.map((s) => (s.pages as Obj[]) ?? []);
  switch (what) {
    case 'records':
      return pages.map((ps) => ps.map((p) => p.records));
    case 'logs':
      return ((read.logs as Obj[]) ?? []).map((l) => `${String(l.level)} ${String(l.message)}`);
    case 'pages':
      return pages.map((ps) => ps.map((p) => ((p.response as Obj | null) ? (p.response as Obj).status : null)));
    case 'state':
      return slices.map((s) => s.state);
    default:
      return read[what];
  }
}

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const fixture = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture;
  test(`reference read ${file}: ${fixture.about}`, async () => {
    assert.ok(fixture.reference, `${file} has no recorded reference answer: run scripts/differential/recordReferenceReads.mjs`);
    const api = await startScriptedApi(fixture.routes ?? {});
    try {
      const now = new Date(fixture.now ?? '2024-03-15T12:00:00Z');
      const ours = await testRead(
        withOrigin(fixture.manifest, api.origin),
        withOrigin(fixture.config ?? {}, api.origin),
        fixture.stream,
        fixture.limits ?? {},
        {
          now: () => now,
          sleep: async () => {},
          ...(fixture.state ? { state: fixture.state } : {}),
        } as never,
      );
      const got = withoutOrigin(ours, api.origin) as Obj;
      assert.deepEqual(
        api.requests.map((r: { method: string; url: string }) => `${r.method} ${r.url}`),
        fixture.reference.requests,
        'requests',
      );
      for (const what of fixture.compare) {
        assert.deepEqual(project(got, what), project(fixture.reference.streamRead, what), `${what} of ${file}`);
      }
    } finally {
      await api.close();
    }
  });
}

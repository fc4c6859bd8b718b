// Records the reference CDK's answer for each reference-read fixture (test/fixtures/reference-reads/*.json):
// starts the fixture's scripted API, runs the reference's test read (REFDIR/run.sh, built by
// ../shared/tools/reference-cdk/setup.sh) on the fixture's manifest, config, limits, state and frozen
// clock, and writes the StreamRead it printed into the fixture's `reference` (with the requests the API
// received). The fixtures are then replayed without Python by test/unit/testRead/referenceReads.test.ts.
//
// Usage: node scripts/differential/recordReferenceReads.mjs [--refcdk DIR] [fixture.json ...]
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedApi, withOrigin, withoutOrigin } from './referenceScriptedApi.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--refcdk');
const refcdk = at >= 0 ? args.splice(at, 2)[1] : (process.env.REFCDK_DIR ?? '../refcdk');
const dir = 'test/fixtures/reference-reads';
const files = args.length
  ? args
  : readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f));

for (const file of files) {
  const fixture = JSON.parse(readFileSync(file, 'utf8'));
  const api = await startScriptedApi(fixture.routes ?? {});
  const tmp = mkdtempSync(join(tmpdir(), 'refread-'));
  try {
    writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(withOrigin(fixture.manifest, api.origin)));
    writeFileSync(join(tmp, 'config.json'), JSON.stringify(withOrigin(fixture.config ?? {}, api.origin)));
    const l = fixture.limits ?? {};
    const argv = [
      join(tmp, 'manifest.json'),
      '--stream',
      fixture.stream,
      '--config',
      join(tmp, 'config.json'),
      '--now',
      fixture.now ?? '2024-03-15T12:00:00Z',
      '--max-records',
      String(l.maxRecords ?? 100),
      '--max-pages',
      String(l.maxPagesPerSlice ?? 5),
      '--max-slices',
      String(l.maxSlices ?? 5),
    ];
    if (fixture.state) {
      writeFileSync(join(tmp, 'state.json'), JSON.stringify(fixture.state));
      argv.push('--state', join(tmp, 'state.json'));
    }
    if (fixture.fullRefresh) argv.push('--full-refresh');
    // Asynchronously: the scripted API answers from this process while the reference runs.
    // (Exit status 2 means the read failed as a whole; the answer is still on stdout.)
    const out = await new Promise((resolve) =>
      execFile(join(refcdk, 'run.sh'), argv, { encoding: 'utf8', timeout: 180_000, maxBuffer: 1 << 26 }, (_e, stdout) => resolve(stdout)),
    );
    const streamRead = JSON.parse(out);
    // Stack traces name the machine's paths: only their last line is kept.
    for (const log of streamRead.logs ?? [])
      if (typeof log.stacktrace === 'string') log.stacktrace = log.stacktrace.trim().split('\n').pop();
    fixture.reference = withoutOrigin({ requests: api.requests.map((r) => `${r.method} ${r.url}`), streamRead }, api.origin);
    writeFileSync(file, JSON.stringify(fixture, null, 1) + '\n');
    console.log(
      `recorded ${file}: ${api.requests.length} requests, ${(streamRead.slices ?? []).length} slices, ${(streamRead.logs ?? []).length} logs`,
    );
  } finally {
    await api.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// Records the goldens of the component fixtures (test/fixtures/components/*.case.yaml) from the
// reference CDK: each case's scripted API runs on 127.0.0.1, the reference reads the stream (or runs
// `check`) against it, and what reached the wire plus what the reference answered is written beside the
// case as <name>.golden.json. test/unit/golden/componentGoldens.test.ts replays them without Python.
//
// Usage: node scripts/differential/recordComponentGoldens.mjs --reference DIR [--only NAME[,NAME]]
//   DIR is a built reference (../shared/tools/reference-cdk/setup.sh DIR): DIR/run.sh for reads, and
//   DIR/venv/bin/python running the CDK's source-declarative-manifest `check` for checks.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { parse } from 'yaml';
import { startScriptedApi, withOrigin } from './scriptedApi.mjs';
import { referenceFailure, summaryOf, wireRequests } from './compare.mjs';
import { referenceCheck, runProcess } from './referenceCheck.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const referenceDir = opt('--reference', process.env.REFERENCE_CDK_DIR);
const only = opt('--only', null)?.split(',');
const dir = opt('--cases', 'test/fixtures/components');
if (!referenceDir) {
  console.error('recordComponentGoldens: give the built reference with --reference DIR (see ../shared/tools/reference-cdk/README.md)');
  process.exit(2);
}

async function recordCase(file) {
  const name = basename(file, '.case.yaml');
  const spec = parse(readFileSync(join(dir, file), 'utf8'));
  const api = await startScriptedApi(withOrigin(spec.routes ?? [], 'http://127.0.0.1:0'));
  const tmp = mkdtempSync(join(tmpdir(), 'component-golden-'));
  try {
    const origin = api.origin;
    // Routes never hold the origin; manifest, config and state may.
    const manifestFile = join(tmp, 'manifest.json');
    const configFile = join(tmp, 'config.json');
    writeFileSync(manifestFile, JSON.stringify(withOrigin(spec.manifest, origin)));
    writeFileSync(configFile, JSON.stringify(withOrigin(spec.config ?? {}, origin)));
    const placeholder = (v) => JSON.parse(JSON.stringify(v).split(origin).join('{{ORIGIN}}'));
    let expected;
    if (spec.command === 'check') {
      expected = await referenceCheck(referenceDir, manifestFile, configFile);
    } else {
      const limits = { maxRecords: 100, maxPagesPerSlice: 5, maxSlices: 5, ...(spec.limits ?? {}) };
      const cli = [
        manifestFile,
        '--stream',
        spec.stream,
        '--config',
        configFile,
        '--now',
        spec.now ?? '2024-03-15T12:00:00Z',
        '--max-records',
        String(limits.maxRecords),
        '--max-pages',
        String(limits.maxPagesPerSlice),
        '--max-slices',
        String(limits.maxSlices),
      ];
      if (spec.state) {
        const stateFile = join(tmp, 'state.json');
        writeFileSync(stateFile, JSON.stringify(spec.state));
        cli.push('--state', stateFile);
      }
      if (spec.full_refresh) cli.push('--full-refresh');
      const run = await runProcess(join(referenceDir, 'run.sh'), cli);
      let read;
      try {
        read = JSON.parse(run.stdout);
      } catch {
        read = { __exception: `unreadable answer: ${String(run.stdout).slice(0, 200)} ${String(run.stderr).slice(-400)}` };
      }
      expected = read.__exception
        ? { exception: referenceFailure(read).message }
        : {
            summary: summaryOf(read),
            errors: (read.logs ?? []).filter((l) => l.level === 'ERROR').map((l) => String(l.message)),
            latest_config_update: read.latest_config_update ?? null,
          };
    }
    const golden = {
      about: `Recorded from the reference CDK by scripts/differential/recordComponentGoldens.mjs from ${file}`,
      recorded: new Date().toISOString().slice(0, 10),
      expected: placeholder(expected),
      requests: placeholder(wireRequests(api.exchanges)),
    };
    writeFileSync(join(dir, `${name}.golden.json`), `${JSON.stringify(golden, null, 1)}\n`);
    console.log(
      `${name}: ${spec.command === 'check' ? `${expected.status} ${String(expected.message ?? '').slice(0, 100)}` : expected.exception ? `exception ${expected.exception.slice(0, 160)}` : `${expected.summary.records.length} records, ${api.exchanges.length} requests, ${expected.errors.length} errors ${expected.errors.join(' | ').slice(0, 200)}`}`,
    );
  } finally {
    await api.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.case.yaml'))
  .sort()
  .filter((f) => !only || only.includes(basename(f, '.case.yaml')));
for (const f of files) await recordCase(f);

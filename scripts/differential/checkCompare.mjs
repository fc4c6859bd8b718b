// Compares `check` with the reference CDK's `source-declarative-manifest check`: the connection status
// and message of both, for the demo manifests (against the demo API, with the demo config and with
// every secret of it made wrong) and for a fixed sample of corpus manifests (against the synthesized
// API of the differential harness, with the harness's made-up config). Prints one line per case and
// the figures; exits 1 when any case differs.
//
// Usage: npm run build && node scripts/differential/checkCompare.mjs --reference DIR [--demo] [--corpus DIR --count N] [--report FILE]
//   DIR is a built reference (../shared/tools/reference-cdk/setup.sh DIR).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { tsImport } from 'tsx/esm/api';
import { referenceCheck } from './referenceCheck.mjs';
import { startSyntheticApi, rewriteUrls, formatDate, evalString } from './syntheticApi.mjs';
import { alignConfigDates, alignConfigStart, alignConfigUrls, sampleConfig } from './sampleConfig.mjs';

const runtime = createRequire(import.meta.url)('../../out/runtime.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const referenceDir = opt('--reference', process.env.REFERENCE_CDK_DIR);
const corpus = opt('--corpus', null);
const count = Number(opt('--count', '20'));
const reportFile = opt('--report', null);
if (!referenceDir) {
  console.error('checkCompare: give the built reference with --reference DIR (see ../shared/tools/reference-cdk/README.md)');
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), 'check-compare-'));
const results = [];

/** Runs both checks on one manifest/config pair and records whether status and message agree. */
// `side(run)` gives each side its API (run(config) is called with the API's config).
async function compare(label, manifest, configOf, side) {
  const manifestFile = join(tmp, 'manifest.json');
  const configFile = join(tmp, 'config.json');
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const reference = await side(async (config) => {
    writeFileSync(configFile, JSON.stringify(configOf(config)));
    return referenceCheck(referenceDir, manifestFile, configFile);
  });
  const ours = await side(async (config) => {
    try {
      const status = await runtime.check(structuredClone(manifest), structuredClone(configOf(config)), { sleep: async () => {} });
      return { status: status.status, message: status.message };
    } catch (e) {
      return { status: 'ERROR', message: String(e?.message ?? e) };
    }
  });
  // Each demo side has its own API port: URLs in messages are compared without it.
  const text = (m) => ((m ?? null) === null ? null : String(m).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT'));
  const same = reference.status === ours.status && text(reference.message) === text(ours.message);
  results.push({ label, same, reference, ours });
  console.log(
    `${same ? 'same     ' : 'DIFFERENT'} ${label}: ${reference.status}${reference.message ? ` ${reference.message.slice(0, 140)}` : ''}${same ? '' : `\n          ours: ${ours.status}${ours.message ? ` ${ours.message.slice(0, 140)}` : ''}`}`,
  );
}

/** The config with every secret value (airbyte_secret in the spec, at any depth) replaced by a wrong one. */
function wrongSecrets(config, schema) {
  const walk = (value, s) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const out = { ...value };
    for (const [k, v] of Object.entries(out)) {
      const prop = s?.properties?.[k];
      if (prop?.airbyte_secret === true && typeof v === 'string') out[k] = 'wrong-secret';
      else if (v && typeof v === 'object') out[k] = walk(v, prop ?? {});
    }
    return out;
  };
  return walk(config, schema);
}

if (args.includes('--demo')) {
  const { startDemoApi } = await tsImport('../../demo/api/server.ts', import.meta.url);
  const dir = 'demo/workspace';
  // Each side gets a demo API of its own: its OAuth refresh tokens are single-use.
  const sides = async (run) => {
    const api = await startDemoApi({ port: 0 });
    try {
      return await run(
        JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8').split('http://127.0.0.1:8787').join(api.url.replace(/\/$/, ''))),
      );
    } finally {
      await api.close();
    }
  };
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const manifest = parse(readFileSync(join(dir, file), 'utf8'));
    if (!manifest?.check) continue;
    const schema = manifest.spec?.connection_specification;
    await compare(`demo ${file}`, manifest, (config) => config, sides);
    await compare(`demo ${file} (wrong secrets)`, manifest, (config) => wrongSecrets(config, schema), sides);
  }
}

if (corpus) {
  // A fixed sample: every k-th manifest (by name) with a check component and no custom Python code.
  const eligible = readdirSync(corpus)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .filter((f) => {
      const text = readFileSync(join(corpus, f), 'utf8');
      return /^check:/m.test(text) && !/type:\s*Custom/.test(text) && !/AsyncRetriever/.test(text);
    });
  const step = Math.max(1, Math.floor(eligible.length / count));
  const sample = eligible.filter((_, i) => i % step === 0).slice(0, count);
  for (const file of sample) {
    const manifest = parse(readFileSync(join(corpus, file), 'utf8'), { maxAliasCount: 1000, uniqueKeys: false });
    const api = await startSyntheticApi();
    try {
      const rewritten = rewriteUrls(manifest, api.port);
      const resolved = runtime.resolveManifest(rewritten).value;
      const made = alignConfigUrls(
        alignConfigDates(rewriteUrls(sampleConfig(resolved?.spec?.connection_specification, api.port), api.port), resolved, formatDate),
        resolved,
        api.port,
      );
      const config = alignConfigStart(made, resolved, (step) => evalString(step, made, {}));
      api.configure(resolved, config);
      // One synthesized API serves both sides (it keeps no state between requests).
      await compare(
        `corpus ${basename(file, '.yaml')}`,
        rewritten,
        (c) => c,
        (run) => run(config),
      );
    } finally {
      await api.close();
    }
  }
}

rmSync(tmp, { recursive: true, force: true });
const same = results.filter((r) => r.same).length;
console.log(`\ncheck: ${same} of ${results.length} cases give the reference's status and message`);
if (reportFile)
  writeFileSync(reportFile, JSON.stringify({ date: new Date().toISOString(), same, total: results.length, results }, null, 1));
process.exit(same === results.length ? 0 : 1);

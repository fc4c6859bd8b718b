// Builds every authenticator and every declarative OAuth consent URL found in a directory of real
// manifests (default ../shared/corpus/manifests) with the bundled runtime, and prints what built and
// why the rest did not, grouped. Usage: npm run build && node scripts/authCorpus.mjs [dir]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
const runtime = require('../out/runtime.js');
const dir = process.argv[2] ?? '../shared/corpus/manifests';
if (!existsSync(dir)) {
  console.log(`auth corpus: ${dir} not found, skipped`);
  process.exit(0);
}

const AUTH_TYPES = new Set([
  'NoAuth',
  'BasicHttpAuthenticator',
  'BearerAuthenticator',
  'ApiKeyAuthenticator',
  'JwtAuthenticator',
  'OAuthAuthenticator',
  'SessionTokenAuthenticator',
  'LegacySessionTokenAuthenticator',
  'SelectiveAuthenticator',
  'CustomAuthenticator',
  'RateLimitedMultipleTokenAuthenticator',
]);

/** Every distinct authenticator object under an `authenticator` key (after reference resolution). */
function findAuthenticators(node, out, seen = new Set()) {
  if (!node || typeof node !== 'object' || seen.has(node)) return out;
  seen.add(node);
  if (Array.isArray(node)) node.forEach((n) => findAuthenticators(n, out, seen));
  else
    for (const [k, v] of Object.entries(node)) {
      if (k === 'authenticator' && v && typeof v === 'object' && AUTH_TYPES.has(v.type)) out.push(v);
      findAuthenticators(v, out, seen);
    }
  return out;
}

const byType = new Map();
const failures = new Map();
const consent = { total: 0, ok: 0, errors: new Map() };
const unexpected = [];
const unreadable = [];
const setPath = (root, path, value) => {
  let cur = root;
  path.forEach((k, i) => (i === path.length - 1 ? (cur[k] = value) : (cur = cur[k] ??= {})));
  return root;
};
const bump = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
const started = process.hrtime.bigint();
let files = 0;
for (const name of readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()) {
  files++;
  let manifest;
  try {
    // Duplicate keys are tolerated (last one wins), as PyYAML does for the reference.
    manifest = runtime.resolveManifest(parse(readFileSync(join(dir, name), 'utf8'), { uniqueKeys: false })).value;
  } catch (err) {
    unreadable.push(`${name}: ${String(err.message).split('\n')[0]}`);
    continue;
  }
  const unique = new Map(findAuthenticators(manifest, []).map((a) => [JSON.stringify(a), a]));
  for (const auth of unique.values()) {
    const stats = byType.get(auth.type) ?? { total: 0, built: 0 };
    byType.set(auth.type, stats);
    stats.total++;
    // A SelectiveAuthenticator needs the config value it selects by: try every listed choice.
    const configs =
      auth.type === 'SelectiveAuthenticator' && Array.isArray(auth.authenticator_selection_path) && auth.authenticators
        ? Object.keys(auth.authenticators).map((key) => setPath({}, auth.authenticator_selection_path, key))
        : [{}];
    let ok = true;
    for (const config of configs) {
      try {
        runtime.createAuthenticator(structuredClone(auth), config, { urlBase: 'https://api.example.com/' });
      } catch (err) {
        ok = false;
        const msg = String(err.message);
        bump(failures, `${auth.type}: ${msg.replace(/\([^)]*\)|'[^']*'|"[^"]*"|\[[^\]]*\]/g, '…').slice(0, 110)}`);
        if (!/runs only in the Python CDK/.test(msg)) unexpected.push(`${name}: ${msg.slice(0, 160)}`);
      }
    }
    if (ok) stats.built++;
  }
  const advanced = manifest?.spec?.advanced_auth?.oauth_config_specification?.oauth_connector_input_specification;
  if (advanced) {
    consent.total++;
    try {
      runtime.buildOAuthConsentUrl(manifest, {
        client_id: 'cid',
        redirect_uri: 'https://localhost/cb',
        subdomain: 'demo',
        domain: 'example.com',
      });
      consent.ok++;
    } catch (err) {
      bump(consent.errors, String(err.message).slice(0, 140));
    }
  }
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
console.log(`auth corpus: ${files} manifests in ${ms.toFixed(0)} ms (${unreadable.length} not readable)`);
for (const line of unreadable) console.log(`    ${line}`);
for (const [type, s] of [...byType].sort((a, b) => b[1].total - a[1].total))
  console.log(`  ${type.padEnd(36)} ${s.built}/${s.total} built`);
console.log('  build failures, grouped:');
for (const [msg, n] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(4)}  ${msg}`);
console.log(`  unexpected failures (not CustomAuthenticator): ${unexpected.length}`);
for (const line of unexpected) console.log(`    ${line}`);
console.log(`  declarative OAuth consent URLs: ${consent.ok}/${consent.total} rendered`);
for (const [msg, n] of [...consent.errors].sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(4)}  ${msg}`);

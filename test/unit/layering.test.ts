import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { importCircles, importGraph, layerOf, upwardImports } from './importGraph';

const ROOT = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

test('the runtime imports neither vscode nor the language server, nor anything outside runtime/', () => {
  const runtimeDir = join(ROOT, 'server', 'src', 'runtime');
  const offenders: string[] = [];
  for (const file of sources(runtimeDir)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1];
      const bad =
        spec === 'vscode' ||
        spec.startsWith('vscode-languageserver') ||
        (spec.startsWith('.') && !join(file, '..', spec).startsWith(runtimeDir));
      if (bad) offenders.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the client imports nothing from server/ except protocol.ts, the pure modules of runtime/shared/ and (outside the webview) the files policy of runtime/files/', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'client', 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from\s*['"]([^'"]+)['"]/g)) {
      // runtime/files/ is the Node-only files policy (docs/security.md "Files"): the extension host uses it, the webview never.
      const nodeOnly = /server\/src\/runtime\/files\/[A-Za-z]+$/.test(m[1]) && !file.includes(join('client', 'src', 'webview'));
      const allowed = m[1].endsWith('server/src/protocol') || /server\/src\/runtime\/shared\/[A-Za-z]+$/.test(m[1]) || nodeOnly;
      if (m[1].includes('/server/') && !allowed) offenders.push(`${relative(ROOT, file)} imports ${m[1]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

/** The code of a source file without its comments (so prose about "the connection" is not code). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

test('offsets become LSP positions only in server/src/convert.ts', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src'))) {
    if (file.endsWith(join('server', 'src', 'convert.ts'))) continue;
    const text = code(file);
    const patterns: Array<[RegExp, string]> = [
      [/\.(?:positionAt|offsetAt)\(/, 'converts offsets and positions'],
      [/\.(?:start|end|position)\.(?:line|character)\b/, 'reads a line or character of a position'],
      [/\{\s*line:\s*[^,}]+,\s*character:/, 'builds a position'],
    ];
    for (const [pattern, what] of patterns) if (pattern.test(text)) offenders.push(`${relative(ROOT, file)} ${what}`);
  }
  assert.deepEqual(offenders, []);
});

test('only languageServer.ts and the entry server.ts touch the connection; handlers and features never take it', () => {
  const allowed = new Set([join('server', 'src', 'languageServer.ts'), join('server', 'src', 'server.ts')]);
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src'))) {
    const rel = relative(ROOT, file);
    // The runtime cannot import the protocol library at all (first test); its `connection` words are config keys.
    if (allowed.has(rel) || rel.startsWith(join('server', 'src', 'runtime'))) continue;
    const text = code(file);
    if (/\bConnection\b/.test(text) || /\bconnection\s*[.:,)]/.test(text) || /\bcreateConnection\b/.test(text)) offenders.push(rel);
  }
  assert.deepEqual(offenders, []);
});

test('runtime/shared/ modules import nothing but each other (the client bundles them)', () => {
  const offenders: string[] = [];
  for (const file of sources(join(ROOT, 'server', 'src', 'runtime', 'shared'))) {
    const text = readFileSync(file, 'utf8');
    // Another module of shared/ is pure too (shared/safeObject.ts, the own-key helpers), so it may be imported.
    for (const m of text.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g))
      if (!/^\.\/[A-Za-z]+$/.test(m[1])) offenders.push(`${relative(ROOT, file)} imports ${m[1]}`);
  }
  assert.deepEqual(offenders, []);
});

// ---- The import graph (test/unit/importGraph.ts: every import, `import type` included) ----

const R = 'server/src/runtime/';
/**
 * The layers of the product, from the bottom up: a module imports only from its own layer or the
 * ones below. A folder ends with `/`; a file named here belongs to that layer whatever its folder
 * (the longest match wins), for the few pure modules a lower layer needs. ARCHITECTURE.md draws this.
 */
const LAYERS: string[][] = [
  // The runtime (server/src/runtime/): pure modules the client may share, then the base every module uses.
  [`${R}shared/`],
  [
    `${R}types.ts`,
    `${R}errors.ts`,
    `${R}problems.ts`,
    `${R}safePath.ts`,
    `${R}pythonText.ts`,
    `${R}suggest.ts`,
    `${R}files/`,
    `${R}schema/versions.ts`,
    `${R}records/streamSlice.ts`,
    `${R}testRead/masking.ts`,
  ],
  [`${R}interpolation/`],
  // The component catalog; the manifest's parse and resolution (which insert the catalog's default types);
  // the schema pass over a resolved manifest; then the rules, and validation, which coordinates them all.
  [`${R}schema/`],
  [`${R}manifest/`],
  [`${R}schema/validate.ts`, `${R}schema/errors.ts`],
  [`${R}http/`],
  [`${R}records/`],
  [`${R}rules/`],
  [`${R}validation/`],
  // Components that run: authenticators and paginators, then the reads built from them.
  [`${R}auth/`, `${R}pagination/`],
  [`${R}oauth/`, `${R}config/`],
  [`${R}testRead/`],
  [`${R}check/`, `${R}cassette/`, `${R}incremental/`],
  [`${R}allStreams/`],
  // Scaffolding reads API descriptions and requests into new manifests (it validates what it writes).
  [`${R}scaffold/`],
  [`${R}cli/`],
  [`${R}index.ts`, `${R}cli.ts`],
  // The language server (server/src/): the messages, the model, the document, features, handlers, the connection.
  [
    'server/src/configPayload.ts',
    'server/src/protocol.ts',
    'server/src/incrementalProtocol.ts',
    'server/src/scaffoldProtocol.ts',
    'server/src/sealKey.ts',
    'server/src/longLines.ts',
    'server/src/convert.ts',
    'server/src/readBounds.ts',
    'server/src/inferredSchemaEdit.ts',
  ],
  ['server/src/model/'],
  ['server/src/documents.ts', 'server/src/documentValidation.ts'],
  ['server/src/cdkEngine/', 'server/src/readHistory.ts'],
  ['server/src/captured/'],
  ['server/src/features/'],
  ['server/src/'],
  ['server/src/warmUp.ts', 'server/src/languageServer.ts'],
  ['server/src/server.ts', 'server/src/cli.ts'],
  // The extension (client/src/): pure logic shared with the pages, the pages, the panels, the commands, activation.
  ['client/src/', 'client/src/incremental/stateFormModel.ts'],
  ['client/src/webview/'],
  ['client/src/views/'],
  [
    'client/src/commands/',
    'client/src/incremental/',
    'client/src/cassetteLens.ts',
    'client/src/lensCommands.ts',
    'client/src/languageClient.ts',
  ],
  ['client/src/extension.ts'],
];

/** Imports allowed to run back up (at most 2), each with the reason it stays. */
const UPWARD_ALLOWED: string[] = [];

test('no import circles in server/src and client/src (type imports included)', () => {
  assert.deepEqual(importCircles(importGraph()), []);
});

test('every product module has a layer, and imports run down the layers (at most 2 allowed exceptions)', () => {
  const graph = importGraph();
  assert.deepEqual(
    graph.files.filter((f) => layerOf(LAYERS, f) < 0),
    [],
    'modules without a layer: add them to LAYERS',
  );
  assert.ok(UPWARD_ALLOWED.length <= 2);
  assert.deepEqual(
    upwardImports(graph, LAYERS).filter((i) => !UPWARD_ALLOWED.includes(i)),
    [],
  );
});

test('the language server imports the runtime only through its entry, runtime/index.ts', () => {
  const graph = importGraph();
  const offenders: string[] = [];
  for (const [file, targets] of graph.imports) {
    if (file.startsWith(R) || !file.startsWith('server/src/')) continue;
    for (const t of targets) if (t.startsWith(R) && t !== `${R}index.ts`) offenders.push(`${file} -> ${t}`);
  }
  assert.deepEqual(offenders, []);
});

test('validation coordinates the rules from above: no rule, schema or manifest module imports validation/', () => {
  const graph = importGraph();
  const offenders: string[] = [];
  for (const [file, targets] of graph.imports) {
    if (!/^server\/src\/runtime\/(rules|schema|manifest)\//.test(file)) continue;
    for (const t of targets) if (t.startsWith(`${R}validation/`)) offenders.push(`${file} -> ${t}`);
  }
  assert.deepEqual(offenders, []);
});

test("features never write into another feature's cache: per-version derived data lives below features/", () => {
  // documentValidation.ts holds the validation and the resolved manifest of a version; a feature reads them.
  const graph = importGraph();
  const offenders: string[] = [];
  for (const [file, targets] of graph.imports) {
    if (!file.startsWith('server/src/captured/') && !file.startsWith('server/src/features/diagnostics.ts')) continue;
    for (const t of targets) if (t.startsWith('server/src/features/')) offenders.push(`${file} -> ${t}`);
  }
  assert.deepEqual(offenders, []);
});

test('every custom message is a typed RequestType or NotificationType of protocol.ts, sent and handled through it', () => {
  const offenders: string[] = [];
  for (const rel of ['server/src/protocol.ts', 'server/src/incrementalProtocol.ts']) {
    for (const m of code(join(ROOT, rel)).matchAll(/export const (\w+) = ['"]airbyte\//g))
      offenders.push(`${rel}: ${m[1]} is a bare method name`);
  }
  const graph = importGraph();
  for (const rel of graph.files) {
    if (rel.startsWith(R)) continue;
    const text = code(join(ROOT, rel));
    // A type argument or a method string pairs a method with its types by hand; the RequestType does it once.
    if (/\.(?:sendRequest|sendNotification|onRequest|onNotification)\s*</.test(text))
      offenders.push(`${rel} pairs a message with a type by hand`);
    if (/\.(?:sendRequest|sendNotification|onRequest|onNotification)\(\s*['"`]airbyte\//.test(text))
      offenders.push(`${rel} names a custom method as a string`);
  }
  assert.deepEqual(offenders, []);
});

test('panels and pages share one module of webview messages; pages never read a message untyped', () => {
  const offenders: string[] = [];
  for (const rel of importGraph(['client/src']).files) {
    const text = code(join(ROOT, rel));
    if (rel.startsWith('client/src/webview/')) {
      if (/e\.data as (?:Json|\{)/.test(text)) offenders.push(`${rel} reads a message untyped`);
      if (/acquireVsCodeApi\(\): \{/.test(text)) offenders.push(`${rel} declares its own untyped VS Code API`);
    }
    if (/onDidReceiveMessage\(\(m: \{/.test(text)) offenders.push(`${rel} declares a page's messages inline`);
  }
  assert.deepEqual(offenders, []);
});

test("comments cite the CDK's own sources or docs/, never specification files outside the repository", () => {
  const offenders: string[] = [];
  for (const rel of importGraph().files) {
    const text = readFileSync(join(ROOT, rel), 'utf8');
    if (/reference-(?:behaviour|incremental)\.md|runtime-api\.md|\.\.\/shared\/spec\//.test(text)) offenders.push(rel);
  }
  assert.deepEqual(offenders, []);
});

// ---- The walk of one edit, from didChange to the published diagnostics (ARCHITECTURE.md, "Data flow") ----

const S = 'server/src/';
/**
 * Every call on the way from `onDidChangeContent` to `sendDiagnostics`, caller → callee, with how the
 * caller reaches the callee: `import` (it imports the callee, or runtime/index.ts which re-exports it)
 * `held` (it holds the callee through a type it imports: `ParsedManifest.locator`), or `tree` (the
 * runtime's locator calls the tree it was given: the language server's model, which implements
 * LocatorTree). Returns are not calls. A climb is a call into a higher layer.
 */
const DID_CHANGE_TO_DIAGNOSTICS: [string, string, 'import' | 'held' | 'tree', string][] = [
  [`${S}languageServer.ts`, `${S}documents.ts`, 'import', 'the document of the new version'],
  [`${S}documents.ts`, `${S}model/manifestModel.ts`, 'import', "the model: unchanged blocks reused from the last version's"],
  [`${S}model/manifestModel.ts`, `${S}model/blockSplitter.ts`, 'import', 'the text split into blocks'],
  [`${S}model/manifestModel.ts`, `${S}model/leafParser.ts`, 'import', 'each changed block parsed'],
  [`${S}documents.ts`, `${R}manifest/locator/manifestLocator.ts`, 'import', "the version's one locator over the model"],
  [`${S}languageServer.ts`, `${S}features/diagnostics.ts`, 'import', 'the diagnostics of the version'],
  [`${S}features/diagnostics.ts`, `${S}documentValidation.ts`, 'import', 'the validation, run once per version'],
  [`${S}documentValidation.ts`, `${R}validation/validateManifest.ts`, 'import', 'the coordinator, above the rules it calls'],
  [`${R}validation/validateManifest.ts`, `${R}manifest/resolve.ts`, 'import', 'references, default types, $parameters'],
  [`${R}manifest/resolve.ts`, `${R}manifest/locator/manifestLocator.ts`, 'held', 'origins located through parsed.locator'],
  [`${R}validation/validateManifest.ts`, `${R}schema/validate.ts`, 'import', 'the schema pass'],
  [`${R}validation/validateManifest.ts`, `${R}rules/index.ts`, 'import', 'the semantic rules'],
  [`${R}validation/validateManifest.ts`, `${R}rules/templateRules.ts`, 'import', 'the template rules'],
  [`${R}rules/templateRules.ts`, `${R}rules/templateFields.ts`, 'import', 'the templates of the manifest'],
  [`${R}validation/validateManifest.ts`, `${R}manifest/locator/manifestLocator.ts`, 'held', 'problems located through parsed.locator'],
  [`${R}manifest/locator/manifestLocator.ts`, `${S}model/manifestModel.ts`, 'tree', 'the locator asks the model, per block'],
  [`${S}features/diagnostics.ts`, `${S}convert.ts`, 'import', 'offsets to LSP ranges'],
];

test('didChange → published diagnostics: every call is an import or the locator asking its tree, and it climbs back up at most 3 times', () => {
  const graph = importGraph();
  const index = `${R}index.ts`;
  const reaches = (from: string, to: string) =>
    graph.imports.get(from)?.has(to) || (graph.imports.get(from)?.has(index) && graph.imports.get(index)?.has(to));
  const wrong: string[] = [];
  for (const [from, to, how] of DID_CHANGE_TO_DIAGNOSTICS) {
    for (const f of [from, to]) if (!graph.files.includes(f)) wrong.push(`${f} does not exist`);
    if (how === 'import' && !reaches(from, to)) wrong.push(`${from} does not import ${to}`);
    const holds = [...(graph.imports.get(from) ?? [])].some((m) => graph.imports.get(m)?.has(to));
    if (how === 'held' && !holds) wrong.push(`${from} imports no module that imports ${to}`);
    if (how === 'tree') {
      // The callee implements the interface the caller declares, and the caller never imports it.
      if (!/implements LocatorTree\b/.test(readFileSync(join(ROOT, to), 'utf8'))) wrong.push(`${to} does not implement LocatorTree`);
      if (!/export interface LocatorTree\b/.test(readFileSync(join(ROOT, from), 'utf8')))
        wrong.push(`${from} does not declare LocatorTree`);
      if (reaches(from, to)) wrong.push(`${from} imports ${to}`);
    }
  }
  assert.deepEqual(wrong, []);
  // The entry and the exit are the connection's handlers.
  const code = readFileSync(join(ROOT, `${S}languageServer.ts`), 'utf8');
  assert.match(code, /onDidChangeContent/);
  assert.match(code, /sendDiagnostics\(\{ uri, version: doc\.version, diagnostics \}\)/);
  const climbs = DID_CHANGE_TO_DIAGNOSTICS.filter(([from, to]) => layerOf(LAYERS, to) > layerOf(LAYERS, from));
  assert.deepEqual(
    climbs.map(([from, to]) => `${from} -> ${to}`),
    [`${R}manifest/locator/manifestLocator.ts -> ${S}model/manifestModel.ts`],
    'the climbs back up (ARCHITECTURE.md counts them)',
  );
  assert.ok(climbs.length <= 3);
});

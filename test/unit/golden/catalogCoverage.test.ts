// No silent pass: every component type the editor's catalog accepts either runs — a golden fixture
// recorded from the reference reads through it (test/fixtures/golden, test/fixtures/components), or a
// runtime test named below reads through it — or the editor marks it (runtime/schema/runnability.ts:
// not runnable in a test read, or no effect on one; Custom* are Python code). A type that is none of
// these fails here. Then the marks themselves: a located diagnostic, a read that stops with the reason,
// a lens that says why; and `validate`, `streams` and `read` agree about a ConditionalStreams stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rt = require(join(__dirname, '..', '..', '..', 'out', 'runtime.js'));
const repo = join(__dirname, '..', '..', '..');
const fixtures = join(repo, 'test', 'fixtures');

// Types read through by runtime tests that build them and serve HTTP on 127.0.0.1 (not by a golden).
const EXERCISED_BY: Record<string, string> = {
  StateDelegatingStream: 'test/unit/testRead/incremental.test.ts',
  IncrementingCountCursor: 'test/unit/testRead/incremental.test.ts',
  AsyncJobStatusMap: 'test/unit/testRead/asyncRetriever.test.ts',
  RequestBodyPlainText: 'test/unit/http/requester.test.ts',
  RequestBodyJsonObject: 'test/unit/auth/sessionTokenAuthenticator.test.ts',
  JwtAuthenticator: 'test/unit/auth/jwtAuthenticator.test.ts',
  LegacySessionTokenAuthenticator: 'test/unit/auth/sessionTokenAuthenticator.test.ts',
  RateLimitedMultipleTokenAuthenticator: 'test/unit/auth/sessionTokenAuthenticator.test.ts',
  PaginationReset: 'test/unit/testRead/paginationReset.test.ts',
  PaginationResetLimits: 'test/unit/testRead/paginationReset.test.ts',
  XmlDecoder: 'test/unit/testRead/xmlRead.test.ts',
  ZipfileDecoder: 'test/unit/testRead/zipRead.test.ts',
  GroupingPartitionRouter: 'test/unit/testRead/groupingPartitionRouter.test.ts',
  JsonFileSchemaLoader: 'test/fixtures/features/diagnostics/deprecated-only-where-written.case',
  DynamicSchemaLoader: 'test/unit/server/inferredSchemaEdit.test.ts',
  HttpComponentsResolver: 'test/unit/testRead/demoStreams.test.ts',
  ParametrizedComponentsResolver: 'test/unit/testRead/fidelity.test.ts',
  StreamParametersDefinition: 'test/unit/testRead/fidelity.test.ts',
};

function typesIn(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => typesIn(v, into));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.type === 'string') into.add(o.type);
    Object.values(o).forEach((v) => typesIn(v, into));
  }
}

/** The component types the golden fixtures read through (their manifests, resolved). */
function fixtureTypes(): Set<string> {
  const types = new Set<string>();
  for (const f of readdirSync(join(fixtures, 'golden')).filter((n) => n.endsWith('.json'))) {
    typesIn(rt.resolveManifest(JSON.parse(readFileSync(join(fixtures, 'golden', f), 'utf8')).manifest).value, types);
  }
  for (const f of readdirSync(join(fixtures, 'components')).filter((n) => n.endsWith('.case.yaml'))) {
    typesIn(rt.resolveManifest(parse(readFileSync(join(fixtures, 'components', f), 'utf8')).manifest).value, types);
  }
  return types;
}

test('every catalog component type is read through by a fixture, or marked by the editor', async () => {
  const { COMPONENT_RUNNABILITY } = await import('../../../server/src/runtime/schema/runnability');
  const read = fixtureTypes();
  const silent: string[] = [];
  const counts = { fixture: 0, runtimeTest: 0, marked: 0, custom: 0 };
  for (const c of rt.allComponents() as { type: string }[]) {
    const t = c.type;
    if (read.has(t)) counts.fixture++;
    else if (EXERCISED_BY[t]) {
      const file = join(repo, EXERCISED_BY[t]);
      assert.ok(
        existsSync(file) && new RegExp(`\\b${t}\\b`).test(readFileSync(file, 'utf8')),
        `${EXERCISED_BY[t]} should read through ${t}`,
      );
      counts.runtimeTest++;
    } else if (COMPONENT_RUNNABILITY[t]) counts.marked++;
    else if (t.startsWith('Custom')) counts.custom++;
    else silent.push(t);
  }
  assert.deepEqual(
    silent,
    [],
    `component types neither run by a fixture nor marked in runtime/schema/runnability.ts: ${silent.join(', ')}`,
  );
  assert.ok(counts.fixture >= 75, `fixtures read through ${counts.fixture} types`);
});

const manifestWith = (requesterExtra: string, streamExtra = '') => `version: 7.0.0
type: DeclarativeSource
check: {type: CheckStream, stream_names: [items]}
streams:
  - type: DeclarativeStream
    name: items
${streamExtra}    retriever:
      type: SimpleRetriever
      requester:
        type: HttpRequester
        url: http://127.0.0.1:9/items
${requesterExtra}      record_selector:
        type: RecordSelector
        extractor: {type: DpathExtractor, field_path: []}
`;

const snakeCaseAndFlatten = `    transformations:
      - type: KeysToSnakeCase
      - type: FlattenFields
`;

test('a not-runnable component: located warning, the read stops with the reason, the lens says why', async () => {
  const text = manifestWith('', snakeCaseAndFlatten);
  const problems = rt.validateManifest(rt.parseManifest(text)).filter((p: { code: string }) => p.code === 'not-runnable-in-test-read');
  assert.equal(problems.length, 2, JSON.stringify(problems));
  const first = problems[0];
  assert.equal(first.severity, 'warning');
  assert.match(first.message, /^Not runnable in a test read: KeysToSnakeCase/);
  // On the line of each component (its `type`), in document order.
  const lineOf = (p: { span: { start: number } }) => text.slice(0, p.span.start).split('\n').length;
  assert.equal(text.split('\n')[lineOf(first) - 1].trim(), '- type: KeysToSnakeCase');
  assert.equal(text.split('\n')[lineOf(problems[1]) - 1].trim(), '- type: FlattenFields');
  await assert.rejects(
    rt.testRead(parse(text), {}, 'items'),
    /Stream 'items' is not runnable in a test read: KeysToSnakeCase .* \(KeysToSnakeCase at transformations\.0\)/,
  );
  // The "Run stream" lens of the stream says why instead of running it.
  const { ManifestDocuments } = await import('../../../server/src/documents');
  const { provideCodeLenses } = await import('../../../server/src/features/codeLens');
  const { TextDocument } = await import('vscode-languageserver-textdocument');
  const lenses = provideCodeLenses(new ManifestDocuments().get(TextDocument.create('file:///m.yaml', 'yaml', 1, text)));
  const titles = lenses.map((l) => l.command?.title);
  assert.ok(titles.includes('⊘ Not runnable in a test read: KeysToSnakeCase (see the warning on it)'), JSON.stringify(titles));
  assert.ok(!titles.some((t) => t?.startsWith('▶ Run stream')), JSON.stringify(titles));
});

test('a component with no effect on a test read: an information note, and the read runs', () => {
  const text = `concurrency_level:\n  type: ConcurrencyLevel\n  default_concurrency: 2\n${manifestWith('')}`;
  const notes = rt.validateManifest(rt.parseManifest(text)).filter((p: { code: string }) => p.code === 'not-runnable-in-test-read');
  assert.equal(notes.length, 1);
  assert.equal(notes[0].severity, 'information');
  assert.match(notes[0].message, /ConcurrencyLevel has no effect on a test read: a test read runs one worker/);
});

test('the components of issue 20 that run now get no mark: QueryProperties, UnionPartitionRouter, file_uploader, api_budget, api_retention_period', async () => {
  const { ManifestDocuments } = await import('../../../server/src/documents');
  const { provideCodeLenses } = await import('../../../server/src/features/codeLens');
  const { TextDocument } = await import('vscode-languageserver-textdocument');
  const { stringify } = require('yaml');
  const marked = (text: string) =>
    rt.validateManifest(rt.parseManifest(text)).filter((p: { code: string }) => p.code === 'not-runnable-in-test-read');
  for (const file of [
    'query-properties-chunked',
    'query-properties-from-endpoint',
    'union-partition-router',
    'file-uploader',
    'api-budget-policies',
    'state-delegating-retention-expired',
  ]) {
    const spec = parse(readFileSync(join(fixtures, 'components', `${file}.case.yaml`), 'utf8'));
    const text = stringify(spec.manifest);
    assert.deepEqual(marked(text), [], file);
    // The stream's lens runs it.
    const titles = provideCodeLenses(new ManifestDocuments().get(TextDocument.create(`file:///${file}.yaml`, 'yaml', 1, text))).map(
      (l) => l.command?.title,
    );
    assert.ok(titles.includes(`▶ Run stream ${spec.stream}`), `${file}: ${JSON.stringify(titles)}`);
  }
});

test('validate, streams and read agree about a stream of a false ConditionalStreams entry', () => {
  const spec = parse(readFileSync(join(fixtures, 'components', 'conditional-streams.case.yaml'), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'conditional-'));
  const manifestFile = join(dir, 'manifest.yaml');
  const configFile = join(dir, 'config.json');
  const { stringify } = require('yaml');
  writeFileSync(manifestFile, stringify(JSON.parse(JSON.stringify(spec.manifest).split('{{ORIGIN}}').join('http://127.0.0.1:9'))));
  writeFileSync(configFile, JSON.stringify(spec.config));
  const cli = join(repo, 'out', 'cli.js');
  const validate = spawnSync(process.execPath, [cli, 'validate', manifestFile, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(validate.status, 0, validate.stdout + validate.stderr);
  const streams = spawnSync(process.execPath, [cli, 'streams', manifestFile, '--config', configFile, '--format', 'json'], {
    encoding: 'utf8',
  });
  assert.equal(streams.status, 0, streams.stderr);
  assert.deepEqual(
    JSON.parse(streams.stdout).map((s: { name: string }) => s.name),
    ['invoices'],
  );
  // The stream left out gets a located reason: the line of its entry's condition.
  const line =
    readFileSync(manifestFile, 'utf8')
      .split('\n')
      .findIndex((l) => l.includes("config.region == 'us'")) + 1;
  assert.match(
    streams.stderr,
    new RegExp(
      `streams: .*manifest\\.yaml:${line}:\\d+: note: stream 'audit' is not listed: its ConditionalStreams condition .* is false for this config`,
    ),
  );
  const read = spawnSync(process.execPath, [cli, 'read', manifestFile, '--stream', 'audit', '--config', configFile, '--format', 'json'], {
    encoding: 'utf8',
  });
  const result = JSON.parse(read.stdout);
  assert.match(
    result.logs.find((l: { level: string }) => l.level === 'ERROR').message,
    /inside ConditionalStreams \(streams\[1\]\) whose condition .* is false for this config/,
  );
  execFileSync('rm', ['-rf', dir]);
});

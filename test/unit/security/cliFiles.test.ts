// The files policy and terminal-safe output through the built CLI (docs/security.md, "Files" and
// "Terminal-safe output"): a repository whose cassettes/ or config.json are symbolic links cannot make
// `test --update` or `read --record` overwrite a file elsewhere, nor `read`/`test` read another
// project's file; `/dev/zero` as a cassette fails at once at the 8 MiB cap; `test` and `streams` print
// stream names, record keys and API error bodies with control characters escaped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordRead } from '../../../server/src/runtime/cassette/cassetteRead';
import { formatCassette } from '../../../server/src/runtime/cassette/cassette';
import { cassetteFileNames } from '../../../server/src/runtime/shared/cassetteFiles';
import { parse } from 'yaml';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'out/cli.js');
let dir: string;
let repo: string;
let outside: string;
let server: Server;
let base = '';
/** Stream names, record keys and error bodies the API sends: OSC title, screen clear, hyperlink, bidi override. */
const EVIL = '\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://evil.invalid\x07link\u202e';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
  repo = join(dir, 'repo');
  outside = join(dir, 'other-project');
  mkdirSync(join(repo, 'cassettes'), { recursive: true });
  mkdirSync(join(outside, 'secrets'), { recursive: true });
  writeFileSync(join(outside, 'secrets', 'config.json'), '{"api_key":"other-project-secret"}');
  writeFileSync(join(outside, 'victim.txt'), 'precious\n');
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/fail')) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: `bad ${EVIL}` }));
      return;
    }
    res.end(JSON.stringify({ data: [{ id: 1, [`key${EVIL}`]: `value${EVIL}` }], names: [{ name: `dyn${EVIL}` }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], timeout = 20_000): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: repo, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const manifestText = (stream: string, path = '/items') => `
version: 6.0.0
type: DeclarativeSource
check: { type: CheckStream, stream_names: ["${stream}"] }
streams:
  - type: DeclarativeStream
    name: ${JSON.stringify(stream)}
    primary_key: [id]
    schema_loader: { type: InlineSchemaLoader, schema: {} }
    retriever:
      type: SimpleRetriever
      requester: { type: HttpRequester, url: "{{ config['base'] }}${path}", http_method: GET }
      record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [data] } }
`;

/** Writes manifest + a cassette recorded from the local API into the repo; returns the manifest path. */
async function repoWithCassette(name: string, stream: string, path = '/items'): Promise<string> {
  const file = join(repo, `${name}.yaml`);
  writeFileSync(file, manifestText(stream, path));
  const { cassette } = await recordRead(parse(manifestText(stream, path)) as object, { base }, stream);
  writeFileSync(join(repo, 'cassettes', cassetteFileNames(stream).cassette), formatCassette(cassette));
  return file;
}

test('test --update refuses to write an expectation through a symbolic link committed in cassettes/; the file elsewhere is untouched', async () => {
  const manifest = await repoWithCassette('linked', 'linked');
  const expectation = join(repo, 'cassettes', cassetteFileNames('linked').expectation);
  symlinkSync(join(outside, 'victim.txt'), expectation);
  const r = await run(['test', manifest, '--cassettes', 'cassettes', '--update']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /the expectation .*linked\.expected\.json is a symbolic link \(to .*victim\.txt\); not written through it/);
  assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'precious\n');
  assert.ok(lstatSync(expectation).isSymbolicLink());
  rmSync(expectation);
});

test('read --record refuses a cassette path that is a symbolic link before reading anything', async () => {
  writeFileSync(join(repo, 'rec.yaml'), manifestText('rec'));
  writeFileSync(join(repo, 'config.json'), JSON.stringify({ base }));
  symlinkSync(join(outside, 'victim.txt'), join(repo, 'cassettes', 'rec.cassette.yaml'));
  const r = await run(['read', 'rec.yaml', '--stream', 'rec', '--config', 'config.json', '--record', 'cassettes/rec.cassette.yaml']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /the cassette cassettes\/rec\.cassette\.yaml is a symbolic link .*not written through it/);
  assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'precious\n');
});

test('a config.json linked to another project is refused by read, streams and test, saying why', async () => {
  writeFileSync(join(repo, 'cfg.yaml'), manifestText('cfg'));
  symlinkSync(join(outside, 'secrets', 'config.json'), join(repo, 'linked-config.json'));
  for (const args of [
    ['read', 'cfg.yaml', '--stream', 'cfg', '--config', 'linked-config.json'],
    ['streams', 'cfg.yaml', '--config', 'linked-config.json'],
    ['test', 'cfg.yaml', '--cassettes', 'cassettes', '--config', 'linked-config.json'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /the config linked-config\.json is a symbolic link to .*other-project\/secrets\/config\.json, outside the manifest's folder; not followed/,
      args[0],
    );
    assert.doesNotMatch(r.stdout + r.stderr, /other-project-secret/);
  }
});

test('a cassette that is /dev/zero fails at once at the 8 MiB cap (read --replay and test), or as a link leaving the folder', async () => {
  writeFileSync(join(repo, 'zero.yaml'), manifestText('zero'));
  const direct = await run(['read', 'zero.yaml', '--stream', 'zero', '--replay', '/dev/zero']);
  assert.equal(direct.code, 2);
  assert.match(direct.stderr, /the cassette \/dev\/zero is larger than 8388608 bytes; not read/);
  symlinkSync('/dev/zero', join(repo, 'cassettes', cassetteFileNames('zero').cassette));
  const linked = await run(['test', 'zero.yaml', '--cassettes', 'cassettes']);
  assert.equal(linked.code, 2);
  assert.match(
    linked.stderr,
    /the cassette cassettes\/zero\.cassette\.yaml is a symbolic link to \/dev\/zero, outside the manifest's folder; not followed/,
  );
  // Inside the folder, a FIFO or device still stops at the cap: a link to a large file in the tree.
  writeFileSync(join(repo, 'big.bin'), Buffer.alloc(9 * 1024 * 1024, 0x61));
  rmSync(join(repo, 'cassettes', cassetteFileNames('zero').cassette));
  symlinkSync(join(repo, 'big.bin'), join(repo, 'cassettes', cassetteFileNames('zero').cassette));
  const big = await run(['test', 'zero.yaml', '--cassettes', 'cassettes']);
  assert.equal(big.code, 2);
  assert.match(big.stderr, /is larger than 8388608 bytes; not read/);
  rmSync(join(repo, 'cassettes', cassetteFileNames('zero').cassette));
});

test('test prints stream names, record keys and API error bodies with control characters escaped', async () => {
  const stream = `s${EVIL}`;
  const manifest = await repoWithCassette('evil', stream);
  const update = await run(['test', manifest, '--cassettes', 'cassettes', '--stream', stream, '--update']);
  assert.equal(update.code, 0, update.stderr);
  // The expectation now disagrees with the cassette: the diff names the record key and values.
  const expectationFile = join(repo, 'cassettes', cassetteFileNames(stream).expectation);
  const expectation = JSON.parse(readFileSync(expectationFile, 'utf8')) as { records: Record<string, unknown>[] };
  expectation.records[0][`key${EVIL}`] = `changed${EVIL}`;
  writeFileSync(expectationFile, JSON.stringify(expectation));
  const diff = await run(['test', manifest, '--cassettes', 'cassettes', '--stream', stream]);
  assert.equal(diff.code, 1, diff.stderr);
  const failing = await repoWithCassette('failing', `f${EVIL}`, '/fail');
  const failed = await run(['test', failing, '--cassettes', 'cassettes', '--stream', `f${EVIL}`]);
  assert.equal(failed.code, 1);
  for (const r of [update, diff, failed]) {
    const text = r.stdout + r.stderr;
    assert.doesNotMatch(text, /[\x1b\x07\u202e]/, text);
    assert.match(text, /\\x1b\]0;pwned\\x07/, 'the sequence is shown as text');
  }
  assert.match(diff.stdout, /key\\x1b/);
  // The error line is the reference's wording; the API's own body (with its escapes) stays in internal_message.
  assert.match(failed.stdout, /ERROR: HTTP Status Code: 400\./);
});

test('streams prints stream names from the manifest and from the API with control characters escaped', async () => {
  writeFileSync(
    join(repo, 'dyn.yaml'),
    `${manifestText(`static${EVIL}`)}
dynamic_streams:
  - type: DynamicDeclarativeStream
    stream_template:
      type: DeclarativeStream
      name: placeholder
      primary_key: []
      schema_loader: { type: InlineSchemaLoader, schema: {} }
      retriever:
        type: SimpleRetriever
        requester: { type: HttpRequester, url: "{{ config['base'] }}/items", http_method: GET }
        record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [data] } }
    components_resolver:
      type: HttpComponentsResolver
      retriever:
        type: SimpleRetriever
        requester: { type: HttpRequester, url: "{{ config['base'] }}/names", http_method: GET }
        record_selector: { type: RecordSelector, extractor: { type: DpathExtractor, field_path: [names] } }
      components_mapping:
        - type: ComponentMappingDefinition
          field_path: [name]
          value: "{{ components_values['name'] }}"
`,
  );
  writeFileSync(join(repo, 'dyn-config.json'), JSON.stringify({ base }));
  const r = await run(['streams', 'dyn.yaml', '--config', 'dyn-config.json']);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /[\x1b\x07\u202e]/);
  assert.match(r.stdout, /static\\x1b\]0;pwned\\x07/);
  assert.match(r.stdout, /dyn\\x1b\]0;pwned\\x07/);
});

test('read, streams and test refuse a manifest whose write path holds __proto__, at its line and column', async () => {
  writeFileSync(
    join(repo, 'proto.yaml'),
    `${manifestText('p')}    transformations:
      - type: AddFields
        fields: [{ type: AddedFieldDefinition, path: [__proto__, url_base], value: "http://evil.invalid" }]
`,
  );
  writeFileSync(join(repo, 'proto-config.json'), JSON.stringify({ base }));
  for (const args of [
    ['read', 'proto.yaml', '--stream', 'p', '--config', 'proto-config.json'],
    ['streams', 'proto.yaml'],
    ['test', 'proto.yaml', '--cassettes', 'cassettes'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /proto\.yaml:16:55: error: AddedFieldDefinition\.path: the path segment "__proto__" is not allowed/, args[0]);
  }
  assert.deepEqual(readdirSync(join(outside)).sort(), ['secrets', 'victim.txt']);
});

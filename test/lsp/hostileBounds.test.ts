// Bounds on hostile documents, over stdio against the real server: a manifest with 150,000 undefined
// names gets at most MAX_DIAGNOSTICS diagnostics plus one summary saying how many more, and the
// server keeps answering; a backtracking spec `pattern` is checked on RE2 and answers at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LspTestClient } from './lspClient';
import { MAX_DIAGNOSTICS } from '../../server/src/features/diagnostics';
import { TestReadRequest, type TestReadParams } from '../../server/src/protocol';

let client: LspTestClient;
before(async () => {
  client = await LspTestClient.start();
});
after(async () => {
  await client.stop();
});

/**
 * `templates` streams whose URL template reads `names` names no context provides. The defect had
 * 30 × 5,000 (600 KB, 78 s); bench/hostileDocuments.mjs times that one, the test uses 30 × 2,000.
 */
function undefinedNamesManifest(templates = 30, names = 2000): string {
  let text = 'version: 6.0.0\ntype: DeclarativeSource\ncheck: {type: CheckStream, stream_names: [s0]}\nstreams:\n';
  for (let t = 0; t < templates; t++) {
    const uses = Array.from({ length: names }, (_, i) => `u${t}_${i}`).join(',');
    text += `  - type: DeclarativeStream\n    name: s${t}\n    retriever:\n      type: SimpleRetriever\n      requester: {type: HttpRequester, url: "https://x.test/{{ [${uses}] }}"}\n      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}\n`;
  }
  return text;
}

test('60,000 undefined names: at most MAX_DIAGNOSTICS diagnostics and one summary with the count of the rest; the server still answers', async () => {
  const text = undefinedNamesManifest();
  assert.ok(text.length > 300_000, `${text.length}`);
  const uri = 'file:///w/bounds/undefined-names.yaml';
  // Generous: the bound is what is published; bench/lsp.mjs measures the time.
  const published = await client.open(uri, text, 1, 120_000);
  const diagnostics = published.diagnostics;
  assert.equal(diagnostics.length, MAX_DIAGNOSTICS + 1);
  const summary = diagnostics.filter((d) => d.code === 'too-many-problems');
  assert.equal(summary.length, 1);
  const more = Number(/^([\d,]+) more problems are not shown/.exec(String(summary[0].message))?.[1].replace(/,/g, ''));
  assert.ok(more + MAX_DIAGNOSTICS >= 60_000, String(summary[0].message));
  assert.deepEqual(summary[0].range.start, { line: 0, character: 0 });
  // The ones listed are the errors, each on the name it is about.
  const listed = diagnostics.filter((d) => d.code !== 'too-many-problems');
  assert.ok(listed.every((d) => d.severity === 1));
  assert.match(String(listed[0].message), /^'u0_0' is not available in HttpRequester\.url/);
  // The server answers the next request.
  const symbols = await client.symbols(uri);
  assert.ok(Array.isArray(symbols));
});

test('a document with fewer problems than the cap gets them all and no summary', async () => {
  const published = await client.open('file:///w/bounds/few.yaml', undefinedNamesManifest(2, 10), 1, 30_000);
  assert.equal(published.diagnostics.length, 20);
  assert.ok(!published.diagnostics.some((d) => d.code === 'too-many-problems'));
});

test("a backtracking spec pattern with a 40-character value answers at once (RE2), with the reference's message", async () => {
  const uri = 'file:///w/bounds/redos.yaml';
  const text = `version: 6.0.0
type: DeclarativeSource
check: {type: CheckStream, stream_names: [items]}
streams:
  - type: DeclarativeStream
    name: items
    retriever:
      type: SimpleRetriever
      requester: {type: HttpRequester, url: "http://127.0.0.1:9/items"}
      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}
spec:
  type: Spec
  connection_specification:
    type: object
    properties:
      account: {type: string, pattern: "^([a-zA-Z0-9_]+)*$"}
`;
  await client.open(uri, text);
  // On a backtracking engine this value takes hours (×4 per 2 more characters; 33 took 187 s).
  const value = `${'a'.repeat(40)}!`;
  const read = await client.request<{ logs: Array<{ level: string; message: string }> }>(TestReadRequest, {
    uri,
    streamName: 'items',
    config: { account: value },
    runId: 'redos',
  } satisfies TestReadParams);
  const error = read.logs.find((l) => l.level === 'ERROR');
  assert.ok(error, JSON.stringify(read.logs));
  assert.match(error!.message, /Config validation error: 'a{40}!' does not match '\^\(\[a-zA-Z0-9_\]\+\)\*\$'/);
  // The server keeps answering.
  const symbols = await client.symbols(uri);
  assert.ok(symbols.length > 0);
});

test('a 9.3 MB line is not analysed (one error on it) and does not hold up other requests', async () => {
  const small = 'file:///w/bounds/small.yaml';
  await client.open(small, undefinedNamesManifest(1, 3));
  const uri = 'file:///w/bounds/long-line.yaml';
  const text = `${undefinedNamesManifest(1, 1)}description: "${'a'.repeat(9_300_000)}"\nspec: {type: Spec, connection_specification: {type: object}}\n`;
  const published = client.open(uri, text, 1, 120_000);
  // Sent right behind the huge document: answered once that document has been read, which is now quick.
  const symbols = await client.symbols(small);
  assert.ok(symbols.length > 0);
  const diagnostics = (await published).diagnostics;
  const long = diagnostics.filter((d) => d.code === 'line-too-long');
  assert.equal(long.length, 1);
  assert.match(String(long[0].message), /^This line has 9,300,015 characters, more than the 100,000 the language server reads/);
  assert.equal(long[0].range.start.line, text.slice(0, text.indexOf('description:')).split('\n').length - 1);
  // The rest of the document is analysed as usual: the undefined name of its template is reported.
  assert.ok(diagnostics.some((d) => /'u0_0' is not available/.test(String(d.message))));
  // Symbols of the long document come from the rest of it.
  assert.ok((await client.symbols(uri)).length > 0);
});

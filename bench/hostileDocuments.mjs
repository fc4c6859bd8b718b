// Benchmark: hostile documents in the language server (out/server.js over stdio, as the editor runs
// it). (1) 30 templates × 5,000 undefined names (≈ 600 KB): time to diagnostics and how many are
// published. (2) A 9.3 MB line: time to its diagnostics, and how long a document-symbols request on a
// small document, sent right behind it, waits. (3) A test read whose spec `pattern` backtracks on
// JavaScript's engine (`^([a-zA-Z0-9_]+)*$`, 27-character value). Pass `--server <path>` to time
// another build (e.g. one made from an older commit) the same way.
// Usage: npm run build && node bench/hostileDocuments.mjs [--server path/to/server.js]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchClient } from './lspClient.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--server');
const server = at > 0 ? process.argv[at + 1] : join(root, 'out/server.js');

const head = 'version: 6.0.0\ntype: DeclarativeSource\ncheck: {type: CheckStream, stream_names: [s0]}\nstreams:\n';
function stream(t, url) {
  return `  - type: DeclarativeStream\n    name: s${t}\n    retriever:\n      type: SimpleRetriever\n      requester: {type: HttpRequester, url: "${url}"}\n      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}\n`;
}

const client = new BenchClient([process.execPath, server, '--stdio']);
await client.initialize();
console.log(`server: ${server}`);
try {
  // (1)
  let names = head;
  for (let t = 0; t < 30; t++)
    names += stream(t, `https://x.test/{{ [${Array.from({ length: 5000 }, (_, i) => `v${i.toString(36)}`).join(',')}] }}`);
  const [namesMs, namesDiagnostics] = await client.open('file:///bench/undefined-names.yaml', names);
  console.log(
    `30 × 5,000 undefined names (${(names.length / 1000).toFixed(0)} KB): diagnostics after ${(namesMs / 1000).toFixed(1)} s, ${namesDiagnostics.length} published`,
  );

  // (2) A quoted scalar and a flow mapping, each on one 9.3 MB line.
  await client.open('file:///bench/small.yaml', head + stream(0, 'https://x.test/'));
  const lines = {
    'a quoted scalar': `description: "${'a'.repeat(9_300_000)}"`,
    'a flow mapping': `extra: {${Array.from({ length: 930_000 }, (_, i) => `k${i}: 1`)
      .join(', ')
      .slice(0, 9_300_000)}}`,
  };
  for (const [what, line] of Object.entries(lines)) {
    const uri = `file:///bench/long-line-${what.replace(/\W+/g, '-')}.yaml`;
    const opening = client.open(uri, `${head}${stream(0, 'https://x.test/')}${line}\n`);
    const [symbolsMs] = await client.timed('textDocument/documentSymbol', { textDocument: { uri: 'file:///bench/small.yaml' } });
    const [longMs] = await opening;
    console.log(
      `a 9.3 MB line (${what}): diagnostics after ${(longMs / 1000).toFixed(1)} s; a symbols request on another document sent right behind it answered after ${(symbolsMs / 1000).toFixed(1)} s`,
    );
  }

  // (3)
  const redos = `${head}${stream(0, 'http://127.0.0.1:9/items')}spec:\n  type: Spec\n  connection_specification:\n    type: object\n    properties:\n      account: {type: string, pattern: "^([a-zA-Z0-9_]+)*$"}\n`;
  await client.open('file:///bench/redos.yaml', redos);
  const [redosMs] = await client.timed('airbyte/testRead', {
    uri: 'file:///bench/redos.yaml',
    streamName: 's0',
    config: { account: `${'a'.repeat(26)}!` },
    runId: 'bench',
  });
  console.log(`spec pattern ^([a-zA-Z0-9_]+)*$ on a 27-character value: the test read answered after ${(redosMs / 1000).toFixed(2)} s`);
} finally {
  await client.stop();
}

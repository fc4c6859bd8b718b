// One locator per document version (runtime/manifest/locator/manifestLocator.ts): the CLI's (over the whole `yaml`
// Document) and the language server's (over the incremental model, per block) give the same
// answers, line:col agrees with yaml's LineCounter, and no module outside the locator's own files
// reaches for a scanner of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseManifest } from '../../../server/src/runtime/manifest/parse';
import { ManifestDocument } from '../../../server/src/documents';
import { editedRegion, keyBeforeValue } from '../../../server/src/runtime/manifest/locator/lineText';

const repo = join(__dirname, '../../..');
const corpus = ['../shared', '../../shared'].map((p) => join(repo, p, 'corpus/manifests')).find((p) => existsSync(p)) ?? '';
const fixtures = join(repo, 'test/fixtures/manifests');

/** Every key path of the parsed document, with the offset of its key. */
function keyPaths(text: string): { path: (string | number)[]; key: number }[] {
  const out: { path: (string | number)[]; key: number }[] = [];
  const walk = (node: Node | null, path: (string | number)[]) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key) || !pair.key.range) continue;
        const p = [...path, String(pair.key.value)];
        out.push({ path: p, key: pair.key.range[0] });
        walk(pair.value as Node | null, p);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, [...path, i]));
  };
  walk(parseManifest(text).doc.contents as Node, []);
  return out;
}

function sampleTexts(): { name: string; text: string }[] {
  const read = (dir: string, names: string[]) => names.map((n) => ({ name: n, text: readFileSync(join(dir, n), 'utf8') }));
  // Without ../shared the fixtures below still check the claim.
  const names = corpus
    ? readdirSync(corpus)
        .filter((n) => n.endsWith('.yaml'))
        .sort()
        .filter((_, i) => i % 80 === 0)
    : [];
  const local = readdirSync(fixtures)
    .filter((n) => n.endsWith('.yaml'))
    .sort()
    .slice(0, 6);
  return [...read(corpus, names), ...read(fixtures, local)];
}

test('the CLI locator and the language server locator answer alike: path → span, offset → path, line:col', () => {
  let checked = 0;
  let headers = 0;
  for (const { name, text } of sampleTexts()) {
    const whole = parseManifest(text);
    if (whole.problems.some((p) => p.code === 'yaml-syntax')) continue;
    const server = new ManifestDocument(`file:///${name}`, 1, text, undefined).locator;
    const cli = whole.locator;
    const paths = keyPaths(text);
    for (const { path, key } of paths.filter((_, i) => i % 13 === 0)) {
      const a = cli.locate(path);
      const b = server.locate(path);
      assert.deepEqual(b?.keySpan, a?.keySpan, `${name}: key of ${JSON.stringify(path)}`);
      const [sa, ca] = [server.locateSource(path), cli.locateSource(path)];
      // FIXME(issue 22): a value the model reads as a whole block ends before its last line break,
      // the parser's after it; validation never underlines such a span (bench/lspModelConsistency.ts).
      assert.deepEqual(
        [sa.keySpan, sa.approximate, sa.span.start],
        [ca.keySpan, ca.approximate, ca.span.start],
        `${name}: source span of ${JSON.stringify(path)}`,
      );
      assert.ok(Math.abs(sa.span.end - ca.span.end) <= 2, `${name}: source span end of ${JSON.stringify(path)}`);
      // On the key itself both name the same path.
      const at = server.nodeAt(key + 1);
      if (at === null) {
        // FIXME(issue 22): the model answers null on the header key of a block it split into
        // children (`streams:`, a big definition); features then fall back to the cursor context.
        headers++;
      } else {
        assert.deepEqual(at.path, cli.nodeAt(key + 1)?.path, `${name}: path at ${key + 1}`);
        assert.equal(at.onKey, true, `${name}: on the key of ${JSON.stringify(path)}`);
      }
      const pos = whole.lineCounter.linePos(key);
      assert.deepEqual(cli.lineCol(key), { line: pos.line, col: pos.col });
      assert.deepEqual(server.lineCol(key), { line: pos.line, col: pos.col });
      assert.equal(server.lineStart(key), text.lastIndexOf('\n', key - 1) + 1);
      assert.deepEqual(server.contextAt(key), cli.contextAt(key));
      checked++;
    }
  }
  assert.ok(checked > 20, `only ${checked} paths checked`);
  assert.ok(headers < checked / 10, `${headers} of ${checked} keys are split-block headers`);
});

test('line helpers: CRLF line ends stay out of a line, the last line has no break, line:col is 1-based', () => {
  const text = 'a: 1\r\nbb: 2\n\nccc: 3';
  const locator = parseManifest(text).locator;
  assert.equal(locator.eol, '\r\n');
  assert.equal(locator.lineCount, 4);
  assert.deepEqual(locator.line(0), { start: 0, end: 4 });
  assert.deepEqual(locator.line(3), { start: 13, end: 19 });
  assert.equal(locator.lineEnd(text.indexOf('bb')), text.indexOf('bb') + 5);
  assert.deepEqual(locator.lineCol(text.indexOf('ccc') + 2), { line: 4, col: 3 });
  assert.equal(locator.column(text.indexOf('2')), 4);
  assert.equal(locator.lineIndex(text.indexOf('ccc')), 3);
  assert.equal(locator.topLevelKey('bb'), text.indexOf('bb'));
  assert.equal(locator.topLevelKey('zz'), undefined);
});

test('keyBeforeValue and editedRegion: the key before a value on its line; what two versions share', () => {
  assert.equal(keyBeforeValue('    url_base: '), 'url_base');
  assert.equal(keyBeforeValue('  - path:   '), 'path');
  assert.equal(keyBeforeValue(`  "a: {{ b }}": `), '"a: {{ b }}"');
  assert.equal(keyBeforeValue("  'it''s': "), "'it''s'");
  assert.equal(keyBeforeValue('  a:b: '), 'a:b');
  // Anything else before the value: a flow collection, a second key, a comment, two dashes.
  assert.equal(keyBeforeValue('  x: {a: '), null);
  assert.equal(keyBeforeValue('  a: b: '), null);
  assert.equal(keyBeforeValue('  - - a: '), null);
  assert.equal(keyBeforeValue('  # a: '), null);
  assert.equal(keyBeforeValue('  a:'), null);
  assert.deepEqual(editedRegion('abcdef', 'abXYef'), { prefix: 2, suffix: 2, delta: 0, oldLength: 6 });
  assert.deepEqual(editedRegion('aaaa', 'aaaaa'), { prefix: 4, suffix: 0, delta: 1, oldLength: 4 });
  const long = 'x'.repeat(10_000);
  assert.deepEqual(editedRegion(long + 'a' + long, long + long), { prefix: 10_000, suffix: 10_000, delta: -1, oldLength: 20_001 });
});

/** Code of a source file without its comments. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every `.ts` file under server/src, as a path relative to it. */
function serverSources(): { rel: string; source: string }[] {
  const out: { rel: string; source: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts'))
        out.push({ rel: relative(join(repo, 'server/src'), full).replace(/\\/g, '/'), source: code(readFileSync(full, 'utf8')) });
    }
  };
  walk(join(repo, 'server/src'));
  return out;
}

/** The locator module: the only place that reads a manifest's text line by line. */
const LOCATOR_MODULE = 'runtime/manifest/locator/';

/**
 * Files outside the locator module allowed a hand-written line scanner, each with the reason. Add to
 * it only for text that is not a manifest, or for the tree behind the locator.
 */
const SCANNERS_ALLOWED: Record<string, string> = {
  // The language server's incremental model is the tree behind its locator (ManifestModel implements
  // LocatorTree): its block split is the incremental parse itself (owned by the incremental validation).
  'model/blockSplitter.ts': 'the tree behind the locator: splits the text into blocks',
  'model/manifestModel.ts': 'the tree behind the locator: spans of whole blocks',
  // Runs before any locator exists: it makes the text the locator reads (overlong lines blanked).
  'longLines.ts': 'makes the analysed text the locator is built on',
  // FIXME(issue 22): validateManifest's firstLine should ask locator.lineEnd; left to the owner of validation this session.
  'runtime/validation/validateManifest.ts': "a problem span's first line",
  // Not a manifest: a cassette file and an API description report their own lines.
  'runtime/cassette/cassette.ts': 'a cassette file, not a manifest',
  'runtime/scaffold/openapi/loadOpenApi.ts': 'an API description, not a manifest',
  // A flow mapping's entry typed before the cursor (`{type: X, field_path: [`), not a line.
  'features/capturedCompletion.ts': "a flow mapping's entry before the cursor, not a line",
};

/** Hand-written answers to "where does this line start or end", "how deep is it", "is it a key", "which line:col". */
const SCANNER_PATTERNS: [RegExp, string][] = [
  [/(?:lastIndexOf|indexOf)\(\s*['"]\\n['"]/, 'finds a line break by hand (lineStartIn / lineEndIn / nextLineStart)'],
  [/\.length\s*-\s*[\w.]+\.trimStart\(\)\.length/, 'counts indentation by hand (indentOf)'],
  // Anchored at a line's start, leading blanks, then a colon that is not a group's `(?:`.
  [/\/\^\(?(?:\\s|\[ \\t\]|\[ \]| )\*[^/\n]*?(?<!\(\?):/, 'recognises a key line with a regular expression (keyLine)'],
  [/RegExp\(\s*`\^(?:\\\\s|\[ \\\\t\]| )\*[^`]*?(?<!\(\?):/, 'recognises a key line with a regular expression (keyLine)'],
  [/\/\^ \*\/|\/\^\[ \]\*\/|\/\^\( \*\)/, 'reads indentation with a regular expression (spaceIndentOf)'],
  [/\.linePos\(/, 'converts an offset to line:col outside the locator (locator.lineCol)'],
];

test("no hand-written line scanner outside the locator module: every line, indent, key-line and line:col answer is the locator's", () => {
  const offenders: string[] = [];
  const seen = new Set<string>();
  for (const { rel, source } of serverSources()) {
    if (rel.startsWith(LOCATOR_MODULE)) continue;
    for (const [pattern, what] of SCANNER_PATTERNS) {
      if (!pattern.test(source)) continue;
      if (rel in SCANNERS_ALLOWED) seen.add(rel);
      else offenders.push(`${rel} ${what}`);
    }
  }
  assert.deepEqual(offenders, []);
  // An allowance nobody needs any more goes.
  assert.deepEqual(
    Object.keys(SCANNERS_ALLOWED).filter((f) => !seen.has(f)),
    [],
    'allowed scanners that no longer scan: remove them from SCANNERS_ALLOWED',
  );
});

test('the scanner check catches the scanners it names (each pattern fires on a sample)', () => {
  const samples = [
    "const start = text.lastIndexOf('\\n', offset - 1) + 1;",
    'const indent = line.length - line.trimStart().length;',
    'const m = /^(\\s*(?:- )?)(request_body_json):(?:[ ]+(.*))?$/.exec(line);',
    'const m = new RegExp(`^\\\\s*(?:- )?${key}:[ ]+(.*)$`).exec(line);',
    'const indent = /^ */.exec(l)![0].length;',
    'const pos = lineCounter.linePos(offset);',
  ];
  SCANNER_PATTERNS.forEach(([pattern], i) => assert.ok(pattern.test(samples[i]), `pattern ${i} misses ${samples[i]}`));
});

test('the finders the locator answers are called only inside the locator module and the model behind it', () => {
  const owners = new Set(['runtime/manifest/parse.ts', 'runtime/manifest/resolve.ts', 'model/manifestModel.ts', 'model/leafParser.ts']);
  const offenders: string[] = [];
  for (const { rel, source } of serverSources()) {
    if (rel.startsWith(LOCATOR_MODULE) || owners.has(rel)) continue;
    for (const finder of [
      'quickLocatorFor(',
      'quickScalar(this',
      'cursorContextAt(',
      'locateSourcePath(',
      'findSourceNode(doc',
      'scalarOffsets(text',
      'model.locate(',
      'model.nodeAt(',
      '.getIn(',
    ]) {
      if (source.includes(finder)) offenders.push(`${rel}: ${finder}`);
    }
  }
  // The scaffolds, and the write of an inferred schema, edit YAML through a `yaml` Document of the text
  // they change (an edit needs the whole Document), not through a manifest version's locator.
  assert.deepEqual(
    offenders.filter((o) => !o.startsWith('runtime/scaffold/') && !o.startsWith('inferredSchemaEdit.ts')),
    [],
  );
});

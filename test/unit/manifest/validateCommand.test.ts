import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { validateCommand } from '../../../server/src/runtime/cli/validateCommand';
import { FIXTURES } from '../schema/helpers';

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    stream,
    get text() {
      return text;
    },
  };
}

function run(args: string[]) {
  const out = sink();
  const err = sink();
  const code = validateCommand(args, out.stream, err.stream);
  return { code, out: out.text, err: err.text };
}

const dir = mkdtempSync(join(tmpdir(), 'validate-cli-'));
const broken = join(dir, 'broken.yaml');
writeFileSync(
  broken,
  'version: 6.0.0\ntype: DeclarativeSource\ncheck:\n  stream_names: [a]\nstreams:\n  - name: a\n    retriever:\n      requester: { url_base: https://x, http_method: PUT }\n      record_selector: { extractor: { field_path: [] } }\n',
);

test('a clean manifest exits 0 and prints nothing but information', () => {
  const r = run([join(FIXTURES, 'complete.yaml')]);
  assert.equal(r.code, 0);
  assert.equal(r.out, '');
});

test('errors exit 1, as file:line:col: severity: message [code]', () => {
  const r = run([broken]);
  assert.equal(r.code, 1);
  assert.match(
    r.out,
    /broken\.yaml:8:\d+: error: HttpRequester: `http_method` must be one of `GET`, `POST`, not the string "PUT"\. Did you mean `GET`\? \[schema\]/,
  );
});

test('--format json gives every problem with line and column', () => {
  const r = run(['--format', 'json', broken, join(FIXTURES, 'complete.yaml')]);
  assert.equal(r.code, 1);
  const report = JSON.parse(r.out) as { files: { file: string; problems: { code: string; line: number; severity: string }[] }[] };
  assert.equal(report.files.length, 2);
  assert.deepEqual(
    report.files[0].problems.map((p) => [p.code, p.line, p.severity]),
    [['schema', 8, 'error']],
  );
  assert.deepEqual(report.files[1].problems, []);
});

test('unreadable input and bad usage exit 2', () => {
  assert.equal(run([join(dir, 'missing.yaml')]).code, 2);
  assert.equal(run([]).code, 2);
  assert.equal(run(['--format', 'xml', broken]).code, 2);
  assert.equal(run(['--bogus', broken]).code, 2);
});

test('deprecation hints are listed only with --hints and never change the exit code', () => {
  const quiet = run([broken]);
  assert.ok(!/\bhint:/.test(quiet.out));
  const loud = run(['--hints', broken]);
  assert.equal(loud.code, 1);
  assert.match(
    loud.out,
    /broken\.yaml:8:\d+: hint: `HttpRequester\.url_base` is deprecated: use `url` with the full endpoint URL\. \[deprecated\]/,
  );
});

test('a binary file is "not a YAML text", exit 2, with no parse errors', () => {
  const file = join(dir, 'image.yaml');
  writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
  const r = run([file]);
  assert.equal(r.code, 2);
  assert.match(r.err, /image\.yaml: not a YAML text: binary data \(a NUL byte at offset 8\)/);
  assert.equal(r.out, '');
});

test('an endless input (/dev/zero) is read up to the cap only, exit 2', { skip: process.platform === 'win32' }, () => {
  const started = Date.now();
  const r = run(['/dev/zero']);
  assert.equal(r.code, 2);
  assert.match(r.err, /\/dev\/zero: larger than 8388608 bytes; not read/);
  assert.ok(Date.now() - started < 10_000);
});

test('pretty output shows control characters from the manifest as escapes, never raw', () => {
  const file = join(dir, 'escapes.yaml');
  // A key carrying an OSC (window title) and a CSI (clear screen) sequence, and a bidi override.
  writeFileSync(file, 'version: 6.0.0\ntype: DeclarativeSource\n"\\e]0;owned\\a\\e[2J\\u202Ex": 1\n');
  const r = run([file]);
  assert.doesNotMatch(r.out, /[\u001b\u0007\u202e]/);
  assert.match(r.out, /\\x1b\]0;owned\\x07\\x1b\[2J\\u202ex/);
});

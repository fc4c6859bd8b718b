// npm start refuses to hand out a URL unless the installed extension activated: what it says for each
// kind of activation report, and the extension-host log lines it shows with the message.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { activationProblem, extensionHostLogTail } from '../../../scripts/start.mjs';

const exts = '/state/exts';
const installed = {
  ok: true,
  version: '0.1.0',
  mode: 'production',
  extensionPath: '/state/exts/manifest-studio.airbyte-manifest-studio-0.1.0',
  activationMs: 900,
};

test('the installed copy activated: no problem', () => {
  assert.equal(activationProblem(installed, exts), undefined);
});

test('no report: says the extension was not loaded or hung', () => {
  assert.match(activationProblem(undefined, exts), /no activation report within 120 s: it was not loaded, or its activation hung/);
});

test('a failed activation: says so with the error the extension reported', () => {
  const problem = activationProblem({ ...installed, ok: false, error: 'Error: server.js crashed\n    at start (extension.js:1:2)' }, exts);
  assert.match(problem, /^the extension failed to activate:\nError: server.js crashed/);
});

test('loaded from somewhere else (a development path, a look-alike folder): names where it ran from', () => {
  assert.match(
    activationProblem({ ...installed, mode: 'development', extensionPath: '/repo' }, exts),
    /ran the extension from \/repo \(development\), not the copy installed in \/state\/exts/,
  );
  assert.match(
    activationProblem({ ...installed, extensionPath: '/state/exts-old/manifest-studio.airbyte-manifest-studio-0.1.0' }, exts),
    /not the copy installed/,
  );
});

test('the extension-host log shown with a failure: the last 15 lines of the newest session', () => {
  const userData = mkdtempSync(join(tmpdir(), 'start-log-'));
  assert.equal(extensionHostLogTail(userData), undefined);
  const host = join(userData, 'logs', '20261124T030000', 'exthost1');
  mkdirSync(host, { recursive: true });
  writeFileSync(join(host, 'remoteexthost.log'), Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const log = extensionHostLogTail(userData);
  assert.equal(log.file, join(host, 'remoteexthost.log'));
  assert.deepEqual(
    log.tail.split('\n'),
    Array.from({ length: 15 }, (_, i) => `line ${i + 6}`),
  );
});

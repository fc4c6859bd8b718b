// CLI write-back of a rotated refresh token (demo API, single-use refresh tokens): mode and owner are
// kept, a symlink is never written through (recovery file), a read-only file is refused loudly with the new config saved to
// a 0600 recovery file, no temporary copy is left, and the token never reaches stdout or stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startDemoApi } from '../../../demo/api/server';
import { DEMO_CREDENTIALS } from '../../../demo/api/authCredentials';
import { readCommand } from '../../../server/src/runtime/cli/readCommand';
import { writeBackConfig } from '../../../server/src/runtime/cli/configWriteBack';

const MANIFEST = join(__dirname, '../../../demo/workspace/oauth-auth.yaml');

function sink(tty = false): PassThrough & { text: string; isTTY?: boolean } {
  const s = Object.assign(new PassThrough(), { text: '', isTTY: tty });
  s.on('data', (c) => (s.text += String(c)));
  return s;
}

/** Runs the rotating-refresh-token stream against a fresh demo API with `configFile` prepared by `prepare`. */
async function readWith(prepare: (dir: string, config: string) => string) {
  const api = await startDemoApi();
  const dir = mkdtempSync(join(tmpdir(), 'write-back-'));
  const text = JSON.stringify({
    url_base: api.url,
    client_id: DEMO_CREDENTIALS.oauth.clientId,
    client_secret: DEMO_CREDENTIALS.oauth.clientSecret,
    credentials: { refresh_token: DEMO_CREDENTIALS.oauth.initialRefreshToken },
  });
  const configFile = prepare(dir, text);
  const out = sink();
  const err = sink();
  const code = await readCommand(
    [MANIFEST, '--stream', 'oauth_rotating_refresh_token', '--config', configFile, '--format', 'json'],
    out,
    err,
  );
  await api.close();
  return { dir, configFile, code, stdout: out.text, stderr: err.text, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function newRefreshToken(file: string): string {
  return JSON.parse(readFileSync(file, 'utf8')).credentials.refresh_token;
}

test('the rewritten config keeps its mode and owner, and no temporary file is left', async () => {
  const r = await readWith((dir, text) => {
    const f = join(dir, 'config.json');
    writeFileSync(f, text);
    chmodSync(f, 0o640);
    chownSync(f, 1234, 2345);
    return f;
  });
  try {
    assert.equal(r.code, 0, r.stderr);
    const st = statSync(r.configFile);
    assert.equal(st.mode & 0o777, 0o640);
    assert.equal(st.uid, 1234);
    assert.equal(st.gid, 2345);
    const token = newRefreshToken(r.configFile);
    assert.notEqual(token, DEMO_CREDENTIALS.oauth.initialRefreshToken);
    assert.deepEqual(readdirSync(r.dir), ['config.json'], 'no temporary copy');
    assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token));
  } finally {
    r.cleanup();
  }
});

test('a symlinked config is never written through: the link and its target stay, the new config goes to a 0600 recovery file beside the link', async () => {
  const r = await readWith((dir, text) => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'config.json'), text, { mode: 0o600 });
    symlinkSync(join(dir, 'real', 'config.json'), join(dir, 'config.json'));
    return join(dir, 'config.json');
  });
  try {
    assert.equal(r.code, 1, 'the command fails: the rotated token is not where the next run looks');
    assert.ok(lstatSync(r.configFile).isSymbolicLink());
    assert.equal(
      newRefreshToken(join(r.dir, 'real', 'config.json')),
      DEMO_CREDENTIALS.oauth.initialRefreshToken,
      'the link target is untouched',
    );
    const m =
      /config\.json is a symbolic link \(to .*real\/config\.json\) and is never written through\. The new config is in (\S+) \(readable only by you\)/.exec(
        r.stderr,
      );
    assert.ok(m, r.stderr);
    assert.equal(join(m[1], '..'), r.dir, 'the recovery file is beside the link');
    assert.equal(statSync(m[1]).mode & 0o777, 0o600);
    const token = newRefreshToken(m[1]);
    assert.notEqual(token, DEMO_CREDENTIALS.oauth.initialRefreshToken);
    assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), 'the token is not printed');
  } finally {
    r.cleanup();
  }
});

test('a read-only config is refused loudly; the new config is saved to a 0600 recovery file named in the message', async () => {
  const r = await readWith((dir, text) => {
    const f = join(dir, 'config.json');
    writeFileSync(f, text);
    chmodSync(f, 0o444);
    return f;
  });
  try {
    assert.equal(r.code, 1, 'the command fails');
    assert.equal(newRefreshToken(r.configFile), DEMO_CREDENTIALS.oauth.initialRefreshToken, 'the read-only file is untouched');
    const m =
      /ERROR: the connector rotated its credentials but .*config\.json is read-only \(mode 444\); it was not overwritten\. The new config is in (\S+) \(readable only by you\)/.exec(
        r.stderr,
      );
    assert.ok(m, r.stderr);
    assert.equal(statSync(m[1]).mode & 0o777, 0o600);
    const token = newRefreshToken(m[1]);
    assert.notEqual(token, DEMO_CREDENTIALS.oauth.initialRefreshToken);
    assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), 'the token is not printed');
  } finally {
    r.cleanup();
  }
});

test('when the rewrite itself fails, the temporary file is removed and the recovery file is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'write-back-'));
  try {
    // A directory in place of the file: the final rename fails (EISDIR) after the temporary file was written.
    mkdirSync(join(dir, 'config.json'));
    const result = writeBackConfig(
      join(dir, 'config.json'),
      '{"credentials":{"refresh_token":"new/+= é"}}\n',
      new Date('2024-05-01T00:00:00Z'),
    );
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.match(result.reason, /could not be rewritten \(E[A-Z]+\)/);
    assert.equal(result.recoveredAt, join(dir, 'config.rotated-2024-05-01T00-00-00-000Z.json'));
    assert.equal(statSync(result.recoveredAt!).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir).sort(), ['config.json', 'config.rotated-2024-05-01T00-00-00-000Z.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

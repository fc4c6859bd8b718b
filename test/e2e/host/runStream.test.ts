// Full "Run stream" of every stream of every demo manifest, with testing values set through the
// command API, and the refresh-token write-back of single-use OAuth refresh tokens.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { parse } from 'yaml';
import { activateExtension, lensActions, openWorkspaceFile } from './helpers';
import { currentRefreshToken, demoApi, DEMO_CONFIG, OAUTH } from './demoApi';

type Outcome =
  | {
      streamRead: {
        slices: { pages: { records: unknown[] }[] }[];
        logs: { level: string; message: string }[];
        latest_config_update: unknown;
      };
      configUpdated: boolean;
    }
  | undefined;

function recordCount(o: Outcome): number {
  return o?.streamRead.slices.flatMap((s) => s.pages).reduce((n, p) => n + p.records.length, 0) ?? 0;
}

/** The demo manifests and their stream names, found in the copied demo workspace. */
async function demoStreams(): Promise<Array<{ file: string; stream: string }>> {
  const files = await vscode.workspace.findFiles('demo/*.yaml');
  const out: Array<{ file: string; stream: string }> = [];
  for (const f of files.sort((a, b) => a.path.localeCompare(b.path))) {
    const doc = parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(f)));
    for (const s of doc?.streams ?? []) if (s?.name) out.push({ file: vscode.workspace.asRelativePath(f), stream: s.name });
  }
  return out;
}

describe('run stream', function () {
  this.timeout(120_000);
  let url = '';
  before(async () => {
    await activateExtension();
    url = (await demoApi()).url;
  });

  it('reads every stream of every demo manifest and returns records', async () => {
    const streams = await demoStreams();
    assert.ok(streams.length >= 4, `expected the demo manifests' streams, found ${streams.length}`);
    const failures: string[] = [];
    for (const { file, stream } of streams) {
      const doc = await openWorkspaceFile(file);
      // Refresh tokens are single use: each OAuth manifest gets the one the demo API issued last.
      const values = {
        ...DEMO_CONFIG,
        url_base: url,
        credentials: { ...DEMO_CONFIG.credentials, refresh_token: await currentRefreshToken() },
      };
      const saved = await vscode.commands.executeCommand<boolean>('airbyte.setTestingValues', { uri: doc.uri.toString(), values });
      assert.equal(saved, true, `testing values for ${file} were refused`);
      const outcome = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { uri: doc.uri.toString(), streamName: stream });
      const errors = outcome?.streamRead.logs.filter((l) => l.level === 'ERROR').map((l) => l.message) ?? ['no result'];
      if (recordCount(outcome) === 0 || errors.length > 0)
        failures.push(`${file} ${stream}: ${recordCount(outcome)} records; ${errors.join(' | ')}`);
    }
    assert.deepEqual(failures, []);
  });

  it('resolves dynamic streams from the "Resolve streams…" lens and runs one', async () => {
    const doc = await openWorkspaceFile('demo/dynamic-streams.yaml');
    const uri = doc.uri.toString();
    assert.equal(
      await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values: { ...DEMO_CONFIG, url_base: url } }),
      true,
    );
    const lens = (await lensActions(doc.uri, (a) => a.some((l) => l.command === 'airbyte.resolveStreams'))).find(
      (l) => l.command === 'airbyte.resolveStreams',
    );
    assert.ok(lens, 'a Resolve streams lens');
    assert.equal(doc.lineAt(lens.lens.range.start.line).text, 'dynamic_streams:');
    type Resolved = { streams: { name: string; dynamic: boolean }[]; run?: Outcome };
    const outcome = await vscode.commands.executeCommand<Resolved>('airbyte.resolveStreams', {
      ...(lens.arguments[0] as object),
      streamName: 'open_deals',
    });
    assert.deepEqual(
      outcome?.streams.filter((s) => s.dynamic).map((s) => s.name),
      ['contacts', 'open_deals', 'view_won_deals'],
    );
    assert.equal(recordCount(outcome?.run), 2, JSON.stringify(outcome?.run?.streamRead.logs));
  });

  it('stores a rotated single-use refresh token at once, so the next run still authenticates', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const uri = doc.uri.toString();
    const values = {
      url_base: url,
      credentials: { client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret, refresh_token: await currentRefreshToken() },
    };
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values }), true);
    const first = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { uri, streamName: 'protected' });
    assert.equal(first?.configUpdated, true, 'the runtime wrote a config update back');
    assert.equal(recordCount(first), 5);
    // The demo rejects a refresh token that was already used: a second read only works with the stored new one.
    const second = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { uri, streamName: 'protected' });
    assert.equal(recordCount(second), 5, JSON.stringify(second?.streamRead.logs));
  });

  it('authorizes with OAuth against the demo consent endpoint and stores the tokens', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const uri = doc.uri.toString();
    // The app credentials only: no refresh token until the authorization provides one.
    const values = { url_base: url, credentials: { client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret } };
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values }), true);
    let consentUrl = '';
    // The "browser": follows the consent page's redirect to the extension's loopback URI, as a person's browser would.
    const openConsentUrl = async (u: string) => {
      consentUrl = u;
      const res = await fetch(u, { redirect: 'follow' });
      return res.ok;
    };
    const ok = await vscode.commands.executeCommand<boolean>('airbyte.authorizeOAuth', { uri, openConsentUrl });
    assert.equal(ok, true);
    assert.match(
      consentUrl,
      /\/auth\/oauth\/authorize\?client_id=demo-client&redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback&state=[\w.-]{7,24}$/,
    );
    const run = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { uri, streamName: 'protected' });
    assert.equal(recordCount(run), 5, JSON.stringify(run?.streamRead.logs));
  });

  it('links an error of the read to the component that failed, with a source-mapped stack', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const uri = doc.uri.toString();
    const values = {
      url_base: url,
      credentials: { client_id: OAUTH.clientId, client_secret: 'wrong-secret', refresh_token: 'no-such-token' },
    };
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values }), true);
    const run = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { uri, streamName: 'protected' });
    assert.ok(
      run?.streamRead.logs.some((l) => l.level === 'ERROR'),
      'the refused refresh is an error of the read',
    );
    const api = await activateExtension<{ resultsTranscript(): string }>();
    const last = api
      .resultsTranscript()
      .split('\n')
      .filter((l) => l.includes('"type":"result"'))
      .pop()!;
    type Shown = {
      level: string;
      stacktrace?: string | null;
      component?: { kind: string; type: string | null; range: { start: { line: number }; end: { line: number } } };
    };
    const errors = (JSON.parse(last).result.logs as Shown[]).filter((l) => l.level === 'ERROR');
    assert.ok(errors.length > 0, 'an error is shown');
    // The refused token refresh is the authenticator's failure: the link selects its block in the manifest.
    const lines = doc.getText().split('\n');
    const authLine = lines.findIndex((l) => /^\s+authenticator:\s*$/.test(l));
    const c = errors[0].component;
    assert.equal(c?.kind, 'authenticator', JSON.stringify(errors[0]));
    assert.equal(c?.type, 'OAuthAuthenticator');
    assert.equal(c?.range.start.line, authLine);
    assert.ok(c!.range.end.line > authLine, 'the range covers the whole authenticator');
    // The stack behind "Details" is mapped to the TypeScript sources; no bundle frame is shown.
    assert.match(errors[0].stacktrace ?? '', /server\/src\/runtime\/auth\/\w+\.ts:\d+/, JSON.stringify(errors[0]));
    assert.doesNotMatch(errors[0].stacktrace ?? '', /out\/server\.js/);
  });

  it('refuses testing values that break the spec, with the field named', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const saved = await vscode.commands.executeCommand<boolean>('airbyte.setTestingValues', {
      uri: doc.uri.toString(),
      values: { credentials: {} },
    });
    assert.equal(saved, false);
  });

  it('writes the inferred schema of a read into the manifest', async () => {
    const doc = await openWorkspaceFile('oauth/manifest.yaml');
    const schema = { type: 'object', properties: { id: { type: ['number', 'null'] } } };
    assert.equal(
      await vscode.commands.executeCommand('airbyte.writeInferredSchema', { uri: doc.uri.toString(), streamName: 'protected', schema }),
      true,
    );
    assert.deepEqual(parse(doc.getText()).streams[0].schema_loader.schema, schema);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});

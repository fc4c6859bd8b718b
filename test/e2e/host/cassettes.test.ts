// Cassettes in the editor: a read from the API is recorded as it runs; "Save Read as Cassette" writes it
// (and its expectation) where `connector-manifest test` looks; the "Replay cassette" lens appears; the
// replay reads offline to the same records; "Compare with Previous Read" finds no difference.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { parse } from 'yaml';
import { activateExtension, lensActions, openWorkspaceFile, workspaceUri, type LensAction } from './helpers';
import { demoApi, DEMO_CONFIG } from './demoApi';

type Outcome = { streamRead: { slices: { pages: { records: unknown[] }[] }[]; logs: { level: string; message: string }[] } } | undefined;
type Comparison =
  | {
      before: { label: string; records: number };
      after: { label: string; records: number };
      diff: { added: string[]; removed: string[]; changed: unknown[]; schema: string[] };
    }
  | { unavailable: string };

const records = (o: Outcome) => o?.streamRead.slices.flatMap((s) => s.pages.flatMap((p) => p.records)) ?? [];
const text = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

describe('cassettes', function () {
  this.timeout(120_000);
  let url = '';
  before(async () => {
    await activateExtension();
    url = (await demoApi()).url;
  });

  it('Run stream → Save Read as Cassette → Replay cassette lens → Compare with Previous Read', async () => {
    const doc = await openWorkspaceFile('demo/page-increment.yaml');
    const target = { uri: doc.uri.toString(), streamName: 'pages_zero_based' };
    assert.equal(
      await vscode.commands.executeCommand('airbyte.setTestingValues', { uri: target.uri, values: { ...DEMO_CONFIG, url_base: url } }),
      true,
    );
    const live = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', target);
    assert.ok(records(live).length > 0);

    const file = workspaceUri('demo/cassettes/pages_zero_based.cassette.yaml');
    const saved = await vscode.commands.executeCommand<vscode.Uri>('airbyte.saveReadAsCassette', { ...target, file: file.fsPath });
    assert.equal(saved?.toString(), file.toString());
    const cassette = parse(await text(file)) as { stream: string; exchanges: unknown[] };
    assert.equal(cassette.stream, 'pages_zero_based');
    assert.equal(cassette.exchanges.length, live?.streamRead.slices.flatMap((s) => s.pages).length, 'one exchange per page');
    const expectation = JSON.parse(await text(workspaceUri('demo/cassettes/pages_zero_based.expected.json'))) as { records: unknown[] };
    assert.deepEqual(expectation.records, records(live));

    const replays = (a: LensAction[], stream: string) =>
      a.filter((l) => l.command === 'airbyte.replayCassette' && (l.arguments[0] as { streamName?: string }).streamName === stream);
    const actions = await lensActions(doc.uri, (a) => replays(a, 'pages_zero_based').length > 0);
    const lens = replays(actions, 'pages_zero_based')[0];
    assert.match(doc.lineAt(lens.lens.range.start.line).text, /^\s*- type: DeclarativeStream|name: pages_zero_based/);
    assert.equal(replays(actions, 'pages_one_based').length, 0, 'no lens for a stream without a cassette');

    const served = (await demoApi()).state.requestCount;
    // The lens's own (argument-free) command, as a click runs it.
    assert.equal(lens.lens.command?.arguments, undefined);
    const replay = await vscode.commands.executeCommand<Outcome>(lens.lens.command!.command);
    assert.equal((await demoApi()).state.requestCount, served, 'the replay made no request');
    assert.deepEqual(
      replay?.streamRead.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
    assert.deepEqual(records(replay), records(live));

    const compared = await vscode.commands.executeCommand<Comparison>('airbyte.compareWithPreviousRead', target);
    assert.ok(compared && !('unavailable' in compared), JSON.stringify(compared));
    assert.equal(compared.before.label, 'read from the API');
    assert.equal(compared.after.label, 'replay of cassettes/pages_zero_based.cassette.yaml');
    assert.deepEqual(compared.diff, { added: [], removed: [], changed: [], schema: [] });
  });
});

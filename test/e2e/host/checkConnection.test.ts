// "Check connection": the lens above `check:` runs the manifest's check with the testing values and
// the results view shows the reference's status and message (a wrong token: the 401 wording of the CDK).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { activateExtension, openWorkspaceFile } from './helpers';
import { demoApi, DEMO_CONFIG } from './demoApi';

type Checked = { status: string | null; message: string | null; logs: { level: string; message: string }[] } | undefined;

describe('check connection', function () {
  this.timeout(60_000);
  let url = '';
  before(async () => {
    await activateExtension();
    url = (await demoApi()).url;
  });

  it('runs from the lens above check: and shows the status; a wrong token fails as the CDK says', async () => {
    const doc = await openWorkspaceFile('demo/bearer-auth.yaml');
    const uri = doc.uri.toString();
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values: { ...DEMO_CONFIG, url_base: url } }), true);
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 100)) ?? [];
    const lens = lenses.find((l) => l.command?.command === 'airbyte.checkConnection');
    assert.ok(lens, `a Check connection lens among ${lenses.map((l) => l.command?.title).join(', ')}`);
    assert.equal(lens.command?.title, 'Check connection');
    assert.match(doc.lineAt(lens.range.start.line).text, /^check:/);
    const ok = await vscode.commands.executeCommand<Checked>(lens.command!.command, ...(lens.command!.arguments ?? []));
    assert.deepEqual({ status: ok?.status, message: ok?.message }, { status: 'SUCCEEDED', message: null });
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values: { ...DEMO_CONFIG, url_base: url, bearer_token: 'not-the-token' } }), true);
    const failed = await vscode.commands.executeCommand<Checked>('airbyte.checkConnection', { uri });
    assert.equal(failed?.status, 'FAILED');
    assert.equal(failed?.message, "'Stream bearer_items is not available: HTTP Status Code: 401. Error: Unauthorized. Please ensure you are authenticated correctly.'");
  });
});

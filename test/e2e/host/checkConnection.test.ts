// "Check connection": the lens above `check:` runs the manifest's check with the testing values and
// the results view shows the reference's status and message (a wrong token: the 401 wording of the CDK).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { activateExtension, lensActions, openWorkspaceFile } from './helpers';
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
    assert.equal(
      await vscode.commands.executeCommand('airbyte.setTestingValues', { uri, values: { ...DEMO_CONFIG, url_base: url } }),
      true,
    );
    const actions = await lensActions(doc.uri, (a) => a.some((l) => l.command === 'airbyte.checkConnection'));
    const lens = actions.find((l) => l.command === 'airbyte.checkConnection');
    assert.ok(lens, `a Check connection lens among ${actions.map((l) => l.title).join(', ')}`);
    assert.equal(lens.title, 'Check connection');
    assert.match(doc.lineAt(lens.lens.range.start.line).text, /^check:/);
    // Clicked as a person does: the lens's own (argument-free) id.
    const ok = await vscode.commands.executeCommand<Checked>(lens.lens.command!.command);
    assert.deepEqual({ status: ok?.status, message: ok?.message }, { status: 'SUCCEEDED', message: null });
    assert.equal(
      await vscode.commands.executeCommand('airbyte.setTestingValues', {
        uri,
        values: { ...DEMO_CONFIG, url_base: url, bearer_token: 'not-the-token' },
      }),
      true,
    );
    const failed = await vscode.commands.executeCommand<Checked>('airbyte.checkConnection', { uri });
    assert.equal(failed?.status, 'FAILED');
    assert.equal(
      failed?.message,
      "'Stream bearer_items is not available: HTTP Status Code: 401. Error: Unauthorized. Please ensure you are authenticated correctly.'",
    );
  });
});

// The files policy in the editor (docs/security.md, "Files"): a repository that commits
// `config.json -> ../other-project/secrets/config.json` cannot have the suggested "Import config.json"
// take another project's secrets unless the user confirms the link; "Save Read as Cassette" never
// writes through a link committed in cassettes/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { activateExtension, workspaceUri } from './helpers';
import { demoApi, DEMO_CONFIG } from './demoApi';

type Outcome = { streamRead: { slices: { pages: { records: unknown[] }[] }[] } } | undefined;

describe('file safety', function () {
  this.timeout(120_000);
  let folder = '';
  let other = '';
  before(async () => {
    await activateExtension();
    // A repository folder in the workspace, and "another project" beside the workspace.
    folder = workspaceUri('linked').fsPath;
    other = path.join(workspaceUri('').fsPath, '..', 'other-project');
    fs.mkdirSync(path.join(folder, 'cassettes'), { recursive: true });
    fs.mkdirSync(path.join(other, 'secrets'), { recursive: true });
    fs.copyFileSync(workspaceUri('demo/offset-increment.yaml').fsPath, path.join(folder, 'manifest.yaml'));
    fs.writeFileSync(
      path.join(other, 'secrets', 'config.json'),
      JSON.stringify({ url_base: 'http://127.0.0.1:9/other', api_key: 'other-project-api-key' }),
    );
    fs.symlinkSync(path.join('..', '..', 'other-project', 'secrets', 'config.json'), path.join(folder, 'config.json'));
    fs.writeFileSync(path.join(other, 'victim.txt'), 'precious\n');
  });

  it('Import config.json refuses a config.json that links to another project unless the user confirms it', async () => {
    const uri = vscode.Uri.file(path.join(folder, 'manifest.yaml'));
    await vscode.workspace.openTextDocument(uri);
    const beside = path.join(folder, 'config.json');
    // The suggestion's command, with the confirmation dialog answered "no".
    assert.equal(
      await vscode.commands.executeCommand('airbyte.importTestingValues', { uri: uri.toString(), file: beside, allowLinkOutside: false }),
      false,
    );
    const exportFile = path.join(folder, 'export.json');
    assert.equal(
      await vscode.commands.executeCommand('airbyte.exportTestingValues', { uri: uri.toString(), file: exportFile }),
      false,
      'nothing was stored',
    );
    assert.ok(!fs.existsSync(exportFile));
    // Confirmed by the user: imported.
    assert.equal(
      await vscode.commands.executeCommand('airbyte.importTestingValues', { uri: uri.toString(), file: beside, allowLinkOutside: true }),
      true,
    );
    assert.equal(await vscode.commands.executeCommand('airbyte.exportTestingValues', { uri: uri.toString(), file: exportFile }), true);
    assert.deepEqual(JSON.parse(fs.readFileSync(exportFile, 'utf8')), { url_base: 'http://127.0.0.1:9/other' });
    assert.equal(await vscode.commands.executeCommand('airbyte.clearTestingValues', { uri: uri.toString(), confirm: false }), true);
  });

  it('Save Read as Cassette does not write through a link committed in cassettes/', async () => {
    const uri = vscode.Uri.file(path.join(folder, 'manifest.yaml'));
    const url = (await demoApi()).url;
    const target = { uri: uri.toString(), streamName: 'items' };
    assert.equal(
      await vscode.commands.executeCommand('airbyte.setTestingValues', {
        uri: target.uri,
        values: { url_base: url, page_size: 50, api_key: DEMO_CONFIG.api_key },
      }),
      true,
    );
    const live = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', target);
    assert.ok((live?.streamRead.slices.flatMap((s) => s.pages.flatMap((p) => p.records)) ?? []).length > 0);
    const cassette = path.join(folder, 'cassettes', 'items.cassette.yaml');
    fs.symlinkSync(path.join(other, 'victim.txt'), cassette);
    const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('airbyte.saveReadAsCassette', { ...target, file: cassette });
    assert.equal(saved, undefined);
    assert.equal(fs.readFileSync(path.join(other, 'victim.txt'), 'utf8'), 'precious\n');
    assert.ok(fs.lstatSync(cassette).isSymbolicLink());
    // Without the link, the same command saves the cassette.
    fs.unlinkSync(cassette);
    const again = await vscode.commands.executeCommand<vscode.Uri | undefined>('airbyte.saveReadAsCassette', { ...target, file: cassette });
    assert.equal(again?.fsPath, cassette);
    assert.match(fs.readFileSync(cassette, 'utf8'), /^# Cassette of a connector-manifest test read/);
  });
});

// Hostile manifests in the extension host: a spec `pattern` that backtracks on JavaScript's engine is
// checked on RE2 when testing values are saved or imported, so the extension host answers at once
// (a 33-character value took 187 s before, ×4 per 2 more characters) with the field's message.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it, before } from 'mocha';
import { activateExtension, workspaceUri } from './helpers';

const MANIFEST = `version: 6.0.0
type: DeclarativeSource
check: {type: CheckStream, stream_names: [items]}
streams:
  - type: DeclarativeStream
    name: items
    retriever:
      type: SimpleRetriever
      requester: {type: HttpRequester, url: "http://127.0.0.1:9/items"}
      record_selector: {type: RecordSelector, extractor: {type: DpathExtractor, field_path: []}}
spec:
  type: Spec
  connection_specification:
    type: object
    properties:
      account: {type: string, pattern: "^([a-zA-Z0-9_]+)*$"}
`;

describe('hostile bounds in the extension host', function () {
  this.timeout(60_000);
  const manifest = workspaceUri('bounds/redos/manifest.yaml');
  const config = workspaceUri('bounds/redos/config.json');
  const hostile = `${'a'.repeat(40)}!`;

  before(async () => {
    await activateExtension();
    await vscode.workspace.fs.writeFile(manifest, new TextEncoder().encode(MANIFEST));
    await vscode.workspace.fs.writeFile(config, new TextEncoder().encode(JSON.stringify({ account: hostile })));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(manifest));
  });

  it('Save: a backtracking spec pattern refuses a 40-character value at once (RE2) and accepts a good one', async () => {
    const refused = await vscode.commands.executeCommand<boolean>('airbyte.setTestingValues', {
      uri: manifest.toString(),
      values: { account: hostile },
    });
    assert.equal(refused, false);
    const saved = await vscode.commands.executeCommand<boolean>('airbyte.setTestingValues', {
      uri: manifest.toString(),
      values: { account: 'acct_42' },
    });
    assert.equal(saved, true);
  });

  it('Import: the same check on a config.json', async () => {
    const imported = await vscode.commands.executeCommand<boolean>('airbyte.importTestingValues', {
      uri: manifest.toString(),
      file: config.fsPath,
    });
    assert.equal(imported, false);
  });
});

// The Airbyte CDK engine in a real VS Code: the run lens of a stream with custom components says what
// to install when no CDK is found and says it runs on the CDK when one is; Run stream shows that
// stream's records (made by its components.py); "Compare with the CDK" finds three demo streams
// identical. Needs the reference CDK (REFCDK_DIR or ../refcdk, built by .ci/run); skips without it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { describe, it, before, after } from 'mocha';
import { activateExtension, EXTENSION_ID, openWorkspaceFile, waitFor } from './helpers';
import { demoApi } from './demoApi';

type Outcome =
  | { streamRead: { slices: { pages: { records: { id: number; label?: string }[] }[] }[]; logs: { level: string }[] } }
  | undefined;
type Compared =
  | { identical: boolean; differences: unknown[]; counts: { builtin: { records: number }; cdk: { records: number } } }
  | { unavailable: string }
  | undefined;

const MANIFEST = 'demo/custom-components/manifest.yaml';

/** The reference CDK's interpreter, or null. */
function referencePython(): string | null {
  const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  const python = join(resolve(root, process.env.REFCDK_DIR ?? '../refcdk'), 'venv/bin/python');
  return existsSync(python) ? python : null;
}

async function setPython(python: string): Promise<void> {
  await vscode.workspace.getConfiguration('airbyte').update('cdk.python', python, vscode.ConfigurationTarget.Global);
}

async function runLensTitle(doc: vscode.TextDocument, expected: RegExp): Promise<string> {
  return waitFor(
    `a run lens matching ${expected}`,
    async () => {
      const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 100)) ?? [];
      return lenses.map((l) => l.command?.title ?? '').find((t) => expected.test(t));
    },
    90_000,
  );
}

describe('Airbyte CDK engine', function () {
  this.timeout(300_000);
  let python: string | null = null;
  let url = '';
  before(async function () {
    python = referencePython();
    if (!python) this.skip();
    await activateExtension();
    url = (await demoApi()).url;
  });
  after(async () => {
    await vscode.workspace.getConfiguration('airbyte').update('cdk.python', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the lens of a stream with custom components says what to install when the interpreter has no CDK', async () => {
    const doc = await openWorkspaceFile(MANIFEST);
    await setPython('/nonexistent/python3');
    const title = await runLensTitle(doc, /labelled_items uses Python components/);
    assert.equal(title, '⚠ labelled_items uses Python components (LabelledItemsExtractor, …) — install Python 3 or set airbyte.cdk.python');
  });

  it('with the CDK found, Run stream runs the stream on it and shows the records its components.py made', async () => {
    const doc = await openWorkspaceFile(MANIFEST);
    await setPython(python!);
    await runLensTitle(doc, /^▶ Run stream labelled_items on the Airbyte CDK$/);
    const target = { uri: doc.uri.toString(), streamName: 'labelled_items' };
    assert.equal(await vscode.commands.executeCommand('airbyte.setTestingValues', { uri: target.uri, values: { url_base: url } }), true);
    const read = await vscode.commands.executeCommand<Outcome>('airbyte.runStream', { ...target, limits: { maxPagesPerSlice: 2 } });
    const records = read?.streamRead.slices.flatMap((s) => s.pages.flatMap((p) => p.records)) ?? [];
    assert.equal(records.length, 80);
    assert.deepEqual(
      records.slice(0, 2).map((r) => r.label),
      ['item-1', 'item-2'],
    );
    assert.deepEqual(
      read?.streamRead.logs.filter((l) => l.level === 'ERROR'),
      [],
    );
  });

  it('"Compare with the CDK" finds three demo streams identical', async () => {
    await setPython(python!);
    const doc = await openWorkspaceFile('demo/cursor-pagination.yaml');
    assert.equal(
      await vscode.commands.executeCommand('airbyte.setTestingValues', { uri: doc.uri.toString(), values: { url_base: url } }),
      true,
    );
    for (const streamName of ['cursor_in_body', 'next_url_in_body', 'link_header']) {
      const compared = await vscode.commands.executeCommand<Compared>('airbyte.compareWithCdk', { uri: doc.uri.toString(), streamName });
      assert.ok(compared && 'identical' in compared, `${streamName}: ${JSON.stringify(compared)}`);
      assert.deepEqual(compared.differences, [], streamName);
      assert.equal(compared.identical, true);
      assert.ok(compared.counts.builtin.records > 0);
    }
  });
});

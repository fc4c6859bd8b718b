// The testing-values form panel of one manifest: sends the spec and stored values to the page,
// validates what the page saves against spec.connection_specification, and stores it in SecretStorage.
// The page follows SecretStorage: a rotated refresh token, an OAuth authorization or an import shows up
// in an open form at once, and saving merges the user's edits into what is stored now (fields the user
// did not edit keep the stored value), so a form opened before a rotation never writes back a used-up token.
import * as vscode from 'vscode';
import { mergeEdits, type Values } from '../configMerge';
import { validateTestingValues } from '../testingValuesValidation';
import type { ConnectorConfig, TestingValuesStore } from '../secrets';
import { webviewHtml, webviewOptions } from './webviewHtml';
import { FORM_CSS } from './formStyles';
import { columnBesideManifest, trackPanelColumn } from './besideColumn';

import type { TestingValuesRequest as FormRequest } from '../webviewMessages';

/** Opens the form for a manifest; one panel per manifest, revealed when already open. */
export class TestingValuesPanel {
  private static readonly open = new Map<string, TestingValuesPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly manifest: vscode.Uri,
    private spec: Record<string, unknown> | null,
    private readonly store: TestingValuesStore,
    private oauth: boolean,
  ) {
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: FormRequest) => void this.onMessage(m)),
      store.watch(manifest, () => void this.sendStored()),
      trackPanelColumn(panel),
    );
    panel.onDidDispose(() => {
      TestingValuesPanel.open.delete(manifest.toString());
      for (const s of this.subscriptions) s.dispose();
    });
  }

  static show(
    extensionUri: vscode.Uri,
    manifest: vscode.Uri,
    spec: Record<string, unknown> | null,
    store: TestingValuesStore,
    oauth = false,
  ): TestingValuesPanel {
    const existing = TestingValuesPanel.open.get(manifest.toString());
    if (existing) {
      existing.spec = spec;
      existing.oauth = oauth;
      existing.panel.reveal(existing.panel.viewColumn);
      void existing.sendInit();
      return existing;
    }
    const title = `Testing values: ${vscode.workspace.asRelativePath(manifest)}`;
    const panel = vscode.window.createWebviewPanel(
      'airbyte.testingValues',
      title,
      columnBesideManifest(manifest),
      webviewOptions(extensionUri),
    );
    panel.webview.html = webviewHtml(panel.webview, extensionUri, 'form', title, FORM_CSS);
    const created = new TestingValuesPanel(panel, manifest, spec, store, oauth);
    TestingValuesPanel.open.set(manifest.toString(), created);
    return created;
  }

  private async sendInit(): Promise<void> {
    const values = (await this.store.get(this.manifest)) ?? {};
    await this.panel.webview.postMessage({
      type: 'init',
      spec: this.spec ?? {},
      values,
      manifest: vscode.workspace.asRelativePath(this.manifest),
      oauth: this.oauth,
    });
  }

  /** The stored values changed (whoever wrote them): the page merges them into the open form. */
  private async sendStored(): Promise<void> {
    const values = (await this.store.get(this.manifest)) ?? {};
    await this.panel.webview.postMessage({ type: 'stored', values });
  }

  /** Validates the user's edits merged into the values stored now, and stores them; false when refused. */
  private async save(edited: ConnectorConfig, base: ConnectorConfig): Promise<boolean> {
    const current = (await this.store.get(this.manifest)) ?? {};
    const values = mergeEdits(asValues(base), asValues(edited), current);
    const errors = validateTestingValues(this.spec, values);
    if (errors.length > 0) {
      await this.panel.webview.postMessage({ type: 'errors', errors });
      return false;
    }
    await this.store.set(this.manifest, values);
    return true;
  }

  private async onMessage(m: FormRequest): Promise<void> {
    if (m.type === 'ready') return this.sendInit();
    if (m.type === 'save') {
      if (await this.save(m.values, m.base)) {
        await this.panel.webview.postMessage({
          type: 'saved',
          message: `Saved to VS Code's secret storage for ${vscode.workspace.asRelativePath(this.manifest)}.`,
        });
      }
      return;
    }
    if (m.type === 'authenticate') {
      // The flow reads the client id, secret and URL from the stored values: store the form's first.
      if (!(await this.save(m.values, m.base))) return;
      await this.panel.webview.postMessage({ type: 'saved', message: 'Saved; authenticating with OAuth in the browser…' });
      const ok = await vscode.commands.executeCommand<boolean>('airbyte.authorizeOAuth', { uri: this.manifest.toString() });
      await this.panel.webview.postMessage({
        type: 'saved',
        message: ok
          ? 'Authenticated: the tokens were stored in secret storage and are shown below.'
          : 'The OAuth authorization did not complete (see the notification).',
      });
      return;
    }
    await vscode.commands.executeCommand(`airbyte.${m.type}TestingValues`, { uri: this.manifest.toString() });
    if (m.type !== 'export') await this.sendInit();
  }
}

function asValues(v: unknown): Values {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {};
}

// The testing-values form panel of one manifest: sends the spec and stored values to the page,
// validates what the page saves against spec.connection_specification, and stores it in SecretStorage.
import * as vscode from 'vscode';
import { validateTestingValues } from '../testingValuesValidation';
import type { ConnectorConfig, TestingValuesStore } from '../secrets';
import { webviewHtml, webviewOptions } from './webviewHtml';
import { FORM_CSS } from './formStyles';

type FormRequest = { type: 'ready' } | { type: 'save'; values: ConnectorConfig } | { type: 'import' } | { type: 'export' } | { type: 'clear' };

/** Opens the form for a manifest; one panel per manifest, revealed when already open. */
export class TestingValuesPanel {
  private static readonly open = new Map<string, TestingValuesPanel>();

  private constructor(private readonly panel: vscode.WebviewPanel, private readonly manifest: vscode.Uri, private spec: Record<string, unknown> | null, private readonly store: TestingValuesStore) {
    panel.webview.onDidReceiveMessage((m: FormRequest) => void this.onMessage(m));
    panel.onDidDispose(() => TestingValuesPanel.open.delete(manifest.toString()));
  }

  static show(extensionUri: vscode.Uri, manifest: vscode.Uri, spec: Record<string, unknown> | null, store: TestingValuesStore): TestingValuesPanel {
    const existing = TestingValuesPanel.open.get(manifest.toString());
    if (existing) {
      existing.spec = spec;
      existing.panel.reveal();
      void existing.sendInit();
      return existing;
    }
    const title = `Testing values: ${vscode.workspace.asRelativePath(manifest)}`;
    const panel = vscode.window.createWebviewPanel('airbyte.testingValues', title, vscode.ViewColumn.Beside, webviewOptions(extensionUri));
    panel.webview.html = webviewHtml(panel.webview, extensionUri, 'form', title, FORM_CSS);
    const created = new TestingValuesPanel(panel, manifest, spec, store);
    TestingValuesPanel.open.set(manifest.toString(), created);
    return created;
  }

  private async sendInit(): Promise<void> {
    const values = (await this.store.get(this.manifest)) ?? {};
    await this.panel.webview.postMessage({ type: 'init', spec: this.spec ?? {}, values, manifest: vscode.workspace.asRelativePath(this.manifest) });
  }

  private async onMessage(m: FormRequest): Promise<void> {
    if (m.type === 'ready') return this.sendInit();
    if (m.type === 'save') {
      const errors = validateTestingValues(this.spec, m.values);
      if (errors.length > 0) {
        await this.panel.webview.postMessage({ type: 'errors', errors });
        return;
      }
      await this.store.set(this.manifest, m.values);
      await this.panel.webview.postMessage({ type: 'saved', message: `Saved to VS Code's secret storage for ${vscode.workspace.asRelativePath(this.manifest)}.` });
      return;
    }
    await vscode.commands.executeCommand(`airbyte.${m.type}TestingValues`, { uri: this.manifest.toString() });
    if (m.type !== 'export') await this.sendInit();
  }
}

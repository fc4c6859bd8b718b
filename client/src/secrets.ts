// Testing values (a manifest's connector config) kept only in VS Code's SecretStorage, bound to the
// manifest's absolute URI (testingValuesVault.ts). Nothing here writes to settings, workspace state,
// files or logs.
import * as vscode from 'vscode';
import { TestingValuesVault, testingValuesKey, type ConnectorConfig, type ValuesSource } from './testingValuesVault';
import { deepMergeOwn } from '../../server/src/runtime/shared/safeObject';

export type { ConnectorConfig, ValuesSource } from './testingValuesVault';

/** The workspace-relative path the old (shared) key used, or undefined outside any folder. */
function legacyRelativePath(uri: vscode.Uri): string | undefined {
  if (!vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return vscode.workspace.asRelativePath(uri, multiRoot);
}

/** Reads and writes the testing values of manifests. */
export class TestingValuesStore {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly vault: TestingValuesVault;
  /** Fires with the manifest URI whose values were saved or cleared. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.vault = new TestingValuesVault(secrets);
  }

  /** The values stored for this very manifest, or undefined (values of other manifests are only offered, see `candidates`). */
  get(uri: vscode.Uri): Promise<ConnectorConfig | undefined> {
    return this.vault.get(uri.toString());
  }

  async set(uri: vscode.Uri, config: ConnectorConfig): Promise<void> {
    await this.vault.set(uri.toString(), config);
    this.changed.fire(uri);
  }

  /** Merges `update` into the stored values (used for tokens written back by the runtime). */
  async merge(uri: vscode.Uri, update: ConnectorConfig): Promise<ConnectorConfig> {
    const next = deepMerge((await this.get(uri)) ?? {}, update);
    await this.set(uri, next);
    return next;
  }

  /**
   * Calls `listener` whenever the stored values of `uri` change in SecretStorage, whoever wrote them
   * (a form, a refresh-token write-back, an OAuth flow, an import, another window).
   */
  watch(uri: vscode.Uri, listener: () => void): vscode.Disposable {
    const key = testingValuesKey(uri.toString());
    return this.secrets.onDidChange((e) => {
      if (e.key === key) listener();
    });
  }

  async clear(uri: vscode.Uri): Promise<void> {
    await this.vault.clear(uri.toString());
    this.changed.fire(uri);
  }

  /** Values of other manifests (and of the old shared key) the user may copy to this one. */
  candidates(uri: vscode.Uri): Promise<ValuesSource[]> {
    return this.vault.candidates(uri.toString(), legacyRelativePath(uri));
  }

  /** Copies values the user picked; fires onDidChange. */
  async copyFrom(source: ValuesSource, uri: vscode.Uri): Promise<boolean> {
    const copied = await this.vault.copyFrom(source, uri.toString());
    if (copied) this.changed.fire(uri);
    return copied;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function deepMerge(base: ConnectorConfig, update: ConnectorConfig): ConnectorConfig {
  return deepMergeOwn(base, update) as ConnectorConfig;
}

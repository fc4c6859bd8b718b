// Testing values (a manifest's connector config) kept only in VS Code's SecretStorage, keyed by the
// manifest's workspace-relative path. Nothing here writes to settings, workspace state, files or logs.
import * as vscode from 'vscode';

export type ConnectorConfig = Record<string, unknown>;

const PREFIX = 'airbyte.testingValues:';

/** The SecretStorage key of a manifest: its workspace-relative path (the URI when outside any folder). */
export function testingValuesKey(uri: vscode.Uri): string {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return PREFIX + uri.toString();
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return PREFIX + vscode.workspace.asRelativePath(uri, multiRoot);
}

/** Reads and writes the testing values of manifests. */
export class TestingValuesStore {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires with the manifest URI whose values were saved or cleared. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The stored values, or undefined when none were saved (or the stored text is unreadable). */
  async get(uri: vscode.Uri): Promise<ConnectorConfig | undefined> {
    const raw = await this.secrets.get(testingValuesKey(uri));
    if (!raw) return undefined;
    try {
      const value = JSON.parse(raw);
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as ConnectorConfig) : undefined;
    } catch {
      return undefined;
    }
  }

  async set(uri: vscode.Uri, config: ConnectorConfig): Promise<void> {
    await this.secrets.store(testingValuesKey(uri), JSON.stringify(config));
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
    return this.secrets.onDidChange((e) => { if (e.key === testingValuesKey(uri)) listener(); });
  }

  async clear(uri: vscode.Uri): Promise<void> {
    await this.secrets.delete(testingValuesKey(uri));
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function deepMerge(base: ConnectorConfig, update: ConnectorConfig): ConnectorConfig {
  const out: ConnectorConfig = { ...base };
  for (const [key, value] of Object.entries(update)) {
    const prev = out[key];
    out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

function isPlainObject(v: unknown): v is ConnectorConfig {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

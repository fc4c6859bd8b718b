// The readiness table of "Run all streams": one webview per manifest, a progress bar while the streams
// run (a few at a time), then one row per stream — records, pages, slices, errors, retries, schema
// differences, datetime formats, time. A row opens that stream's results in the results view.
import * as vscode from 'vscode';
import { webviewHtml, webviewOptions } from '../views/webviewHtml';
import type { ReadinessMessage, ReadinessRequest } from '../webviewMessages';

export type ReadinessActions = { open(stream: string): void; rerun(): void };

/** The readiness table of one manifest; reused by the next run. */
export class ReadinessPanel {
  private static readonly open = new Map<string, ReadinessPanel>();
  private ready = false;
  private queue: ReadinessMessage[] = [];
  private disposed = false;
  /** Every message sent to the page (for the e2e tests and the secret-safety checks). */
  private transcript: string[] = [];

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private actions: ReadinessActions,
  ) {
    panel.webview.onDidReceiveMessage((m: ReadinessRequest) => {
      if (m.type === 'ready') {
        this.ready = true;
        for (const q of this.queue.splice(0)) void panel.webview.postMessage(q);
      } else if (m.type === 'open' && typeof m.stream === 'string') this.actions.open(m.stream);
      else if (m.type === 'rerun') this.actions.rerun();
    });
    panel.onDidDispose(() => {
      this.disposed = true;
      for (const [k, v] of ReadinessPanel.open) if (v === this) ReadinessPanel.open.delete(k);
    });
  }

  static show(extensionUri: vscode.Uri, manifest: vscode.Uri, actions: ReadinessActions): ReadinessPanel {
    const key = manifest.toString();
    const existing = ReadinessPanel.open.get(key);
    if (existing && !existing.disposed) {
      existing.actions = actions;
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      return existing;
    }
    const title = `All streams: ${vscode.workspace.asRelativePath(manifest)}`;
    const panel = vscode.window.createWebviewPanel(
      'airbyte.readiness',
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewOptions(extensionUri),
    );
    panel.webview.html = webviewHtml(panel.webview, extensionUri, 'readiness', title, READINESS_CSS);
    const created = new ReadinessPanel(panel, actions);
    ReadinessPanel.open.set(key, created);
    return created;
  }

  static transcripts(): string {
    return [...ReadinessPanel.open.values()].map((p) => p.transcript.join('\n')).join('\n');
  }

  post(message: ReadinessMessage): void {
    if (this.disposed) return;
    if (message.type === 'start') this.transcript = [];
    this.transcript.push(JSON.stringify(message));
    if (this.ready) void this.panel.webview.postMessage(message);
    else this.queue.push(message);
  }
}

const READINESS_CSS = `
progress { width: 100%; height: 8px; }
.progress-text { color: var(--vscode-descriptionForeground); margin: 4px 0 10px; }
table.readiness { width: 100%; min-width: 0; }
/* Ten columns in a side pane: headers and stream names wrap between words only (a header broken inside a
   word reads as noise), datetime formats anywhere (long unbroken words), numbers never; a pane narrower
   than that scrolls sideways. */
table.readiness td, table.readiness th { white-space: normal; overflow-wrap: break-word; max-width: 260px; padding: 3px 5px; }
table.readiness th { vertical-align: bottom; }
table.readiness td.formats { overflow-wrap: anywhere; }
table.readiness td.num { white-space: nowrap; }
table.readiness td.formats { font-size: 0.9em; }
table.readiness td.num, table.readiness th.num { text-align: right; }
table.readiness tbody tr { cursor: pointer; }
table.readiness tbody tr:focus-visible td { outline: 1px solid var(--vscode-focusBorder); }
.status-ok { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.status-failed { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
.status-empty { color: var(--vscode-editorWarning-foreground); }
.status-running { color: var(--vscode-descriptionForeground); }
.row-error { color: var(--vscode-errorForeground); font-size: 0.92em; }
`;

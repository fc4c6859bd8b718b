// The "Compare with Previous Read" view: one webview panel per manifest stream showing the diff of
// `connector-manifest test` (records by primary key, inferred schema) the server computed. Queues the
// result until the page's script says it is ready.
import * as vscode from 'vscode';
import { webviewHtml, webviewOptions } from './webviewHtml';
import type { StreamTarget } from '../services';
import { columnBesideManifest, trackPanelColumn } from './besideColumn';

import type { CompareViewMessage, CompareViewRequest } from '../webviewMessages';

const CSS = `
.sides { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
.sides .side-label { color: var(--vscode-descriptionForeground); }
section.diff-section { margin: 12px 0; }
ul.keys { margin: 4px 0; padding-left: 18px; font-family: var(--vscode-editor-font-family); }
li.added { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-foreground)); }
li.removed { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-foreground)); }
table.changes td.before { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-foreground)); }
table.changes td.after { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-foreground)); }
details.record-change { border: 1px solid var(--vscode-panel-border); border-radius: 3px; margin: 4px 0; padding: 2px 8px; }
details.record-change > summary { cursor: pointer; font-family: var(--vscode-editor-font-family); padding: 2px 0; }
`;

export class ComparePanel {
  private static readonly open = new Map<string, ComparePanel>();
  private ready = false;
  private pending: CompareViewMessage | null = null;
  private transcript = '';
  private disposed = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private refresh: () => void,
  ) {
    panel.webview.onDidReceiveMessage((m: CompareViewRequest) => {
      if (m.type === 'ready') {
        this.ready = true;
        if (this.pending) void this.panel.webview.postMessage(this.pending);
        this.pending = null;
      } else if (m.type === 'refresh') this.refresh();
    });
    panel.onDidDispose(() => {
      this.disposed = true;
      for (const [k, v] of ComparePanel.open) if (v === this) ComparePanel.open.delete(k);
    });
  }

  /** Shows the comparison of a stream, in its panel (reused) beside the editor. */
  static show(
    extensionUri: vscode.Uri,
    target: StreamTarget,
    result: Extract<CompareViewMessage, { type: 'comparison' }>['result'],
    refresh: () => void,
  ): ComparePanel {
    return ComparePanel.open_(extensionUri, target, `Compare: ${target.streamName}`, '', { type: 'comparison', result }, refresh);
  }

  /** Shows the comparison of a stream's reads on the two engines, in its own panel (reused). */
  static showEngines(
    extensionUri: vscode.Uri,
    target: StreamTarget,
    result: Extract<CompareViewMessage, { type: 'engines' }>['result'],
    refresh: () => void,
  ): ComparePanel {
    return ComparePanel.open_(
      extensionUri,
      target,
      `Built-in vs CDK: ${target.streamName}`,
      '#engines',
      { type: 'engines', result },
      refresh,
    );
  }

  private static open_(
    extensionUri: vscode.Uri,
    target: StreamTarget,
    title: string,
    keySuffix: string,
    message: CompareViewMessage,
    refresh: () => void,
  ): ComparePanel {
    const key = `${target.uri}#${target.streamName}${keySuffix}`;
    let view = ComparePanel.open.get(key);
    if (!view || view.disposed) {
      const panel = vscode.window.createWebviewPanel(
        'airbyte.compare',
        title,
        { viewColumn: columnBesideManifest(vscode.Uri.parse(target.uri)), preserveFocus: true },
        webviewOptions(extensionUri),
      );
      trackPanelColumn(panel);
      panel.webview.html = webviewHtml(panel.webview, extensionUri, 'compare', title, CSS);
      view = new ComparePanel(panel, refresh);
      ComparePanel.open.set(key, view);
    } else {
      view.refresh = refresh;
      view.panel.reveal(view.panel.viewColumn, true);
    }
    view.post(message);
    return view;
  }

  /** What the open comparison views were sent (the secret-safety test reads it). */
  static transcripts(): string {
    return [...ComparePanel.open.values()].map((p) => p.transcript).join('\n');
  }

  private post(message: CompareViewMessage): void {
    if (this.disposed) return;
    this.transcript = JSON.stringify(message);
    if (this.ready) void this.panel.webview.postMessage(message);
    else this.pending = message;
  }
}

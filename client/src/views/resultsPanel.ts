// The results view of test reads: one webview panel per manifest (it shows the stream that ran last), in
// the column beside the manifest that every panel of ours shares (besideColumn.ts), fed by messages
// (start, progress, result, failed). Queues messages until the page's script says it is ready.
import * as vscode from 'vscode';
import { webviewHtml, webviewOptions } from './webviewHtml';
import { columnBesideManifest, trackPanelColumn } from './besideColumn';
import type { CurlSource } from '../../../server/src/runtime/shared/curlCommand';
import type {
  CheckConnectionResult,
  ResultsViewMessage,
  SchemaDifferencesResult,
  ShownReadFailure,
  ShownStreamRead,
  TestReadProgress,
} from '../../../server/src/protocol';

import type { ResultsViewRequest } from '../webviewMessages';
export type { ResultsViewRequest } from '../webviewMessages';

/** Handles the panel's requests for one stream (rerun, go to line, write the inferred schema). */
export type ResultsViewActions = {
  rerun(): void;
  runWithLimits(): void;
  writeSchema(schema: unknown): void;
  /** "Save as cassette…" and "Compare with previous read" (commands/cassettes.ts). */
  saveCassette?(): void;
  compare?(): void;
  /** "Run from state…" and "Continue from final state" (incremental/incrementalCommands.ts). */
  runFromState?(): void;
  continueFromState?(): void;
  /** The page shown changed (inlay hints evaluate on it). */
  selectPage?(slice: number, page: number): void;
};

/** The results panel of one manifest; reused for every stream of it that runs. */
export class ResultsPanel {
  private static readonly open = new Map<string, ResultsPanel>();
  private readonly openableFiles = new Set<string>();
  private ready = false;
  private queue: ResultsViewMessage[] = [];
  /** Every message sent to the page, as JSON lines: what the page can show (read by the secret-safety test). */
  private transcript: string[] = [];
  private disposed = false;
  /** The stream of the read shown ("Copy as cURL with secrets" re-renders its requester). */
  private stream = '';
  /** "Copy as cURL" of a shown request (commands/copyAsCurl.ts, set at activation). */
  static copyAsCurl: ((manifest: vscode.Uri, stream: string, request: CurlSource, withSecrets: boolean) => void) | undefined;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly manifest: vscode.Uri,
    private actions: ResultsViewActions,
  ) {
    panel.webview.onDidReceiveMessage((m: ResultsViewRequest) => this.onMessage(m));
    const tracking = trackPanelColumn(panel);
    panel.onDidDispose(() => {
      tracking.dispose();
      this.disposed = true;
      for (const [k, v] of ResultsPanel.open) if (v === this) ResultsPanel.open.delete(k);
    });
  }

  /** Shows (or reveals) the panel of a stream. */
  static show(extensionUri: vscode.Uri, manifest: vscode.Uri, stream: string, actions: ResultsViewActions): ResultsPanel {
    const key = manifest.toString();
    const title = `Test read: ${stream}`;
    const existing = ResultsPanel.open.get(key);
    if (existing && !existing.disposed) {
      existing.actions = actions;
      existing.panel.title = title;
      // Left where it is when it is already beside the manifest (the user may have moved it).
      const column = columnBesideManifest(manifest);
      if (existing.panel.viewColumn === column || !existing.panel.visible) existing.panel.reveal(column, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      'airbyte.results',
      title,
      { viewColumn: columnBesideManifest(manifest), preserveFocus: true },
      webviewOptions(extensionUri),
    );
    panel.webview.html = webviewHtml(panel.webview, extensionUri, 'results', title);
    const created = new ResultsPanel(panel, manifest, actions);
    ResultsPanel.open.set(key, created);
    return created;
  }

  /** The transcript of the most recently used panels, for tests. */
  static transcripts(): string {
    return [...ResultsPanel.open.values()].map((p) => p.transcript.join('\n')).join('\n');
  }

  /** `replayedFrom`: the cassette a replay reads (the view marks the read as replayed). */
  start(stream: string, limits: Record<string, number | undefined>, replayedFrom?: string): void {
    // One panel shows every stream of the manifest: the transcript keeps the recent reads of all of them.
    if (this.transcript.length > 2000) this.transcript = this.transcript.slice(-1000);
    this.stream = stream;
    this.post({ type: 'start', stream, limits, ...(replayedFrom ? { replayedFrom } : {}) });
  }
  /** Declared vs inferred schema, computed by the server after the read. */
  schemaDifferences(result: SchemaDifferencesResult): void {
    this.post({ type: 'schemaDifferences', result });
  }
  progress(event: TestReadProgress): void {
    this.post({ type: 'progress', event });
  }
  result(result: ShownStreamRead): void {
    this.post({ type: 'result', result });
  }
  failed(error: ShownReadFailure): void {
    // Only the files this failure names may be opened from the view.
    for (const f of error.files ?? []) this.openableFiles.add(f.path);
    this.post({ type: 'failed', error });
  }
  /** A connection check (the "Check connection" lens): started, then its status. */
  checkStart(): void {
    this.transcript = [];
    this.post({ type: 'checkStart' });
  }
  check(result: CheckConnectionResult): void {
    this.post({ type: 'check', result });
  }

  private post(message: ResultsViewMessage): void {
    if (this.disposed) return;
    this.transcript.push(JSON.stringify(message));
    if (this.ready) void this.panel.webview.postMessage(message);
    else this.queue.push(message);
  }

  private onMessage(m: ResultsViewRequest): void {
    if (m.type === 'ready') {
      this.ready = true;
      for (const q of this.queue.splice(0)) void this.panel.webview.postMessage(q);
    } else if (m.type === 'rerun') {
      this.actions.rerun();
    } else if (m.type === 'runWithLimits') {
      this.actions.runWithLimits();
    } else if (m.type === 'revealRange' && m.range && Number.isInteger(m.range.start?.line) && Number.isInteger(m.range.end?.line)) {
      // The component the error blames, selected in the manifest (a definition it references, if so).
      const r = m.range;
      const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
      void vscode.window
        .showTextDocument(this.manifest, { selection: range, viewColumn: vscode.ViewColumn.One })
        .then((editor) => editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport));
    } else if (m.type === 'openLine' && Number.isInteger(m.line)) {
      const pos = new vscode.Position(m.line, 0);
      void vscode.window.showTextDocument(this.manifest, { selection: new vscode.Range(pos, pos), viewColumn: vscode.ViewColumn.One });
    } else if (m.type === 'writeSchema') {
      this.actions.writeSchema(m.schema);
    } else if (m.type === 'saveCassette') {
      this.actions.saveCassette?.();
    } else if (m.type === 'compare') {
      this.actions.compare?.();
    } else if (m.type === 'openFile' && this.openableFiles.has(m.path) && Number.isInteger(m.line)) {
      // A traceback frame in the connector's components.py (CDK engine).
      const pos = new vscode.Position(Math.max(0, m.line - 1), 0);
      void vscode.window.showTextDocument(vscode.Uri.file(m.path), {
        selection: new vscode.Range(pos, pos),
        viewColumn: vscode.ViewColumn.One,
      });
    } else if (m.type === 'runFromState') {
      this.actions.runFromState?.();
    } else if (m.type === 'continueFromState') {
      this.actions.continueFromState?.();
    } else if (m.type === 'selectPage' && Number.isInteger(m.slice) && Number.isInteger(m.page)) {
      this.actions.selectPage?.(m.slice, m.page);
    } else if (m.type === 'copyCurl' && m.request && typeof m.request === 'object') {
      ResultsPanel.copyAsCurl?.(this.manifest, this.stream, m.request, m.withSecrets === true);
    }
  }
}

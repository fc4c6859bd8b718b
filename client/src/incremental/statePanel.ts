// "Input state…": one webview per manifest stream with the input-state form built from the stream's cursor
// (stateFormModel.ts), the raw JSON as the advanced view, and the chain of reads of this session. Its
// buttons save the state (workspace state) and run the stream from it, continue from the last final state,
// or run the incremental check; the actions are the commands of incrementalCommands.ts.
import * as vscode from 'vscode';
import type { IncrementalStream } from '../../../server/src/protocol';
import { webviewHtml, webviewOptions } from '../views/webviewHtml';
import { FORM_CSS } from '../views/formStyles';
import { formFromState, stateFromForm, type StateFormValues } from './stateFormModel';
import { partitionsOf, type InputStates } from './inputStates';

type Obj = Record<string, unknown>;

import type { StatePanelMessage, StatePanelRequest } from '../webviewMessages';

export type StatePanelActions = {
  run(state: Obj | null): void;
  continueRead(): void;
  check(state: Obj | null): void;
};

/** The form of one stream; reused when asked again. */
export class StatePanel {
  private static readonly open = new Map<string, StatePanel>();
  private ready = false;
  private problems: string[] = [];
  private saved = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly uri: string,
    private readonly stream: string,
    private readonly states: InputStates,
    private cursor: { cursor: IncrementalStream | null; error: string | null },
    private actions: StatePanelActions,
  ) {
    const sub = states.onDidChange((u, s) => {
      if (u === uri && s === stream) this.refresh();
    });
    panel.onDidDispose(() => {
      sub.dispose();
      StatePanel.open.delete(`${uri}#${stream}`);
    });
    panel.webview.onDidReceiveMessage((m: StatePanelRequest) => void this.onMessage(m));
  }

  /** Shows (or reveals) the form of a stream. */
  static show(
    extensionUri: vscode.Uri,
    uri: string,
    stream: string,
    states: InputStates,
    cursor: { cursor: IncrementalStream | null; error: string | null },
    actions: StatePanelActions,
  ): StatePanel {
    const key = `${uri}#${stream}`;
    const existing = StatePanel.open.get(key);
    if (existing) {
      existing.cursor = cursor;
      existing.actions = actions;
      existing.panel.reveal(vscode.ViewColumn.Beside, false);
      existing.refresh();
      return existing;
    }
    const title = `Input state: ${stream}`;
    const panel = vscode.window.createWebviewPanel(
      'airbyte.inputState',
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      webviewOptions(extensionUri),
    );
    panel.webview.html = webviewHtml(panel.webview, extensionUri, 'stateForm', title, FORM_CSS + STATE_CSS);
    const created = new StatePanel(panel, uri, stream, states, cursor, actions);
    StatePanel.open.set(key, created);
    return created;
  }

  /** Re-renders the open form of a stream (after a read, a save elsewhere). */
  static refresh(uri: string, stream: string): void {
    StatePanel.open.get(`${uri}#${stream}`)?.refresh();
  }

  private message(): StatePanelMessage {
    const saved = this.states.get(this.uri, this.stream) ?? null;
    const cursor = this.cursor.cursor;
    const last = this.states.lastRead(this.uri, this.stream);
    const partitions = cursor && last ? partitionsOf(last, [cursor.startKey, cursor.endKey]) : [];
    const chain = this.states.chain(this.uri, this.stream);
    const continueFrom = chain.length ? chain[chain.length - 1].finalState : null;
    return {
      type: 'init',
      stream: this.stream,
      cursor,
      error: this.cursor.error,
      form: cursor ? formFromState(cursor, saved, partitions) : null,
      raw: JSON.stringify(saved, null, 2),
      chain,
      continueFrom,
      problems: this.problems,
      saved: this.saved,
    };
  }

  private refresh(): void {
    if (this.ready) void this.panel.webview.postMessage(this.message());
  }

  /** The state the page sent (form or raw JSON), or the problems with it. */
  private stateOf(m: { form?: StateFormValues; raw?: string }): { state: Obj | null } | { problems: string[] } {
    if (typeof m.raw === 'string') {
      if (!m.raw.trim() || m.raw.trim() === 'null') return { state: null };
      try {
        const v = JSON.parse(m.raw) as unknown;
        if (!v || typeof v !== 'object' || Array.isArray(v))
          return { problems: ["The raw state must be a JSON object (the stream's state, as the CDK writes it) or null."] };
        return { state: v as Obj };
      } catch (e) {
        return { problems: [`The raw state is not JSON: ${(e as Error).message}`] };
      }
    }
    if (!this.cursor.cursor || !m.form) return { problems: ["The stream's cursor is unknown; use the raw JSON view."] };
    return stateFromForm(this.cursor.cursor, m.form);
  }

  private async onMessage(m: StatePanelRequest): Promise<void> {
    if (m.type === 'ready') {
      this.ready = true;
      this.refresh();
      return;
    }
    if (m.type === 'continue') return this.actions.continueRead();
    if (m.type === 'clear') {
      this.problems = [];
      this.saved = false;
      await this.states.clear(this.uri, this.stream);
      return;
    }
    const parsed = this.stateOf(m as { form?: StateFormValues; raw?: string });
    if ('problems' in parsed) {
      this.problems = parsed.problems;
      this.saved = false;
      this.refresh();
      return;
    }
    this.problems = [];
    this.saved = true;
    // Saved first: the lens's "Run from state" and the next session start from it too.
    await this.states.set(this.uri, this.stream, parsed.state);
    if (m.type === 'run') this.actions.run(parsed.state);
    else if (m.type === 'check') this.actions.check(parsed.state);
  }
}

const STATE_CSS = `
.cursor-line { color: var(--vscode-descriptionForeground); margin: 4px 0 10px; }
.value-row { display: flex; gap: 8px; align-items: center; }
.value-row input[type=text] { flex: 1; min-width: 220px; }
table.partitions td, table.partitions th { white-space: normal; max-width: none; }
table.partitions code { font-family: var(--vscode-editor-font-family); }
ol.chain { padding-left: 20px; }
ol.chain li { margin: 6px 0; }
ol.chain code { font-family: var(--vscode-editor-font-family); overflow-wrap: anywhere; }
.added { font-weight: 600; }
textarea.raw { width: 100%; min-height: 180px; font-family: var(--vscode-editor-font-family); }
`;

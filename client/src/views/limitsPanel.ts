// "Run with limits…": one small form with the three test-read limits, pre-filled with their current
// values (the last limits used for the stream in this session, else the airbyte.testRead.* settings).
// Resolves with the limits on Run, undefined on Cancel or when the panel is closed.
import * as vscode from 'vscode';
import { LIMIT_FIELDS, checkLimit, type LimitKey } from '../limitFields';
import { webviewHtml, webviewOptions } from './webviewHtml';
import { FORM_CSS } from './formStyles';
import { columnBesideManifest, trackPanelColumn } from './besideColumn';
import type { LimitsMessage, LimitsRequest } from '../webviewMessages';

export type RunLimits = Record<LimitKey, number>;

const SETTING: Record<LimitKey, string> = {
  maxRecords: 'airbyte.testRead.maxRecords',
  maxPagesPerSlice: 'airbyte.testRead.maxPagesPerSlice',
  maxSlices: 'airbyte.testRead.maxSlices',
};
/** Limits last run per stream key, so the form offers them again. */
const lastUsed = new Map<string, RunLimits>();
let openPanel: vscode.WebviewPanel | undefined;

/** Shows the form for a stream; `settings` are the limits the settings give. */
export function askLimits(
  extensionUri: vscode.Uri,
  streamKey: string,
  streamName: string,
  settings: RunLimits,
): Promise<RunLimits | undefined> {
  openPanel?.dispose(); // one limits form at a time: the latest request wins
  const previous = lastUsed.get(streamKey);
  const limits = previous ?? settings;
  const sources = Object.fromEntries(LIMIT_FIELDS.map((f) => [f.key, previous ? 'last run' : `setting ${SETTING[f.key]}`]));
  const title = `Run with limits: ${streamName}`;
  // streamKey is `<manifest uri>#<stream>`: the form opens in the column beside that manifest.
  const manifest = vscode.Uri.parse(streamKey.slice(0, streamKey.lastIndexOf('#')));
  const panel = vscode.window.createWebviewPanel(
    'airbyte.runLimits',
    title,
    { viewColumn: columnBesideManifest(manifest), preserveFocus: false },
    webviewOptions(extensionUri),
  );
  openPanel = panel;
  const tracking = trackPanelColumn(panel);
  panel.webview.html = webviewHtml(panel.webview, extensionUri, 'limits', title, FORM_CSS);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: RunLimits | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      panel.dispose();
    };
    panel.onDidDispose(() => {
      tracking.dispose();
      if (openPanel === panel) openPanel = undefined;
      finish(undefined);
    });
    panel.webview.onDidReceiveMessage((m: LimitsRequest) => {
      if (m.type === 'ready') void panel.webview.postMessage({ type: 'init', stream: streamName, limits, sources } satisfies LimitsMessage);
      else if (m.type === 'cancel') finish(undefined);
      else if (m.type === 'run' && m.limits) {
        const out = {} as RunLimits;
        for (const f of LIMIT_FIELDS) {
          const v = String(m.limits[f.key] ?? '');
          if (checkLimit(v)) return; // the page validates first; refuse anything else quietly
          out[f.key] = Number(v);
        }
        lastUsed.set(streamKey, out);
        finish(out);
      }
    });
  });
}

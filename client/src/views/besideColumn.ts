// Where the extension's panels (results, testing-values form, limits, compare) open: one column beside
// the manifest, shared by all of them, so a second panel does not open a third column and squeeze the
// manifest. vscode.ViewColumn.Beside alone is relative to the *active* group: from a panel that already
// sits beside the manifest, it would open yet another column.
import * as vscode from 'vscode';

/** The column the last of our panels was shown in. */
let panelColumn: vscode.ViewColumn | undefined;

/** The column of the group showing `manifest` (the active one when several do), or undefined. */
function manifestColumn(manifest: vscode.Uri): vscode.ViewColumn | undefined {
  const key = manifest.toString();
  const active = vscode.window.activeTextEditor;
  if (active?.document.uri.toString() === key && active.viewColumn) return active.viewColumn;
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key && e.viewColumn);
  if (visible?.viewColumn) return visible.viewColumn;
  for (const group of vscode.window.tabGroups.all) {
    if (group.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key)) return group.viewColumn;
  }
  return undefined;
}

/** The column for a panel of `manifest`: the one our panels already use if it is not the manifest's, else the next one. */
export function columnBesideManifest(manifest: vscode.Uri): vscode.ViewColumn {
  const own = manifestColumn(manifest);
  const groups = new Set(vscode.window.tabGroups.all.map((g) => g.viewColumn));
  if (panelColumn !== undefined && panelColumn !== own && groups.has(panelColumn)) return panelColumn;
  if (own === undefined) return vscode.ViewColumn.Beside;
  // The group right of the manifest when there is one (or a new one there); left of it when the manifest is last of nine.
  return (own < vscode.ViewColumn.Nine ? own + 1 : own - 1) as vscode.ViewColumn;
}

/** Remembers where a panel of ours is (call after creating or revealing it, and when it moves). */
export function trackPanelColumn(panel: vscode.WebviewPanel): vscode.Disposable {
  if (panel.viewColumn !== undefined) panelColumn = panel.viewColumn;
  return panel.onDidChangeViewState(() => {
    if (panel.viewColumn !== undefined && panel.visible) panelColumn = panel.viewColumn;
  });
}

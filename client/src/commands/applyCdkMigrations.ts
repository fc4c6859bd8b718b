// "Airbyte: Apply All CDK Migrations": asks the language server for its source action of that kind on the
// active manifest (server/src/features/cdkMigrations.ts) and applies it, as Source Action… would.
import * as vscode from 'vscode';

/** The kind the server offers the action under (APPLY_CDK_MIGRATIONS_KIND). */
export const APPLY_CDK_MIGRATIONS_KIND = 'source.airbyte.cdkMigrations';

export async function applyCdkMigrations(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'yaml') {
    void vscode.window.showInformationMessage('Open a connector manifest (YAML) to apply the CDK migrations to it.');
    return;
  }
  const kind = vscode.CodeActionKind.Empty.append(APPLY_CDK_MIGRATIONS_KIND);
  const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      whole,
      kind.value,
    )) ?? [];
  const action = actions.find((a) => a.kind && kind.contains(a.kind) && a.edit);
  if (!action?.edit) {
    void vscode.window.showInformationMessage(
      'No CDK migration applies to this manifest: no deprecated `url_base`/`path` or `request_body_json`/`request_body_data` the editor can rewrite.',
    );
    return;
  }
  await vscode.workspace.applyEdit(action.edit);
  void vscode.window.showInformationMessage(action.title.replace(/^Apply all CDK migrations/, 'Applied the CDK migrations'));
}

// The folder both extension-host launchers run the suites in (code-server: run.mjs; desktop VS Code:
// vscode.mjs): a copy of the test workspace plus the demo manifests, quiet user settings, and the
// options file the suites read from beside the workspace (test/e2e/host/helpers.ts readRunOptions).
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Fills `runDir` (workspace/, ud/User/settings.json, e2e-options.json); returns the workspace path. */
export function prepareTestWorkspace(root, runDir, { grep = null, screenshots = null } = {}) {
  const workspace = join(runDir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  cpSync(join(root, 'test', 'e2e', 'workspace'), workspace, { recursive: true });
  // The demo manifests, without demo/workspace/config.json: the tests enter their own testing values.
  mkdirSync(join(workspace, 'demo'), { recursive: true });
  for (const f of readdirSync(join(root, 'demo', 'workspace')).filter((n) => /\.ya?ml$/.test(n))) {
    cpSync(join(root, 'demo', 'workspace', f), join(workspace, 'demo', f));
  }
  // The manifest-only connector with components.py (Airbyte CDK engine, docs/engines.md).
  cpSync(join(root, 'demo', 'workspace', 'custom-components'), join(workspace, 'demo', 'custom-components'), { recursive: true });
  // Settings that keep the workbench quiet and deterministic (no welcome page, no trust prompt).
  mkdirSync(join(runDir, 'ud', 'User'), { recursive: true });
  writeFileSync(
    join(runDir, 'ud', 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'workbench.tips.enabled': false,
        'window.commandCenter': false,
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'workbench.editor.enablePreview': false,
        // As in the demo workspace: the browser workbench would save an edit after a second, so a step
        // that edits and then reverts would race the save on a busy machine.
        'files.autoSave': 'off',
        // The language client's protocol trace on: the secret checks then cover it too.
        'airbyteManifest.trace.server': 'verbose',
      },
      null,
      2,
    ),
  );
  writeFileSync(join(runDir, 'e2e-options.json'), JSON.stringify({ grep, screenshots }));
  return workspace;
}

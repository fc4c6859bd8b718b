// `npm start` checks that the extension really activated in the VS Code it opened before it hands the
// user a URL: it sets ACTIVATION_REPORT_ENV in that VS Code's environment (the extension host inherits
// it) and activation writes one JSON report to that path, success or failure. Unset: nothing is written.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

export const ACTIVATION_REPORT_ENV = 'AIRBYTE_STUDIO_ACTIVATION_REPORT';

export interface ActivationReport {
  ok: boolean;
  version: string;
  /** Where VS Code loaded the extension from (the installed copy, or the development folder). */
  extensionPath: string;
  /** 'production' for an installed extension, 'development' under --extensionDevelopmentPath. */
  mode: 'production' | 'development' | 'test';
  /** activate() start to language server ready. */
  activationMs: number;
  error?: string;
}

const MODES: Record<vscode.ExtensionMode, ActivationReport['mode']> = {
  [vscode.ExtensionMode.Production]: 'production',
  [vscode.ExtensionMode.Development]: 'development',
  [vscode.ExtensionMode.Test]: 'test',
};

/** Writes the report when the variable is set; never throws (a failed write shows as a missing report). */
export function writeActivationReport(context: vscode.ExtensionContext, startedAt: number, error?: unknown): void {
  const file = process.env[ACTIVATION_REPORT_ENV];
  if (!file) return;
  const report: ActivationReport = {
    ok: error === undefined,
    version: String((context.extension.packageJSON as { version?: unknown }).version),
    extensionPath: context.extensionPath,
    mode: MODES[context.extensionMode],
    activationMs: Date.now() - startedAt,
    ...(error === undefined ? {} : { error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  };
  try {
    fs.writeFileSync(file, JSON.stringify(report));
  } catch {
    // The launcher reports "no activation report" with the extension host log; activation goes on.
  }
}

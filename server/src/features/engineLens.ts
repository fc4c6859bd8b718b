// The "Run stream" lens of a stream with custom components (Python classes in components.py): it says
// that the stream runs on the Airbyte CDK engine, or — when no usable CDK was found — what to install
// instead of offering a read that would fail (docs/engines.md).
import type { Command } from 'vscode-languageserver';
import { customClassNames } from '../cdkEngine/customComponents';
import { statusForManifest, type CdkEngineStatus } from '../cdkEngine/pythonProbe';

/** Command id of the lens that explains what the CDK engine needs. */
export const SHOW_CDK_SETUP_COMMAND = 'airbyte.showCdkSetup';

/** The CDK engine as the lens sees it: null while the interpreter is being probed. */
export type CdkLensStatus = CdkEngineStatus | null;

/**
 * The run lens's command for a stream, or null when the stream has no custom components (the plain
 * lens applies). `root` is the manifest value, `node` the stream's list entry. Never throws.
 */
export function cdkRunLens(
  root: unknown,
  node: unknown,
  streamName: string,
  args: object[],
  run: string,
  statusOf: () => CdkLensStatus,
): Command | null {
  const classes = customClassNames(root, node);
  if (!classes.length) return null;
  // Asked only for streams that need the CDK: asking starts the interpreter's probe.
  const status = statusOf();
  if (status === null) return { title: `▶ Run stream ${streamName} on the Airbyte CDK (checking Python…)`, command: run, arguments: args };
  const version = (root as Record<string, unknown> | null)?.version;
  const judged = statusForManifest(status, typeof version === 'string' ? version : null);
  if (judged.ok) return { title: `▶ Run stream ${streamName} on the Airbyte CDK`, command: run, arguments: args };
  const what =
    judged.problem === 'no-python'
      ? 'install Python 3 or set airbyte.cdk.python'
      : judged.problem === 'old-cdk'
        ? `upgrade airbyte-cdk: ${judged.installCommand}`
        : `install airbyte-cdk: ${judged.installCommand}`;
  return {
    title: `⚠ ${streamName} uses Python components (${classes[0].split('.').pop()}${classes.length > 1 ? ', …' : ''}) — ${what}`,
    command: SHOW_CDK_SETUP_COMMAND,
    arguments: [{ ...(args[0] as object), message: judged.message, installCommand: judged.installCommand }],
  };
}

// The "No testing values" notification of Run stream: at most three short buttons, because a VS Code
// notification cuts longer ones ("Import con…", "Run A…"); what a button would need to say (the manifest
// whose values Copy takes) goes into the message, which wraps. No vscode import (unit-tested).

/** Button labels, exported for the handlers and the tests. */
export const IMPORT_CONFIG = 'Import config.json';
export const COPY_VALUES = 'Copy Values…';
export const SET_VALUES = 'Set Values…';

/**
 * The message and buttons for a manifest without testing values. `sources`: labels of the manifests whose
 * values could be copied; `goOn` names running without values (dropped when three better choices exist).
 */
export function noValuesPrompt(
  manifest: string,
  hasConfigJson: boolean,
  sources: string[],
  goOn: string,
): { message: string; choices: string[]; copy: string; set: string } {
  let message = `No testing values are set for ${manifest}. Streams that need credentials will fail.`;
  if (hasConfigJson) message += ` ${IMPORT_CONFIG} imports the config.json beside it.`;
  if (sources.length === 1) message += ` ${COPY_VALUES} copies the values of ${sources[0]}.`;
  else if (sources.length > 1) message += ` ${COPY_VALUES} lets you pick one of ${sources.length} manifests that have values.`;
  const choices = [...(hasConfigJson ? [IMPORT_CONFIG] : []), ...(sources.length ? [COPY_VALUES] : []), SET_VALUES, goOn].slice(0, 3);
  return { message, choices, copy: COPY_VALUES, set: SET_VALUES };
}

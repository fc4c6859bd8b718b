// What the handlers of the custom requests read from a request: the manifest it names (the open
// document, else the file on disk) and its config (opened when sealed). Shared by every handler, so
// no handler imports another for them.
import { fileURLToPath } from 'node:url';
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import { openConfig, type ConfigPayload } from './protocol';
import { sealKey } from './sealKey';
import { readUserFile } from './runtime';

/** Returns the parsed manifest value of an open document, or undefined when it is not open. */
export type OpenManifestLookup = (uri: string) => { value: unknown; hasErrors: boolean } | undefined;

/** Loads the manifest value for a URI: the open document first, the file on disk otherwise. */
export async function loadManifestValue(uri: string, lookup: OpenManifestLookup): Promise<unknown> {
  const open = lookup(uri);
  if (open) return open.value;
  if (!uri.startsWith('file:')) throw new ResponseError(ErrorCodes.InvalidParams, `The manifest ${uri} is not open and is not a file.`);
  // Capped like every file read on the user's behalf (shared/userFiles.ts).
  const input = readUserFile(fileURLToPath(uri), { root: null, what: 'the manifest' });
  if ('error' in input) throw new ResponseError(ErrorCodes.InvalidParams, `Cannot read the manifest ${uri}: ${input.error}`);
  return runtime.parseManifest(input.text).value;
}

/** The config of a request, opened when sealed; a config that cannot be opened is an invalid request. */
export function openConfigParam(value: ConfigPayload | undefined): Record<string, unknown> {
  try {
    return openConfig(value, sealKey);
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, `The testing values could not be read: ${(e as Error).message}`);
  }
}

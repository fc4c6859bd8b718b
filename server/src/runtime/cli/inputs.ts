// The inputs of the commands that run a manifest (read, streams): the manifest file parsed as YAML and
// the JSON config, with problems written to stderr in `file:line:col` form.
import { dirname, resolve } from 'node:path';
import { parseManifest, type ParsedManifest } from '../manifest/parse';
import { readUserFile } from '../files/userFiles';
import { MAX_INPUT_BYTES } from './inputFile';
import { terminalSafe } from './terminalText';
import { prototypePathErrors } from './prototypePaths';

type Out = NodeJS.WritableStream;

/** The parsed manifest and config, or null after reporting why not (the caller exits with 2). */
export function loadManifestAndConfig(
  command: string,
  manifestFile: string,
  configFile: string | null,
  err: Out,
): { manifest: Record<string, unknown>; config: Record<string, unknown>; parsed: ParsedManifest } | null {
  // The files policy (shared/userFiles.ts): capped reads, no link out of the manifest's folder.
  const manifestInput = readUserFile(manifestFile, { root: null, what: 'the manifest', maxBytes: MAX_INPUT_BYTES });
  if ('error' in manifestInput) {
    err.write(`${command}: ${terminalSafe(manifestInput.error)}\n`);
    return null;
  }
  const manifestText = manifestInput.text;
  let configText = '{}';
  if (configFile !== null) {
    const configInput = readUserFile(configFile, { root: dirname(resolve(manifestFile)), what: 'the config' });
    if ('error' in configInput) {
      err.write(`${command}: ${terminalSafe(configInput.error)}\n`);
      return null;
    }
    configText = configInput.text;
  }
  const parsed = parseManifest(manifestText);
  const yamlErrors = parsed.problems.filter((p) => p.severity === 'error');
  if (yamlErrors.length || !parsed.value || typeof parsed.value !== 'object') {
    for (const p of yamlErrors) {
      const pos = parsed.locator.lineCol(p.span.start);
      err.write(`${terminalSafe(`${manifestFile}:${pos.line}:${pos.col}: ${p.message}`)}\n`);
    }
    if (!yamlErrors.length) err.write(`${manifestFile}: the manifest is empty or not a mapping\n`);
    return null;
  }
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(configText);
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('the top level must be an object');
  } catch (e) {
    err.write(`${command}: ${terminalSafe(`${configFile} is not a valid JSON config: ${(e as Error).message}`)}\n`);
    return null;
  }
  const refusedPaths = prototypePathErrors(parsed, manifestFile);
  if (refusedPaths.length) {
    for (const line of refusedPaths) err.write(`${terminalSafe(line)}\n`);
    return null;
  }
  return { manifest: parsed.value as Record<string, unknown>, config, parsed };
}

// The inputs of the commands that run a manifest (read, streams): the manifest file parsed as YAML and
// the JSON config, with problems written to stderr in `file:line:col` form.
import { readFileSync } from 'node:fs';
import { parseManifest, type ParsedManifest } from '../manifest/parse';

type Out = NodeJS.WritableStream;

/** The parsed manifest and config, or null after reporting why not (the caller exits with 2). */
export function loadManifestAndConfig(command: string, manifestFile: string, configFile: string | null, err: Out): { manifest: Record<string, unknown>; config: Record<string, unknown>; parsed: ParsedManifest } | null {
  let manifestText: string;
  let configText = '{}';
  try {
    manifestText = readFileSync(manifestFile, 'utf8');
    if (configFile !== null) configText = readFileSync(configFile, 'utf8');
  } catch (e) {
    err.write(`${command}: cannot read ${(e as NodeJS.ErrnoException).path ?? 'input'} (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
    return null;
  }
  const parsed = parseManifest(manifestText);
  const yamlErrors = parsed.problems.filter((p) => p.severity === 'error');
  if (yamlErrors.length || !parsed.value || typeof parsed.value !== 'object') {
    for (const p of yamlErrors) {
      const pos = parsed.lineCounter.linePos(p.span.start);
      err.write(`${manifestFile}:${pos.line}:${pos.col}: ${p.message}\n`);
    }
    if (!yamlErrors.length) err.write(`${manifestFile}: the manifest is empty or not a mapping\n`);
    return null;
  }
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(configText);
    if (!config || typeof config !== 'object' || Array.isArray(config)) throw new Error('the top level must be an object');
  } catch (e) {
    err.write(`${command}: ${configFile} is not a valid JSON config: ${(e as Error).message}\n`);
    return null;
  }
  return { manifest: parsed.value as Record<string, unknown>, config, parsed };
}

// `connector-manifest scaffold --openapi FILE [--operation "GET /path" ...] [--out manifest.yaml] [--force]`:
// a manifest from an OpenAPI / Swagger document (server/src/runtime/scaffold/), checked with the
// same validation as `validate`. Exit codes: 0 written without errors, 1 written with validation
// errors (a scaffolder bug: reported), 2 bad input (not a document, unknown operation, bad $ref).
import { existsSync } from 'node:fs';
import { parseManifest } from '../manifest/parse';
import { validateManifest } from '../validation/validateManifest';
import { writeUserFile } from '../files/userFiles';
import { scaffoldOpenApi } from '../scaffold/openapi/scaffoldOpenApi';
import { readInputText } from './inputFile';
import { terminalSafe } from './terminalText';
import { parseOptions, switchOption, valueOption } from './options';

type Out = NodeJS.WritableStream;

/** Largest document read: big public descriptions (GitHub's, Stripe's) are 10 MB or so. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** Runs the command; resolves with the exit code. */
export async function scaffoldCommand(args: string[], out: Out, err: Out): Promise<number> {
  let openapi = null as string | null;
  let outFile = null as string | null;
  let force = false as boolean;
  const operations: string[] = [];
  const problem = parseOptions(args, {
    options: {
      '--openapi': valueOption((v) => (openapi = v)),
      '--operation': valueOption((v) => operations.push(v)),
      '--out': valueOption((v) => (outFile = v)),
      '--force': switchOption(() => (force = true)),
    },
    positional: (a) => `unexpected argument "${a}"`,
  });
  if (problem !== undefined) return usage(err, problem);
  if (!openapi) return usage(err, 'name the document: --openapi FILE (OpenAPI 3.0/3.1 or Swagger 2.0, YAML or JSON)');
  if (outFile && existsSync(outFile) && !force) return usage(err, `${outFile} exists; not overwritten (add --force to replace it)`);
  const input = readInputText(openapi, MAX_DOCUMENT_BYTES);
  if ('error' in input) return usage(err, `${openapi}: ${input.error}`);
  const result = await scaffoldOpenApi(input.text, openapi, { operations });
  if (!result.ok) {
    err.write(`scaffold: ${terminalSafe(result.error.where)}: ${terminalSafe(result.error.message)}\n`);
    return 2;
  }
  const problems = validateManifest(parseManifest(result.manifest)).filter((p) => p.severity === 'error');
  if (outFile) {
    const written = writeUserFile(outFile, result.manifest, { root: null, what: 'manifest' });
    if (!written.ok) return usage(err, written.error);
    err.write(
      `scaffold: wrote ${terminalSafe(outFile)}: ${result.streams.length} stream${result.streams.length === 1 ? '' : 's'} (${terminalSafe(result.streams.slice(0, 10).join(', '))}${result.streams.length > 10 ? ', …' : ''}), ${result.inputs.length} input${result.inputs.length === 1 ? '' : 's'}${result.inputs.length ? ` (${terminalSafe(result.inputs.join(', '))})` : ''}. Check the commented guesses.\n`,
    );
  } else {
    out.write(result.manifest);
  }
  for (const p of problems) err.write(`scaffold: the generated manifest has an error (please report it): ${terminalSafe(p.message)}\n`);
  return problems.length > 0 ? 1 : 0;
}

function usage(err: Out, problem: string): number {
  err.write(`scaffold: ${problem}\n`);
  return 2;
}

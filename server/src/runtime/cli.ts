// `connector-manifest` command line: validate and read, over the same runtime API as the extension.
import { readFileSync } from 'node:fs';
import { parseManifest } from './manifest/parse';

const USAGE = `Usage:
  connector-manifest validate <files...> [--format json|pretty]
  connector-manifest read <manifest> --stream NAME --config config.json [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]`;

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command === 'validate') return validate(rest);
  process.stderr.write(`${USAGE}\n`);
  return 2;
}

function validate(args: string[]): number {
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let errors = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      process.stderr.write(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return 2;
    }
    const parsed = parseManifest(text);
    for (const p of parsed.problems) {
      const pos = parsed.lineCounter.linePos(p.span.start);
      process.stdout.write(`${file}:${pos.line}:${pos.col}: ${p.severity}: ${p.message} [${p.code}]\n`);
      if (p.severity === 'error') errors++;
    }
  }
  return errors > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));

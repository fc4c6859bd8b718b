// `connector-manifest validate <files...> [--format json|pretty]`: the language server's checks, headless.
import { readFileSync } from 'node:fs';
import { parseManifest } from '../manifest/parse';

/** Runs the command; returns the exit code (0 clean, 1 errors found, 2 unreadable input). */
export function validateCommand(args: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): number {
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0) {
    err.write('validate: name at least one manifest file\n');
    return 2;
  }
  let errors = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      err.write(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return 2;
    }
    const parsed = parseManifest(text);
    for (const p of parsed.problems) {
      const pos = parsed.lineCounter.linePos(p.span.start);
      out.write(`${file}:${pos.line}:${pos.col}: ${p.severity}: ${p.message} [${p.code}]\n`);
      if (p.severity === 'error') errors++;
    }
  }
  return errors > 0 ? 1 : 0;
}

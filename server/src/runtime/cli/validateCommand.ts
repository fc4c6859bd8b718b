// `connector-manifest validate <files...> [--format json|pretty] [--hints]`: the language server's checks
// (runtime/validation/validateManifest.ts), headless. Exit 0 clean, 1 errors found, 2 unreadable input
// (including a binary or oversized file: see inputFile.ts).
// Hints (deprecated fields, which editors strike through) are listed only with --hints.
import { parseManifest } from '../manifest/parse';
import { validateManifest } from '../validation/validateManifest';
import type { Problem } from '../problems';
import { readInputText } from './inputFile';
import { terminalSafe } from './terminalText';
import { parseOptions, switchOption, valueOption } from './options';

type FileReport = { file: string; problems: (Problem & { line: number; column: number })[] };

/** Runs the command; returns the exit code (0 clean, 1 errors found, 2 unreadable input or bad usage). */
export function validateCommand(args: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): number {
  let format = 'pretty' as string;
  let hints = false as boolean;
  const files: string[] = [];
  const problem = parseOptions(args, {
    options: { '--format': valueOption((v) => (format = v)), '--hints': switchOption(() => (hints = true)) },
    positional: (a) => {
      files.push(a);
      return undefined;
    },
    inline: ['--format'],
    emptyWhenMissing: ['--format'],
  });
  if (problem !== undefined) {
    err.write(`validate: ${problem}\n`);
    return 2;
  }
  if (format !== 'pretty' && format !== 'json') {
    err.write(`validate: --format must be json or pretty, not "${format}"\n`);
    return 2;
  }
  if (files.length === 0) {
    err.write('validate: name at least one manifest file\n');
    return 2;
  }
  let errors = 0;
  let unreadable = false;
  const reports: FileReport[] = [];
  for (const file of files) {
    const input = readInputText(file);
    if ('error' in input) {
      err.write(`${terminalSafe(file)}: ${input.error}\n`);
      unreadable = true;
      continue;
    }
    const parsed = parseManifest(input.text);
    const report: FileReport = { file, problems: [] };
    for (const p of validateManifest(parsed)) {
      if (p.severity === 'hint' && !hints) continue;
      const pos = parsed.locator.lineCol(p.span.start);
      report.problems.push({ ...p, line: pos.line, column: pos.col });
      if (p.severity === 'error') errors++;
    }
    reports.push(report);
  }
  if (format === 'json') {
    out.write(JSON.stringify({ files: reports }, null, 2) + '\n');
  } else {
    for (const r of reports) {
      // Messages quote the manifest (keys, values): never raw control characters on a terminal.
      for (const p of r.problems)
        out.write(terminalSafe(`${r.file}:${p.line}:${p.column}: ${p.severity}: ${p.message} [${p.code}]`) + '\n');
    }
  }
  if (unreadable) return 2;
  return errors > 0 ? 1 : 0;
}

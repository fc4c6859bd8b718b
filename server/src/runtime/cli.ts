// `connector-manifest` command line: dispatches to one module per command (runtime/cli/), which run
// over the same runtime API as the extension.
import { validateCommand } from './cli/validateCommand';
import { readCommand } from './cli/readCommand';
import { streamsCommand } from './cli/streamsCommand';
import { testCommand } from './cli/testCommand';
import { incrementalCheckCommand } from './cli/incrementalCheckCommand';

const USAGE = `Usage:
  connector-manifest validate <files...> [--format json|pretty] [--hints]
  connector-manifest read <manifest> --stream NAME --config config.json [--max-records N] [--max-pages N] [--max-slices N] [--state state.json] [--format json|pretty] [--trace] [--record cassette.yaml | --replay cassette.yaml]
  connector-manifest read <manifest> --all-streams --config config.json [--report FILE.md|.json|.xml] [--record DIR] [--concurrency N] [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]
  connector-manifest streams <manifest> [--config config.json] [--format json|pretty]   (static streams, then resolved dynamic streams)
  connector-manifest test <manifest> --cassettes DIR [--config config.json] [--stream NAME] [--update] [--junit FILE]
  connector-manifest incremental-check <manifest> --stream NAME --config config.json [--state state.json] [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'validate':
      return validateCommand(rest, process.stdout, process.stderr);
    case 'read': {
      // Ctrl+C cancels the read; the partial result is still printed.
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return readCommand(rest, process.stdout, process.stderr, controller.signal);
    }
    case 'streams': {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return streamsCommand(rest, process.stdout, process.stderr, controller.signal);
    }
    case 'test':
      return testCommand(rest, process.stdout, process.stderr);
    case 'incremental-check': {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return incrementalCheckCommand(rest, process.stdout, process.stderr, controller.signal);
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => { process.stderr.write(`connector-manifest: ${(e as Error).message}\n`); process.exitCode = 2; },
);

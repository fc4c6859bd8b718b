// `connector-manifest` command line: dispatches to one module per command (runtime/cli/), which run
// over the same runtime API as the extension. Engines outside the runtime (the Airbyte CDK engine
// spawns Python, server/src/cdkEngine/) are handed in by the entry point, server/src/cli.ts, so the
// runtime library itself never starts a process.
import { validateCommand } from './cli/validateCommand';
import { readCommand } from './cli/readCommand';
import { streamsCommand } from './cli/streamsCommand';
import { testCommand } from './cli/testCommand';
import { checkCommand } from './cli/checkCommand';
import type { ReadEngines } from './cli/readEngine';
import { incrementalCheckCommand } from './cli/incrementalCheckCommand';
import { scaffoldCommand } from './cli/scaffoldCommand';

const USAGE = `Usage:
  connector-manifest validate <files...> [--format json|pretty] [--hints]
  connector-manifest read <manifest> --stream NAME --config config.json [--max-records N] [--max-pages N] [--max-slices N] [--state state.json] [--format json|pretty] [--trace] [--record cassette.yaml | --replay cassette.yaml]
  connector-manifest read <manifest> --all-streams --config config.json [--report FILE.md|.json|.xml] [--record DIR] [--concurrency N] [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]
  connector-manifest streams <manifest> [--config config.json] [--format json|pretty]   (static streams, then resolved dynamic streams)
  connector-manifest test <manifest> --cassettes DIR [--config config.json] [--stream NAME] [--update] [--junit FILE]
  connector-manifest incremental-check <manifest> --stream NAME --config config.json [--state state.json] [--max-records N] [--max-pages N] [--max-slices N] [--format json|pretty]
  connector-manifest check <manifest> --config config.json [--format json|pretty]   (the manifest's check: connection status and message)
  connector-manifest scaffold --openapi FILE [--operation "GET /path" ...] [--out manifest.yaml] [--force]   (a manifest from an OpenAPI/Swagger document: docs/scaffold.md)
  connector-manifest read ... [--engine builtin|cdk] [--python PATH] [--compare-engines]   (the Airbyte CDK engine: docs/engines.md)`;

/** Runs one command; resolves with the exit code. */
export async function main(argv: string[], engines: ReadEngines = {}): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'validate':
      return validateCommand(rest, process.stdout, process.stderr);
    case 'read': {
      // Ctrl+C cancels the read; the partial result is still printed.
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return readCommand(rest, process.stdout, process.stderr, controller.signal, engines);
    }
    case 'streams': {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return streamsCommand(rest, process.stdout, process.stderr, controller.signal);
    }
    case 'test':
      return testCommand(rest, process.stdout, process.stderr);
    case 'check': {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return checkCommand(rest, process.stdout, process.stderr, controller.signal);
    }
    case 'incremental-check': {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      return incrementalCheckCommand(rest, process.stdout, process.stderr, controller.signal);
    }
    case 'scaffold':
      return scaffoldCommand(rest, process.stdout, process.stderr);
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

/** Runs the CLI as the program (server/src/cli.ts calls it): the exit code becomes the process's. */
export function runCliMain(engines: ReadEngines = {}): void {
  main(process.argv.slice(2), engines).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`connector-manifest: ${(e as Error).message}\n`);
      process.exitCode = 2;
    },
  );
}

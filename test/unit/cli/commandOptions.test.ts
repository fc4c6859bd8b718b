// Every command reads its arguments through the one option reader (runtime/cli/options.ts), with the
// messages each command gave before it was shared. The rows below were recorded from the commands'
// own parsers before they were folded into one (`read constructor`, a manifest named like an
// Object.prototype key, was once taken for a limit option; it is now a file name like any other).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { allStreamsCommand } from '../../../server/src/runtime/cli/allStreamsCommand';
import { checkCommand } from '../../../server/src/runtime/cli/checkCommand';
import { incrementalCheckCommand } from '../../../server/src/runtime/cli/incrementalCheckCommand';
import { parseOptions, valueOption } from '../../../server/src/runtime/cli/options';
import { readCommand } from '../../../server/src/runtime/cli/readCommand';
import { scaffoldCommand } from '../../../server/src/runtime/cli/scaffoldCommand';
import { streamsCommand } from '../../../server/src/runtime/cli/streamsCommand';
import { testCommand } from '../../../server/src/runtime/cli/testCommand';
import { validateCommand } from '../../../server/src/runtime/cli/validateCommand';

type Command = 'validate' | 'read' | 'allStreams' | 'check' | 'streams' | 'incrementalCheck' | 'scaffold' | 'test';
type Out = NodeJS.WritableStream;

const COMMANDS: Record<Command, (args: string[], out: Out, err: Out) => number | Promise<number>> = {
  validate: validateCommand,
  read: (a, o, e) => readCommand(a, o, e),
  allStreams: (a, o, e) => allStreamsCommand(a, o, e),
  check: (a, o, e) => checkCommand(a, o, e),
  streams: (a, o, e) => streamsCommand(a, o, e),
  incrementalCheck: (a, o, e) => incrementalCheckCommand(a, o, e),
  scaffold: scaffoldCommand,
  test: testCommand,
};

/** [command, arguments, exit code, stderr] */
const ROWS: [Command, string[], number, string][] = [
  ['validate', [], 2, 'validate: name at least one manifest file\n'],
  ['validate', ['--format'], 2, 'validate: --format must be json or pretty, not ""\n'],
  ['validate', ['--format', 'xml', '/nonexistent/m.yaml'], 2, 'validate: --format must be json or pretty, not "xml"\n'],
  ['validate', ['--format=xml', '/nonexistent/m.yaml'], 2, 'validate: --format must be json or pretty, not "xml"\n'],
  ['validate', ['--format=json'], 2, 'validate: name at least one manifest file\n'],
  ['validate', ['--hints=1', '/nonexistent/m.yaml'], 2, 'validate: unknown option --hints=1\n'],
  ['validate', ['--nope', '/nonexistent/m.yaml'], 2, 'validate: unknown option --nope\n'],
  [
    'validate',
    ['/nonexistent/m.yaml', '/nonexistent/m.yaml'],
    2,
    '/nonexistent/m.yaml: cannot read (ENOENT)\n/nonexistent/m.yaml: cannot read (ENOENT)\n',
  ],
  ['validate', ['--hints'], 2, 'validate: name at least one manifest file\n'],
  ['read', [], 2, 'read: name the manifest file\n'],
  ['read', ['/nonexistent/m.yaml'], 2, 'read: name the stream with --stream NAME\n'],
  ['read', ['/nonexistent/m.yaml', '--stream'], 2, 'read: --stream needs a value\n'],
  ['read', ['/nonexistent/m.yaml', '--stream', 's'], 2, 'read: name the config file with --config config.json\n'],
  ['read', ['/nonexistent/m.yaml', '--stream', 's', '--config'], 2, 'read: --config needs a value\n'],
  ['read', ['/nonexistent/m.yaml', '--format', 'x'], 2, 'read: --format must be json or pretty, got "x"\n'],
  ['read', ['/nonexistent/m.yaml', '--max-records', '0'], 2, 'read: --max-records must be a positive integer, got "0"\n'],
  ['read', ['/nonexistent/m.yaml', '--max-pages', '1.5'], 2, 'read: --max-pages must be a positive integer, got "1.5"\n'],
  ['read', ['/nonexistent/m.yaml', '--max-slices'], 2, 'read: --max-slices needs a value\n'],
  ['read', ['/nonexistent/m.yaml', '--engine', 'py'], 2, 'read: --engine must be builtin or cdk, got "py"\n'],
  ['read', ['/nonexistent/m.yaml', '--nope'], 2, 'read: unknown option --nope\n'],
  ['read', ['/nonexistent/m.yaml', '/nonexistent/m.yaml'], 2, 'read: unexpected argument "/nonexistent/m.yaml"\n'],
  [
    'read',
    ['/nonexistent/m.yaml', '--stream', 's', '--config', 'c', '--record', 'r', '--replay', 'p'],
    2,
    'read: --record and --replay cannot be used together\n',
  ],
  [
    'read',
    ['/nonexistent/m.yaml', '--stream', 's', '--config', 'c', '--compare-engines', '--engine', 'cdk'],
    2,
    'read: --compare-engines reads on both engines: leave out --engine\n',
  ],
  [
    'read',
    ['/nonexistent/m.yaml', '--stream', 's', '--config', 'c', '--record', 'r', '--compare-engines'],
    2,
    'read: --record and --compare-engines cannot be used together: record first, then compare with --replay FILE --compare-engines\n',
  ],
  ['read', ['constructor'], 2, 'read: name the stream with --stream NAME\n'],
  ['read', ['/nonexistent/m.yaml', '--trace', '--python'], 2, 'read: --python needs a value\n'],
  ['allStreams', ['--all-streams'], 2, 'read: name the manifest file\n'],
  ['allStreams', ['/nonexistent/m.yaml', '--all-streams', '--config'], 2, 'read: --config needs a value\n'],
  [
    'allStreams',
    ['/nonexistent/m.yaml', '--all-streams', '--stream', 's'],
    2,
    'read: --stream and --all-streams cannot be used together\n',
  ],
  [
    'allStreams',
    ['/nonexistent/m.yaml', '--all-streams', '--concurrency', '0'],
    2,
    'read: --concurrency must be an integer from 1 to 16, got 0\n',
  ],
  [
    'allStreams',
    ['/nonexistent/m.yaml', '--all-streams', '--concurrency', 'x'],
    2,
    'read: --concurrency must be an integer from 1 to 16, got NaN\n',
  ],
  ['allStreams', ['/nonexistent/m.yaml', '--all-streams', '--format', 'x'], 2, 'read: --format must be json or pretty, got "x"\n'],
  [
    'allStreams',
    ['/nonexistent/m.yaml', '--all-streams', '--max-records', '-1'],
    2,
    'read: --max-records must be a positive integer, got "-1"\n',
  ],
  [
    'allStreams',
    ['/nonexistent/m.yaml', '--all-streams', '--nope'],
    2,
    'read: unknown option --nope (with --all-streams: --config, --report, --record, --concurrency, --max-records, --max-pages, --max-slices, --format)\n',
  ],
  ['allStreams', ['/nonexistent/m.yaml', '/nonexistent/m.yaml', '--all-streams'], 2, 'read: unexpected argument "/nonexistent/m.yaml"\n'],
  ['allStreams', ['/nonexistent/m.yaml', '--all-streams', '--report'], 2, 'read: --report needs a value\n'],
  ['allStreams', ['/nonexistent/m.yaml', '--all-streams', '--record'], 2, 'read: --record needs a value\n'],
  [
    'allStreams',
    ['/nonexistent/m.yaml', '--all-streams', '--config', 'c', '--report', 'x.txt'],
    2,
    'read: --report x.txt: the extension says the format: .md (Markdown), .json (JSON) or .xml (JUnit XML)\n',
  ],
  [
    'check',
    [],
    2,
    'check: name the manifest file\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n',
  ],
  [
    'check',
    ['/nonexistent/m.yaml'],
    2,
    "check: pass the connector's config with --config config.json\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n",
  ],
  [
    'check',
    ['/nonexistent/m.yaml', '--config'],
    2,
    'check: --config needs a value\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n',
  ],
  [
    'check',
    ['/nonexistent/m.yaml', '--format', 'x'],
    2,
    'check: --format must be json or pretty, got "x"\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n',
  ],
  [
    'check',
    ['/nonexistent/m.yaml', '--nope'],
    2,
    'check: unknown option --nope\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n',
  ],
  [
    'check',
    ['/nonexistent/m.yaml', '/nonexistent/m.yaml'],
    2,
    'check: unexpected argument "/nonexistent/m.yaml"\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n',
  ],
  [
    'check',
    ['--format'],
    2,
    'check: --format needs a value\nUsage: connector-manifest check <manifest> --config config.json [--format json|pretty]\n',
  ],
  ['streams', [], 2, 'streams: name the manifest file\n'],
  ['streams', ['/nonexistent/m.yaml'], 2, 'streams: cannot read the manifest /nonexistent/m.yaml (ENOENT)\n'],
  ['streams', ['/nonexistent/m.yaml', '--config'], 2, 'streams: --config needs a value\n'],
  ['streams', ['/nonexistent/m.yaml', '--format', 'x'], 2, 'streams: --format must be json or pretty, got "x"\n'],
  ['streams', ['/nonexistent/m.yaml', '--nope'], 2, 'streams: unknown option --nope\n'],
  ['streams', ['/nonexistent/m.yaml', '/nonexistent/m.yaml'], 2, 'streams: unexpected argument "/nonexistent/m.yaml"\n'],
  ['incrementalCheck', [], 2, 'incremental-check: name the manifest file\n'],
  ['incrementalCheck', ['/nonexistent/m.yaml'], 2, 'incremental-check: name the stream with --stream NAME\n'],
  ['incrementalCheck', ['/nonexistent/m.yaml', '--stream'], 2, 'incremental-check: --stream needs a value\n'],
  ['incrementalCheck', ['/nonexistent/m.yaml', '--state'], 2, 'incremental-check: --state needs a value\n'],
  ['incrementalCheck', ['/nonexistent/m.yaml', '--format', 'y'], 2, 'incremental-check: --format must be json or pretty, got "y"\n'],
  [
    'incrementalCheck',
    ['/nonexistent/m.yaml', '--max-pages', '0'],
    2,
    'incremental-check: --max-pages must be a positive integer, got "0"\n',
  ],
  ['incrementalCheck', ['/nonexistent/m.yaml', '--nope'], 2, 'incremental-check: unknown option --nope\n'],
  ['incrementalCheck', ['/nonexistent/m.yaml', '/nonexistent/m.yaml'], 2, 'incremental-check: unexpected argument "/nonexistent/m.yaml"\n'],
  ['incrementalCheck', ['/nonexistent/m.yaml', '--config'], 2, 'incremental-check: --config needs a value\n'],
  ['scaffold', [], 2, 'scaffold: name the document: --openapi FILE (OpenAPI 3.0/3.1 or Swagger 2.0, YAML or JSON)\n'],
  ['scaffold', ['--openapi'], 2, 'scaffold: --openapi needs a value\n'],
  ['scaffold', ['--operation'], 2, 'scaffold: --operation needs a value\n'],
  ['scaffold', ['--out'], 2, 'scaffold: --out needs a value\n'],
  ['scaffold', ['x'], 2, 'scaffold: unexpected argument "x"\n'],
  ['scaffold', ['--nope'], 2, 'scaffold: unknown option --nope\n'],
  ['scaffold', ['--force'], 2, 'scaffold: name the document: --openapi FILE (OpenAPI 3.0/3.1 or Swagger 2.0, YAML or JSON)\n'],
  ['scaffold', ['--openapi', '/nonexistent/o.yaml', '--force'], 2, 'scaffold: /nonexistent/o.yaml: cannot read (ENOENT)\n'],
  ['test', [], 2, 'test: name the manifest file\n'],
  ['test', ['/nonexistent/m.yaml'], 2, 'test: name the cassette directory with --cassettes DIR\n'],
  ['test', ['/nonexistent/m.yaml', '--cassettes'], 2, 'test: --cassettes needs a value\n'],
  ['test', ['/nonexistent/m.yaml', '--config'], 2, 'test: --config needs a value\n'],
  ['test', ['/nonexistent/m.yaml', '--stream'], 2, 'test: --stream needs a value\n'],
  ['test', ['/nonexistent/m.yaml', '--junit'], 2, 'test: --junit needs a value\n'],
  ['test', ['/nonexistent/m.yaml', '--nope'], 2, 'test: unknown option --nope\n'],
  ['test', ['/nonexistent/m.yaml', '/nonexistent/m.yaml'], 2, 'test: unexpected argument "/nonexistent/m.yaml"\n'],
  ['test', ['--update'], 2, 'test: name the manifest file\n'],
];

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

test('every command: a missing value, an unknown option, an extra argument and a bad value get the same message as before', async () => {
  for (const [command, args, code, stderr] of ROWS) {
    const out = sink();
    const err = sink();
    const exit = await COMMANDS[command](args, out.stream, err.stream);
    assert.deepEqual([exit, err.text(), out.text()], [code, stderr, ''], `${command} ${args.join(' ')}`);
  }
});

test('the option reader: options in order, the first problem wins, --name=value only where allowed, own keys only', () => {
  const seen: string[] = [];
  const spec = {
    options: { '--a': valueOption((v) => seen.push(`a=${v}`)), toString: valueOption((v) => seen.push(`toString=${v}`)) },
    positional: (arg: string) => (arg === 'bad' ? `unexpected argument "${arg}"` : (seen.push(arg), undefined)),
    inline: ['--a'],
  };
  assert.equal(parseOptions(['x', '--a', '1', '--a=2'], spec), undefined);
  assert.deepEqual(seen, ['x', 'a=1', 'a=2']);
  assert.equal(parseOptions(['--b', 'bad'], spec), 'unknown option --b');
  assert.equal(parseOptions(['bad', '--b'], spec), 'unexpected argument "bad"');
  assert.equal(parseOptions(['--a'], spec), '--a needs a value');
  // `constructor` and `hasOwnProperty` are arguments, not options inherited from Object.prototype.
  seen.length = 0;
  assert.equal(parseOptions(['constructor', 'hasOwnProperty'], spec), undefined);
  assert.deepEqual(seen, ['constructor', 'hasOwnProperty']);
});

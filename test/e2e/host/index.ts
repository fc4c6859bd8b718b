// Entry point the extension host loads (extensionTestsPath): runs every *.test.js beside it with mocha
// and rejects when a test fails, which the workbench turns into a non-zero exit code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { readRunOptions } from './helpers';

/** Prefix the runner uses to tell test output apart from the workbench's own console noise. */
const PREFIX = '[e2e-host] ';

export async function run(): Promise<void> {
  const options = readRunOptions();
  (Mocha.reporters.Base as unknown as { useColors: boolean }).useColors = false;
  (Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void }).consoleLog = (...args: unknown[]) =>
    console.log(PREFIX + format(...args));
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  if (options.grep) mocha.grep(options.grep);
  for (const file of fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} end-to-end test(s) failed`)) : resolve()));
  });
}

// `connector-manifest test <manifest> --cassettes DIR [--config config.json] [--stream NAME] [--update] [--junit FILE]`:
// regression tests of a connector (docs/cassettes.md). Each stream is replayed offline from
// DIR/<stream>.cassette.yaml and its records and inferred schema are compared with
// DIR/<stream>.expected.json; --update rewrites the expectations; --junit writes JUnit XML, one testcase
// per stream (docs/incremental.md). Exit codes: 0 everything matches,
// 1 a difference, a failed replay or a missing expectation, 2 invalid arguments, manifest or cassette.
// Every input is read under the files policy (capped, no link out of the manifest's folder) and
// --update never writes through a link; every line is terminal-safe (names and keys come from the API).
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readUserFile, writeUserFile } from '../files/userFiles';
import { terminalSafe } from './terminalText';
import { prototypePathErrors } from './prototypePaths';
import { MAX_INPUT_BYTES } from './inputFile';
import { parseManifest } from '../manifest/parse';
import { resolveManifest } from '../manifest/resolve';
import { parseCassette } from '../cassette/cassette';
import { cassetteFileNames } from '../shared/cassetteFiles';
import { replayRead } from '../cassette/cassetteRead';
import { compareWithExpectation, expectationOf, formatDiff, isEmptyDiff, primaryKeyPaths, type Expectation } from '../cassette/regression';
import { junitXml, type JUnitCase } from '../allStreams/junitXml';
import { parseOptions, switchOption, valueOption } from './options';

type Out = NodeJS.WritableStream;

/** A stream whose every line is made terminal-safe: stream names, record keys and API errors are printed as text, never obeyed. */
function safeLines(out: Out): Out {
  return { write: (text: string) => out.write(terminalSafe(text)) } as unknown as Out;
}

/** Whether a path exists, a dangling link included (it must be reported, not skipped as missing). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return existsSync(path);
  }
}

type TestArgs = { manifest: string; cassettes: string; config: string | null; stream: string | null; update: boolean; junit?: string };

/** Parses the arguments; returns an error text instead of throwing. */
export function parseTestArgs(args: string[]): TestArgs | string {
  const out: TestArgs = { manifest: '', cassettes: '', config: null, stream: null, update: false };
  const problem = parseOptions(args, {
    options: {
      '--update': switchOption(() => (out.update = true)),
      '--cassettes': valueOption((v) => (out.cassettes = v)),
      '--config': valueOption((v) => (out.config = v)),
      '--stream': valueOption((v) => (out.stream = v)),
      '--junit': valueOption((v) => (out.junit = v)),
    },
    positional: (a) => {
      if (out.manifest) return `unexpected argument "${a}"`;
      out.manifest = a;
      return undefined;
    },
  });
  if (problem !== undefined) return problem;
  if (!out.manifest) return 'name the manifest file';
  if (!out.cassettes) return 'name the cassette directory with --cassettes DIR';
  return out;
}

/** File names of a stream's cassette and expectation (characters unsafe in file names become _). */
export function streamFiles(dir: string, stream: string): { cassette: string; expectation: string } {
  const names = cassetteFileNames(stream);
  return { cassette: join(dir, names.cassette), expectation: join(dir, names.expectation) };
}

/** Runs the command; resolves with the exit code. */
export async function testCommand(args: string[], rawOut: Out, rawErr: Out): Promise<number> {
  const out = safeLines(rawOut);
  const err = safeLines(rawErr);
  const a = parseTestArgs(args);
  if (typeof a === 'string') {
    err.write(`test: ${a}\n`);
    return 2;
  }
  const folder = dirname(resolve(a.manifest));
  const manifestInput = readUserFile(a.manifest, { root: null, what: 'the manifest', maxBytes: MAX_INPUT_BYTES });
  if ('error' in manifestInput) {
    err.write(`test: ${manifestInput.error}\n`);
    return 2;
  }
  let config: Record<string, unknown> | undefined;
  if (a.config) {
    const configInput = readUserFile(a.config, { root: folder, what: 'the config' });
    if ('error' in configInput) {
      err.write(`test: ${configInput.error}\n`);
      return 2;
    }
    try {
      config = JSON.parse(configInput.text) as Record<string, unknown>;
    } catch (e) {
      err.write(`test: ${a.config} is not valid JSON: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const parsed = parseManifest(manifestInput.text);
  const resolved = parsed.value && typeof parsed.value === 'object' ? resolveManifest(parsed.value) : null;
  const root = resolved?.value as Record<string, unknown> | undefined;
  if (!root || parsed.problems.some((p) => p.severity === 'error')) {
    err.write(`test: ${a.manifest} is not a valid manifest (run connector-manifest validate ${a.manifest})\n`);
    return 2;
  }
  const refusedPaths = prototypePathErrors(parsed, a.manifest);
  if (refusedPaths.length) {
    for (const line of refusedPaths) err.write(`${line}\n`);
    return 2;
  }
  const streams = ((Array.isArray(root.streams) ? root.streams : []) as Record<string, unknown>[]).filter(
    (s) => s && typeof s.name === 'string',
  );
  const selected = a.stream ? streams.filter((s) => s.name === a.stream) : streams;
  if (a.stream && !selected.length) {
    err.write(`test: no stream named '${a.stream}' in ${a.manifest}; streams: ${streams.map((s) => s.name).join(', ')}\n`);
    return 2;
  }

  let failed = 0;
  let ran = 0;
  // One JUnit testcase per stream: each outcome below adds its case (`--junit`).
  const cases: JUnitCase[] = [];
  const classname = basename(a.manifest);
  let caseStart = Date.now();
  const addCase = (name: string, failure: { message: string; details: string } | null, skipped?: string) => {
    cases.push({ name, classname, timeSeconds: (Date.now() - caseStart) / 1000, failure, ...(skipped !== undefined ? { skipped } : {}) });
  };
  for (const stream of selected) {
    const name = stream.name as string;
    caseStart = Date.now();
    const files = streamFiles(a.cassettes, name);
    if (!present(files.cassette)) {
      out.write(
        `stream '${name}': skipped, no cassette ${files.cassette} (record one with: connector-manifest read ${a.manifest} --stream ${name} --config config.json --record ${files.cassette})\n`,
      );
      addCase(name, null, `no cassette ${files.cassette}`);
      continue;
    }
    const cassetteInput = readUserFile(files.cassette, { root: folder, what: 'the cassette' });
    if ('error' in cassetteInput) {
      err.write(`test: ${cassetteInput.error}\n`);
      return 2;
    }
    const cassette = parseCassette(cassetteInput.text, files.cassette);
    if (typeof cassette === 'string') {
      err.write(`test: ${cassette}\n`);
      return 2;
    }
    ran++;
    const { result, misses } = await replayRead(parsed.value as object, cassette, {
      ...(config ? { config } : {}),
      stream: name,
      name: files.cassette,
    });
    const errors = result.logs.filter((l) => l.level === 'ERROR');
    if (misses.length || errors.length) {
      failed++;
      out.write(`stream '${name}': the replay failed\n`);
      for (const m of misses) out.write(`  no recorded response for ${m.method} ${m.url} (${m.reason})\n`);
      for (const l of errors) out.write(`  ERROR: ${l.message}\n`);
      const details = [
        ...misses.map((m) => `no recorded response for ${m.method} ${m.url} (${m.reason})`),
        ...errors.map((l) => `ERROR: ${l.message}`),
      ];
      addCase(name, { message: details[0] ?? 'the replay failed', details: details.join('\n') });
      continue;
    }
    const actual = expectationOf(name, primaryKeyPaths(stream.primary_key), result);
    if (a.update) {
      const written = writeUserFile(files.expectation, `${JSON.stringify(actual, null, 2)}\n`, { root: folder, what: 'the expectation' });
      if (!written.ok) {
        err.write(`test: ${written.error}\n`);
        return 2;
      }
      out.write(`stream '${name}': ${actual.records.length} records; expectation written to ${files.expectation}\n`);
      addCase(name, null);
      continue;
    }
    let expected: Expectation;
    try {
      const expectationInput = readUserFile(files.expectation, { root: folder, what: 'the expectation' });
      if ('error' in expectationInput) {
        if (!present(files.expectation)) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
        throw new Error(expectationInput.error);
      }
      expected = JSON.parse(expectationInput.text) as Expectation;
      if (!expected || !Array.isArray(expected.records)) throw new Error('it has no records list');
    } catch (e) {
      failed++;
      const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
      const problem = missing
        ? `no expectation ${files.expectation}`
        : `${files.expectation} is not a valid expectation (${(e as Error).message})`;
      out.write(`stream '${name}': ${problem}; run with --update to write it\n`);
      addCase(name, { message: problem, details: `${problem}; run with --update to write it` });
      continue;
    }
    const diff = compareWithExpectation(
      { ...expected, primary_key: Array.isArray(expected.primary_key) ? expected.primary_key : [] },
      actual,
    );
    if (isEmptyDiff(diff)) {
      out.write(`stream '${name}': ok, ${actual.records.length} records as expected\n`);
      addCase(name, null);
    } else {
      failed++;
      const text = formatDiff(name, diff);
      out.write(text);
      addCase(name, { message: `the records or the inferred schema differ from ${files.expectation}`, details: text });
    }
  }
  if (a.junit) {
    // Under the files policy: never written through a link.
    const written = writeUserFile(a.junit, junitXml(`connector-manifest test ${classname}`, cases), {
      root: null,
      what: 'the JUnit report',
    });
    if (!written.ok) {
      err.write(`test: ${written.error}\n`);
      return 2;
    }
  }
  if (ran === 0) {
    err.write(`test: no cassette found in ${a.cassettes} for ${a.stream ? `stream '${a.stream}'` : `any stream of ${a.manifest}`}\n`);
    return 2;
  }
  out.write(`${ran - failed} of ${ran} stream${ran === 1 ? '' : 's'} passed${a.update ? ' (expectations updated)' : ''}\n`);
  return failed ? 1 : 0;
}

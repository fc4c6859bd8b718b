// Hostile-input suite (issue 11): every input — template bombs, reference fan-out, YAML bombs,
// hostile HTTP responses, CLI abuse — runs in its own process with a 512 MB heap, and must end
// within 5 s of CPU time and 512 MB with a clear message. An input that exhausts memory or hangs
// kills or outlives only its process, which this test reports as a failure instead of crashing the
// runner. CPU time rather than wall time, because the machines that run this are shared (a busy
// neighbour must not fail a bounded input); a process still running after 60 s of wall time fails.
// Needs the built bundle (npm test builds first). HOSTILE_ONLY=<substring> runs the matching inputs.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hostileInputs, type HostileInput } from './hostileInputs';

const ROOT = join(__dirname, '..', '..');
const WORKER = join(__dirname, 'hostileWorker.mjs');
const TIME_LIMIT_MS = 5000;
const WALL_LIMIT_MS = 60_000;
const MEMORY_LIMIT_MB = 512;

type Report = { outcome: 'value' | 'error' | 'crash'; message: string; ms: number; cpuMs: number; maxRssMb: number; codes?: string[]; exitCode?: number | null; raw?: string };

/** Runs one input in a fresh process; the clock starts once the runtime is loaded. */
function runIsolated(input: HostileInput): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { execArgv: [`--max-old-space-size=${MEMORY_LIMIT_MB}`], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (err: Error | null, report?: Report) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(report as Report);
    };
    child.stderr?.on('data', (d) => (stderr = (stderr + String(d)).slice(-2000)));
    child.on('message', (m) => {
      if (m === 'ready') child.send(input);
      else if (m === 'go') {
        timer = setTimeout(() => finish(new Error(`did not end within ${WALL_LIMIT_MS} ms`)), WALL_LIMIT_MS);
      } else finish(null, m as Report);
    });
    // The report may still be in the IPC channel when 'exit' fires: give it a moment before calling the exit a death.
    child.on('exit', (code, signal) => setTimeout(() => finish(new Error(`the process died (exit ${code}, ${signal ?? 'no signal'}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`)), 500));
  });
}

const inputs = hostileInputs().filter((i) => !process.env.HOSTILE_ONLY || i.name.includes(process.env.HOSTILE_ONLY));

before(() => {
  assert.ok(existsSync(join(ROOT, 'out', 'runtime.js')) && existsSync(join(ROOT, 'out', 'cli.js')), 'run `npm run build` first');
});

it(`at least 100 hostile inputs over templates, references, YAML and HTTP`, () => {
  if (process.env.HOSTILE_ONLY) return;
  assert.ok(inputs.length >= 100, `${inputs.length} inputs`);
  for (const kind of ['template', 'manifest', 'http']) assert.ok(inputs.some((i) => i.kind === kind), kind);
  assert.ok(inputs.some((i) => /fan-out/.test(i.name)) && inputs.some((i) => /center|slice/.test(i.name)));
});

// Two at a time: the machine has two cores.
describe('hostile inputs end within 5 s of CPU and 512 MB with a clear message', { concurrency: 2 }, () => {
  for (const input of inputs) {
    it(`${input.kind}: ${input.name}`, async () => {
      const r = await runIsolated(input);
      if (process.env.HOSTILE_VERBOSE) console.log(`${input.name}: ${r.outcome} ${r.cpuMs} ms CPU ${r.ms} ms ${r.maxRssMb} MB ${r.message.slice(0, 120)}`);
      const what = `${input.kind} "${input.name}" → ${r.outcome}: ${r.message} (${r.cpuMs} ms CPU, ${r.ms} ms, ${r.maxRssMb} MB)`;
      assert.notEqual(r.outcome, 'crash', what);
      assert.ok(r.cpuMs <= TIME_LIMIT_MS, `too slow: ${what}`);
      assert.ok(r.maxRssMb <= MEMORY_LIMIT_MB, `too much memory: ${what}`);
      if (r.outcome === 'error') {
        // A clear message: present, one readable paragraph, no stack trace, no raw control characters.
        assert.ok(r.message.trim().length > 10, what);
        assert.doesNotMatch(r.message, /\n\s+at /, what);
      }
      if (input.expect) assert.match(`${r.raw ?? r.message} ${(r.codes ?? []).join(' ')}`, input.expect, what);
      if (input.kind === 'cli') {
        assert.equal(r.exitCode, input.exitCode, what);
        assert.doesNotMatch(r.raw ?? r.message, /[\u0000-\u0008\u000b-\u001f\u007f]/, `raw control characters: ${what}`);
      }
    });
  }
});

// Runs one hostile input in its own process (hostileWorker.mjs) with a heap cap, and reports what the
// user would see, the CPU time and the peak memory. Shared by hostile.test.ts and bench/hostileInputs.mjs.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { HostileInput } from './hostileInputs';

// From __filename: the benchmark loads this file through tsx's tsImport, which sets __filename but not __dirname.
const WORKER = join(dirname(__filename), 'hostileWorker.mjs');
export const WALL_LIMIT_MS = 60_000;
export const MEMORY_LIMIT_MB = 512;

export type Report = {
  outcome: 'value' | 'error' | 'crash';
  message: string;
  ms: number;
  cpuMs: number;
  maxRssMb: number;
  codes?: string[];
  exitCode?: number | null;
  raw?: string;
};

/** Runs one input in a fresh process; the clock starts once the runtime is loaded. */
export function runIsolated(input: HostileInput): Promise<Report> {
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
    child.on('exit', (code, signal) =>
      setTimeout(
        () =>
          finish(
            new Error(`the process died (exit ${code}, ${signal ?? 'no signal'}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`),
          ),
        500,
      ),
    );
  });
}

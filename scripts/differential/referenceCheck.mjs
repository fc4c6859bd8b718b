// The reference's `check`: the CDK's own `source-declarative-manifest check --config … --manifest-path …`
// (the command the platform runs for a manifest-only connector), run from a built reference directory.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The CDK's `source-declarative-manifest check` (the command a platform runs), answer = its CONNECTION_STATUS. */
export async function referenceCheck(referenceDir, manifestFile, configFile) {
  const run = await runProcess(
    join(referenceDir, 'venv', 'bin', 'python'),
    [
      '-W',
      'ignore',
      '-c',
      'from airbyte_cdk.cli.source_declarative_manifest import run; run()',
      'check',
      '--config',
      configFile,
      '--manifest-path',
      manifestFile,
    ],
    { cwd: tmpdir() },
  );
  const lines = (run.stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null;
      }
    })
    .filter(Boolean);
  const status = lines.find((m) => m.type === 'CONNECTION_STATUS');
  if (status) return { status: status.connectionStatus.status, message: status.connectionStatus.message ?? null };
  const trace = lines.find((m) => m.type === 'TRACE');
  return { status: 'ERROR', message: trace?.trace?.error?.message ?? `no answer (exit ${run.status})` };
}

/**
 * Runs a command without blocking the event loop (the API it talks to is served by this process) and
 * resolves with its exit status and output; it is killed after `timeoutMs`.
 */
export function runProcess(command, args, options = {}, timeoutMs = 180_000) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

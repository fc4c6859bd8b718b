// Finds out whether an interpreter can run the Airbyte CDK engine: that Python starts, that
// `airbyte-cdk` imports with its connector-builder entry point, and which version it is. The answer
// says what to install (the exact pip command for that interpreter) when something is missing.
// Server-side Node code (it spawns a process): never part of server/src/runtime/.
import { spawn } from 'node:child_process';
import { compareVersions, parseVersionText } from './cdkVersion';

/** What a probe found. `ok: false` carries the text to show and, when pip can fix it, the command. */
export type CdkEngineStatus =
  | { ok: true; python: string; executable: string; pythonVersion: string; cdkVersion: string; versionKnown: boolean }
  | {
      ok: false;
      python: string;
      problem: 'no-python' | 'no-cdk' | 'cdk-broken' | 'old-cdk';
      message: string;
      installCommand: string | null;
      cdkVersion?: string;
    };

// Run with `python -c`: reports the interpreter and the CDK as one JSON line. importlib.metadata gives the
// pip-installed version; a source checkout has none and reports airbyte_cdk.__version__ (0.0.0 there).
const PROBE = [
  'import json, sys',
  'out = {"python": sys.version.split()[0], "executable": sys.executable, "cdk": None}',
  'try:',
  '    import importlib.metadata as md',
  '    out["cdk"] = md.version("airbyte-cdk")',
  'except Exception:',
  '    pass',
  'try:',
  '    import airbyte_cdk',
  '    out["cdk"] = out["cdk"] or getattr(airbyte_cdk, "__version__", None) or "0.0.0"',
  '    import airbyte_cdk.connector_builder.main',
  '    out["ok"] = True',
  'except Exception as e:',
  '    out["ok"] = False',
  '    out["error"] = type(e).__name__ + ": " + str(e)',
  '    out["missing"] = getattr(e, "name", None)',
  'print(json.dumps(out))',
].join('\n');

/** How a path is written in a shell command the user copies (quoted when it needs to be). */
export function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `"${path.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The pip command that installs (or upgrades to at least `minVersion`) airbyte-cdk for this interpreter. */
export function pipInstallCommand(executable: string, minVersion?: string | null): string {
  const py = shellQuote(executable);
  return minVersion ? `${py} -m pip install --upgrade "airbyte-cdk>=${minVersion}"` : `${py} -m pip install airbyte-cdk`;
}

type ProbeOutput = { python: string; executable: string; cdk: string | null; ok: boolean; error?: string; missing?: string | null };

function runProbe(
  python: string,
  timeoutMs: number,
): Promise<{ output: ProbeOutput | null; spawnError: NodeJS.ErrnoException | null; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let child;
    try {
      child = spawn(python, ['-c', PROBE], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
    } catch (e) {
      resolve({ output: null, spawnError: e as NodeJS.ErrnoException, stderr: '' });
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ output: null, spawnError: e as NodeJS.ErrnoException, stderr });
    });
    child.on('close', () => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve({ output: JSON.parse(line) as ProbeOutput, spawnError: null, stderr });
      } catch {
        resolve({ output: null, spawnError: null, stderr: stderr || stdout });
      }
    });
  });
}

/**
 * Probes `python` (a path or a command on the PATH): does it start, does airbyte-cdk import with its
 * connector-builder entry point, which version. Never throws.
 */
export async function probeInterpreter(python: string, timeoutMs = 60_000): Promise<CdkEngineStatus> {
  const { output, spawnError, stderr } = await runProbe(python, timeoutMs);
  if (!output) {
    const why = spawnError
      ? spawnError.code === 'ENOENT'
        ? 'was not found'
        : `could not be started (${spawnError.code ?? spawnError.message})`
      : `did not answer as a Python 3 interpreter${stderr.trim() ? `: ${stderr.trim().split('\n').pop()}` : ''}`;
    return {
      ok: false,
      python,
      problem: 'no-python',
      installCommand: null,
      message: `Python ${shellQuote(python)} ${why}. Install Python 3.10 or later, or name the interpreter where airbyte-cdk is installed ("airbyte.cdk.python" in VS Code, --python on the command line).`,
    };
  }
  const exe = output.executable || python;
  if (!output.ok) {
    const missingCdk = output.missing === 'airbyte_cdk' || (output.cdk === null && /airbyte_cdk/.test(output.error ?? ''));
    if (missingCdk) {
      return {
        ok: false,
        python,
        problem: 'no-cdk',
        installCommand: pipInstallCommand(exe),
        message: `airbyte-cdk is not installed for Python ${output.python} (${exe}). Install it with: ${pipInstallCommand(exe)}`,
      };
    }
    return {
      ok: false,
      python,
      problem: 'cdk-broken',
      installCommand: pipInstallCommand(exe),
      cdkVersion: output.cdk ?? undefined,
      message: `airbyte-cdk${output.cdk ? ` ${output.cdk}` : ''} is installed for ${exe} but does not import (${output.error}). Reinstall it with: ${pipInstallCommand(exe)}`,
    };
  }
  const cdkVersion = output.cdk ?? '0.0.0';
  const installed = parseVersionText(cdkVersion);
  const versionKnown = installed !== null && installed.some((n) => n > 0);
  return { ok: true, python, executable: exe, pythonVersion: output.python, cdkVersion, versionKnown };
}

/**
 * The status of a probed interpreter for a manifest of version `manifestVersion`: a CDK older than it
 * is reported with the upgrade command, and a missing CDK's install command asks for that version at
 * least (a version of 0.0.0, a source checkout, is accepted: its real version is unknown).
 */
export function statusForManifest(status: CdkEngineStatus, manifestVersion?: string | null): CdkEngineStatus {
  const wanted = manifestVersion ? parseVersionText(manifestVersion) : null;
  if (!status.ok) {
    if ((status.problem === 'no-cdk' || status.problem === 'cdk-broken') && wanted && status.installCommand) {
      const exe = /^(.*) -m pip install/.exec(status.installCommand)?.[1] ?? status.python;
      const cmd = `${exe} -m pip install "airbyte-cdk>=${manifestVersion}"`;
      return { ...status, installCommand: cmd, message: status.message.replace(status.installCommand, cmd) };
    }
    return status;
  }
  const installed = parseVersionText(status.cdkVersion);
  if (status.versionKnown && installed && wanted && compareVersions(installed, wanted) < 0) {
    const cmd = pipInstallCommand(status.executable, manifestVersion);
    return {
      ok: false,
      python: status.python,
      problem: 'old-cdk',
      cdkVersion: status.cdkVersion,
      installCommand: cmd,
      message: `airbyte-cdk ${status.cdkVersion} (${status.executable}) is older than the manifest's version ${manifestVersion}. Upgrade it with: ${cmd}`,
    };
  }
  return status;
}

/** Probes `python` and judges it for a manifest of version `manifestVersion`. Never throws. */
export async function probeCdkEngine(python: string, manifestVersion?: string | null, timeoutMs?: number): Promise<CdkEngineStatus> {
  return statusForManifest(await probeInterpreter(python, timeoutMs), manifestVersion);
}

// The server side of the "Airbyte CDK" engine (docs/engines.md): which engine a test read uses (the
// CDK for a stream with custom components, unless the client asks otherwise), the runner that reads
// and replays on it, and how its failures reach the client (what to install, traceback links).
import { fileURLToPath } from 'node:url';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import type { ExternalEngineRunner } from './cassetteReadHandler';
import { cdkRecordRead, cdkReplayRead } from './cdkEngine/cdkReplayRead';
import { cdkTestRead, CdkEngineError } from './cdkEngine/cdkTestRead';
import type { CdkEngineService } from './cdkEngine/cdkEngineService';
import { customClassNames, findStreamNode } from './cdkEngine/customComponents';
import { probeInterpreter, statusForManifest, type CdkEngineStatus } from './cdkEngine/pythonProbe';
import type { CdkEngineStatusParams, CdkEngineStatusResult, CdkFailureData, ReadEngineName, TestReadProgress } from './protocol';
import type { OpenManifestLookup } from './requestInputs';

/** The engine a read of `stream` uses: the one asked for, else the CDK when the stream names Python classes. */
export function engineFor(manifest: object, stream: string, asked: ReadEngineName | undefined): ReadEngineName {
  if (asked) return asked;
  const node = findStreamNode(manifest, stream);
  return node !== undefined && customClassNames(manifest, node).length > 0 ? 'cdk' : 'builtin';
}

/** The manifest's version text (the CDK must be at least that), or null. */
export function manifestVersionOf(manifest: object): string | null {
  const v = (manifest as Record<string, unknown>).version;
  return typeof v === 'string' ? v : null;
}

/** The interpreter's status for this manifest; a `python` given with the request is probed on its own. */
export async function cdkStatusFor(service: CdkEngineService, manifest: object, python?: string): Promise<CdkEngineStatus> {
  const status = python && python !== service.interpreter.python ? await probeInterpreter(python) : await service.status();
  return statusForManifest(status, manifestVersionOf(manifest));
}

/** The protocol's view of a status. */
export function statusResult(status: CdkEngineStatus, service: CdkEngineService): CdkEngineStatusResult {
  const source = service.interpreter.source;
  return status.ok
    ? {
        ok: true,
        python: status.executable,
        source,
        message: '',
        installCommand: null,
        pythonVersion: status.pythonVersion,
        cdkVersion: status.cdkVersion,
      }
    : {
        ok: false,
        python: status.python,
        source,
        message: status.message,
        installCommand: status.installCommand,
        ...(status.cdkVersion ? { cdkVersion: status.cdkVersion } : {}),
      };
}

/** The CDK runner of one test read: `uri` locates components.py; the status was checked before. */
export function cdkRunner(
  uri: string,
  status: Extract<CdkEngineStatus, { ok: true }>,
  transport: { timeoutMs?: number; maxResponseBytes?: number } = {},
): ExternalEngineRunner {
  const manifestPath = uri.startsWith('file:') ? fileURLToPath(uri) : null;
  const base = { python: status.python, manifestPath, status };
  return {
    label: 'Airbyte CDK engine',
    read: (manifest, config, stream, limits, env) => {
      env.onProgress?.({
        type: 'log',
        level: 'INFO',
        message: `Reading on the Airbyte CDK engine: airbyte-cdk ${status.cdkVersion}, Python ${status.pythonVersion} (${status.executable}).`,
      } satisfies TestReadProgress);
      return cdkTestRead(manifest as Record<string, unknown>, config, stream, limits ?? {}, {
        ...base,
        state: env.state as object[] | undefined,
        signal: env.signal,
        onProgress: (e) => env.onProgress?.(e),
        onConfigUpdate: (c) => env.onConfigUpdate?.(c),
      });
    },
    record: (manifest, config, stream, limits, env) => {
      env.onProgress?.({
        type: 'log',
        level: 'INFO',
        message: `Reading on the Airbyte CDK engine: airbyte-cdk ${status.cdkVersion}, Python ${status.pythonVersion} (${status.executable}).`,
      } satisfies TestReadProgress);
      return cdkRecordRead(
        manifest as Record<string, unknown>,
        config,
        stream,
        limits ?? {},
        {
          ...base,
          state: env.state as object[] | undefined,
          signal: env.signal,
          onProgress: (e) => env.onProgress?.(e),
          onConfigUpdate: (c) => env.onConfigUpdate?.(c),
        },
        transport,
      );
    },
    replay: async (manifest, cassette, options, env) => {
      const replayed = await cdkReplayRead(
        manifest as Record<string, unknown>,
        cassette,
        { stream: options.stream, limits: options.limits ?? cassette.limits, name: options.name },
        {
          ...base,
          signal: env.signal,
          onProgress: (e) => env.onProgress?.(e),
        },
      );
      // A request the cassette does not hold is an error of the read, as on the built-in engine.
      if (replayed.misses.length) {
        const m = replayed.misses[0];
        throw new ResponseError(
          ErrorCodes.InvalidParams,
          `Replay of ${options.name}: no recorded response for ${m.method} ${m.url} (${m.reason}).`,
        );
      }
      return replayed.result;
    },
  };
}

/** The error the client gets for a CDK status that cannot run (what to install, and why). */
export function unavailableError(status: Extract<CdkEngineStatus, { ok: false }>): ResponseError<CdkFailureData> {
  return new ResponseError(ErrorCodes.InvalidParams, status.message, {
    failureType: 'config_error',
    cdk: { kind: status.problem, installCommand: status.installCommand, stacktrace: null, links: [] },
  });
}

/** A CdkEngineError as the client gets it, or null for any other error. */
export function cdkFailure(e: unknown): ResponseError<CdkFailureData> | null {
  if (!(e instanceof CdkEngineError)) return null;
  return new ResponseError(ErrorCodes.InternalError, e.message, {
    failureType: e.failureType,
    cdk: { kind: e.kind, installCommand: e.installCommand, stacktrace: e.stacktrace, links: e.links },
  });
}

/** `airbyte/cdkEngineStatus`: the interpreter's status, judged for the manifest of `uri` when it is given. */
export async function handleCdkEngineStatus(
  params: CdkEngineStatusParams,
  service: CdkEngineService,
  lookup: OpenManifestLookup,
): Promise<CdkEngineStatusResult> {
  const status = await service.status(params?.fresh === true);
  const manifest = params?.uri ? lookup(params.uri)?.value : undefined;
  return statusResult(statusForManifest(status, manifest && typeof manifest === 'object' ? manifestVersionOf(manifest) : null), service);
}

// `airbyte/compareEngines` ("Compare with the CDK"): reads a stream on the built-in runtime and on the
// Airbyte CDK engine — both live, or both from the same cassette (the CDK through the loopback replay
// server) — and answers every difference (cdkEngine/engineComparison.ts) for the compare view.
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import * as runtime from './runtime';
import { replayRead } from './runtime';
import type { StreamRead } from './runtime';
import { DEFAULT_TEST_READ_LIMITS } from './runtime';
import { loadCassette } from './cassetteReadHandler';
import { cdkFailure, cdkRunner, cdkStatusFor } from './cdkReadHandler';
import type { CdkEngineService } from './cdkEngine/cdkEngineService';
import { compareEngineReads, formatEngineComparison } from './cdkEngine/engineComparison';
import { loadManifestValue, openConfigParam, type OpenManifestLookup } from './requestInputs';
import type { TestReadNotifier } from './testReadHandler';
import type { CompareEnginesParams, CompareEnginesResult, TestReadProgress } from './protocol';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runs the comparison. A CDK that cannot run answers `unavailable` with what to install. */
export async function handleCompareEngines(
  params: CompareEnginesParams,
  token: CancellationToken,
  lookup: OpenManifestLookup,
  notify: Pick<TestReadNotifier, 'progress'>,
  cdk: CdkEngineService,
): Promise<CompareEnginesResult> {
  const manifest = await loadManifestValue(params.uri, lookup);
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new ResponseError(ErrorCodes.InvalidParams, 'The manifest is empty or not a YAML mapping; fix the YAML errors first.');
  }
  const status = await cdkStatusFor(cdk, manifest, params.python);
  if (!status.ok) return { unavailable: status.message, installCommand: status.installCommand };
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  const progress = (event: TestReadProgress) => notify.progress({ runId: params.runId, event });
  const runner = cdkRunner(params.uri, status);
  try {
    let builtin: StreamRead;
    let other: StreamRead;
    let replayedFrom: string | null = null;
    let limits = params.limits ?? {};
    const state = Array.isArray(params.state) ? { state: params.state } : {};
    if (params.replay) {
      replayedFrom =
        params.replay.name ??
        (params.replay.cassetteUri.startsWith('file:') ? basename(fileURLToPath(params.replay.cassetteUri)) : params.replay.cassetteUri);
      const cassette = await loadCassette(params.replay.cassetteUri, replayedFrom);
      limits = params.limits ?? cassette.limits;
      progress({ type: 'log', level: 'INFO', message: `Replaying ${replayedFrom} on the built-in runtime…` });
      builtin = (
        await replayRead(
          manifest,
          cassette,
          { stream: params.streamName, limits, name: replayedFrom },
          { signal: controller.signal, ...state },
        )
      ).result;
      progress({ type: 'log', level: 'INFO', message: `Replaying ${replayedFrom} on the Airbyte CDK…` });
      other = await runner.replay(
        manifest,
        cassette,
        { stream: params.streamName, limits, name: replayedFrom },
        { signal: controller.signal, ...state },
      );
    } else {
      // A private copy each: a rotated token of the first read is carried into the second through it.
      const config = structuredClone(openConfigParam(params.config));
      const fetch = runtime.createHttpFetch({
        timeoutMs: params.http?.timeoutMs,
        maxResponseBytes: params.http?.maxResponseBytes,
        signal: controller.signal,
      });
      progress({ type: 'log', level: 'INFO', message: 'Reading on the built-in runtime…' });
      builtin = await runtime.testRead(manifest, config, params.streamName, limits, { signal: controller.signal, fetch, ...state });
      progress({ type: 'log', level: 'INFO', message: 'Reading on the Airbyte CDK…' });
      other = await runner.read(manifest, config, params.streamName, limits, {
        signal: controller.signal,
        ...state,
        onProgress: (e) => progress(e as TestReadProgress),
      });
    }
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The comparison was cancelled.');
    const c = compareEngineReads(builtin, other, { maxRecords: limits.maxRecords ?? DEFAULT_TEST_READ_LIMITS.maxRecords });
    return {
      stream: params.streamName,
      identical: c.identical,
      differences: c.differences,
      notes: c.notes,
      counts: c.counts,
      text: formatEngineComparison(params.streamName, c),
      replayedFrom,
      cdk: { python: status.executable, cdkVersion: status.cdkVersion },
    };
  } catch (e) {
    if (e instanceof ResponseError) throw e;
    if (controller.signal.aborted) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'The comparison was cancelled.');
    throw cdkFailure(e) ?? new ResponseError(ErrorCodes.InternalError, (e as Error).message || String(e));
  } finally {
    sub.dispose();
  }
}

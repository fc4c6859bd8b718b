// A test read on the "Airbyte CDK" engine: the author's own Python and airbyte-cdk run the stream
// through the CDK's connector-builder entry point, and the StreamRead it answers is masked like the
// built-in runtime's, so the results view, captured reads and cassettes treat both engines alike.
// Server-side Node code; the runtime library stays free of processes and Python.
import { SecretMasker } from '../runtime';
import { DEFAULT_TEST_READ_LIMITS } from '../runtime';
import type { StreamRead, TestReadProgress } from '../runtime';
import type { TestReadLimits } from '../runtime';
import { controlConfig, parseAirbyteOutput, type AirbyteMessage } from './airbyteMessages';
import { runConnectorBuilder } from './cdkProcess';
import { componentsPathFor, linkTraceback, readComponentsFile, type FileLink } from './componentsFile';
import { customClassNames, isComponentsModuleClass } from './customComponents';
import { probeCdkEngine, type CdkEngineStatus } from './pythonProbe';

/** Why a CDK read could not give a StreamRead. */
export type CdkFailureKind = 'no-python' | 'no-cdk' | 'cdk-broken' | 'old-cdk' | 'components-missing' | 'components-failed' | 'read-failed';

/** An error of the CDK engine: what happened, what to run to fix it, and the file places a traceback names. */
export class CdkEngineError extends Error {
  constructor(
    message: string,
    readonly kind: CdkFailureKind,
    readonly failureType: 'config_error' | 'system_error' | 'transient_error',
    readonly installCommand: string | null = null,
    readonly stacktrace: string | null = null,
    readonly links: FileLink[] = [],
  ) {
    super(message);
    this.name = 'CdkEngineError';
  }
}

export type CdkReadOptions = {
  /** The interpreter (path or command on the PATH). */
  python: string;
  /** The manifest's file, to find components.py beside it; null for a manifest that is not a file. */
  manifestPath: string | null;
  /** The input state: a list of AirbyteStateMessages, as the Builder takes it. */
  state?: object[];
  signal?: AbortSignal;
  onProgress?: (event: TestReadProgress) => void;
  /** A rotated refresh token or a migrated config (the CDK's CONNECTOR_CONFIG control messages), unmasked. */
  onConfigUpdate?: (config: Record<string, unknown>) => void;
  /** Every HTTP request goes to this loopback relay instead (a cassette replay or recording); see loopbackRelay.ts. */
  relayUrl?: string;
  /** A probe already made for this interpreter and manifest version (skips probing again). */
  status?: CdkEngineStatus;
};

/** The user's config without the entry point's reserved keys. */
function userConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([k]) => !k.startsWith('__')));
}

function isStreamRead(v: unknown): v is StreamRead {
  const r = v as StreamRead | null;
  return !!r && typeof r === 'object' && Array.isArray(r.slices) && Array.isArray(r.logs);
}

/** The failure a TRACE error message reports, with components frames linked. */
function traceFailure(m: Extract<AirbyteMessage, { type: 'TRACE' }>, componentsPath: string | null, masker: SecretMasker): CdkEngineError {
  const error = m.trace.error ?? {};
  const stack = error.stack_trace
    ? linkTraceback(masker.maskText(error.stack_trace), componentsPath)
    : { text: null, links: [] as FileLink[] };
  const message = masker.maskText(error.message ?? 'The CDK reported an error without a message.');
  const inComponents =
    stack.links.length > 0 ||
    (componentsPath !== null && /<string>|components\.py|custom_code_compiler|AirbyteCodeTampered/.test(`${message}\n${stack.text ?? ''}`));
  if (inComponents && componentsPath) {
    const where = stack.links.length ? ` (${componentsPath}:${stack.links[stack.links.length - 1].line})` : '';
    return new CdkEngineError(
      `components.py failed to load or run${where}: ${message}`,
      'components-failed',
      'config_error',
      null,
      stack.text,
      stack.links,
    );
  }
  const failureType =
    error.failure_type === 'config_error' || error.failure_type === 'transient_error' ? error.failure_type : 'system_error';
  return new CdkEngineError(message, 'read-failed', failureType, null, stack.text, stack.links);
}

/**
 * Reads `stream` through the CDK. Resolves with the StreamRead (secrets masked as the runtime masks
 * them); rejects with a CdkEngineError when Python, the CDK or components.py is missing or broken, or
 * the read fails as a whole. A cancelled read rejects with an AbortError.
 */
export async function cdkTestRead(
  manifest: Record<string, unknown>,
  config: Record<string, unknown>,
  stream: string,
  limits: TestReadLimits,
  options: CdkReadOptions,
): Promise<StreamRead> {
  const manifestVersion = typeof manifest.version === 'string' ? manifest.version : null;
  const status = options.status ?? (await probeCdkEngine(options.python, manifestVersion));
  if (!status.ok) throw new CdkEngineError(status.message, status.problem, 'config_error', status.installCommand);

  const classes = customClassNames(manifest).filter(isComponentsModuleClass);
  const components = options.manifestPath ? await readComponentsFile(options.manifestPath) : null;
  if (classes.length && !components) {
    const where = options.manifestPath
      ? componentsPathFor(options.manifestPath)
      : 'beside the manifest (save the manifest to a file first)';
    throw new CdkEngineError(
      `The manifest uses custom components (${classes.slice(0, 3).join(', ')}${classes.length > 3 ? ', …' : ''}) but there is no components.py at ${where}. Put the connector's components.py beside the manifest.`,
      'components-missing',
      'config_error',
    );
  }

  const masker = new SecretMasker();
  const spec = manifest.spec;
  masker.addFromSpec(spec, config);
  const full = { ...DEFAULT_TEST_READ_LIMITS, ...limits };
  const builderConfig: Record<string, unknown> = {
    ...config,
    __command: 'test_read',
    __injected_declarative_manifest: manifest,
    __test_read_config: { max_records: full.maxRecords, max_pages_per_slice: full.maxPagesPerSlice, max_slices: full.maxSlices },
  };
  if (components) {
    builderConfig.__injected_components_py = components.text;
    builderConfig.__injected_components_py_checksums = { md5: components.md5 };
  }
  // As the Builder's server builds it: one stream, incremental (a full-refresh stream reads the same).
  const catalog = {
    streams: [
      {
        stream: { name: stream, json_schema: {}, supported_sync_modes: ['full_refresh', 'incremental'] },
        sync_mode: 'incremental',
        destination_sync_mode: 'overwrite',
      },
    ],
  };

  options.onProgress?.({ type: 'start', stream });
  const env: Record<string, string> = {};
  // The CDK runs injected components.py only behind this gate; this is the author's own code in their own interpreter.
  if (components) env.AIRBYTE_ENABLE_UNSAFE_CODE = 'true';
  if (options.relayUrl) env.AIRBYTE_STUDIO_RELAY_URL = options.relayUrl;
  const run = await runConnectorBuilder(
    options.python,
    { config: builderConfig, catalog, state: options.state ?? [] },
    { signal: options.signal, env },
  );
  if (run.cancelled) {
    const abort = new Error('The test read was cancelled.');
    abort.name = 'AbortError';
    throw abort;
  }
  const { messages } = parseAirbyteOutput(run.stdout);
  let lastUpdate: string | null = null;
  const reportConfig = (updated: Record<string, unknown>) => {
    const clean = userConfig(updated);
    const text = JSON.stringify(clean);
    if (text === lastUpdate) return;
    lastUpdate = text;
    masker.addFromSpec(spec, clean);
    options.onConfigUpdate?.(clean);
  };
  for (const m of messages) {
    const updated = controlConfig(m);
    if (updated) reportConfig(updated);
  }
  const answer = [...messages].reverse().find((m) => m.type === 'RECORD' || (m.type === 'TRACE' && m.trace.type === 'ERROR'));
  if (!answer) {
    const tail = run.stderr.trim().split('\n').slice(-12).join('\n');
    throw new CdkEngineError(
      `The CDK's connector-builder entry point gave no answer (exit status ${run.exitCode ?? run.signal}).${tail ? ` Its error output ends with:\n${masker.maskText(tail)}` : ''}`,
      'read-failed',
      'system_error',
      null,
      tail ? masker.maskText(run.stderr) : null,
    );
  }
  const componentsPath = components?.path ?? null;
  if (answer.type === 'TRACE') throw traceFailure(answer, componentsPath, masker);
  const data = (answer as Extract<AirbyteMessage, { type: 'RECORD' }>).record.data;
  if (!isStreamRead(data))
    throw new CdkEngineError('The CDK answered something that is not a StreamRead (no slices or logs).', 'read-failed', 'system_error');
  if (data.latest_config_update && typeof data.latest_config_update === 'object') reportConfig(data.latest_config_update);
  // Python frames of components.py in the read's own error logs become links too.
  const logs = data.logs.map((l) => (l.stacktrace ? { ...l, stacktrace: linkTraceback(l.stacktrace, componentsPath).text } : l));
  const result = masker.maskValue({ ...data, logs });
  const records = result.slices.reduce((n, s) => n + s.pages.reduce((k, p) => k + p.records.length, 0), 0);
  const pages = result.slices.reduce((n, s) => n + s.pages.length, 0);
  options.onProgress?.({ type: 'done', slices: result.slices.length, pages, records, limitReached: result.test_read_limit_reached });
  return result;
}

// `check` (the reference's ConcurrentDeclarativeSource.check behind `source-declarative-manifest check`):
// validates the config against the spec, then runs the manifest's `check` component — CheckStream (the
// named streams, then `dynamic_streams_check_configs`) or CheckDynamicStream (the first `stream_count`
// streams) — with `config_overrides` laid over the config. A stream is available when its first slice
// yields a record or ends without error (CDK DefaultStream.check_availability). Retries are the
// stream's own: a check is not a test read.
import type { TestReadEnv } from '../types';
import { configError, RuntimeError } from '../errors';
import { resolveManifest } from '../manifest/resolve';
import { parseVersion } from '../schema/versions';
import { configRuleViolation, normalizeConfig } from '../config/configNormalization';
import { configValidationError } from '../testRead/configValidation';
import { SecretMasker } from '../testRead/masking';
import { streamDefinitions } from '../testRead/streamDefinitions';
import { resolveDynamicStreams } from '../testRead/dynamicStreams';
import type { LogLevel, ReadContext } from '../testRead/readContext';
import type { LogMessage } from '../testRead/streamRead';
import { streamAvailability } from './availability';
import { pythonStringRepr } from './pythonRepr';
import { createApiBudget } from '../http/apiBudget';

type Obj = Record<string, unknown>;

/** The connection status of a check: `message` is null on success, else the reference's text (a Python repr for a failed check component). */
export type ConnectionStatus = { status: 'SUCCEEDED' | 'FAILED'; message: string | null; logs: LogMessage[] };

// The reference lets the config say which streams to check (CheckStream._get_stream_names).
const CHECK_STREAM_NAMES_KEY = '__airbyte_check_stream_names';

/**
 * Runs the manifest's `check` with `config`. Resolves with the connection status; rejects with a
 * RuntimeError (secrets masked) where the reference's `check` command ends in an error instead of a
 * status: no `check` component, a checked stream the source does not define, a manifest that cannot
 * be resolved.
 */
export async function check(manifest: object, config: object, env: TestReadEnv = {}): Promise<ConnectionStatus> {
  const resolved = resolveManifest(manifest);
  const broken = resolved.problems.filter((p) => p.severity === 'error');
  if (broken.length)
    throw configError(
      `The manifest cannot be resolved: ${broken
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}`,
    );
  const root = resolved.value as Obj;
  const masker = new SecretMasker();
  masker.addFromSpec(root.spec, config as Obj);
  const logs: LogMessage[] = [];
  const log = (level: LogLevel, message: string) => {
    const masked = masker.maskText(message);
    logs.push({ message: masked, level, internal_message: null, stacktrace: null });
  };
  const done = (status: 'SUCCEEDED' | 'FAILED', message: string | null): ConnectionStatus => {
    log(status === 'SUCCEEDED' ? 'INFO' : 'ERROR', status === 'SUCCEEDED' ? 'Check succeeded' : 'Check failed');
    return { status, message: message === null ? null : masker.maskText(message), logs };
  };
  try {
    const component = root.check as Obj | undefined;
    if (!component || typeof component !== 'object') throw configError("Missing 'check' component definition within the manifest.");
    const cfg = normalizeConfig(root.spec, config as Obj, env).config;
    masker.addFromSpec(root.spec, cfg);
    // The entrypoint validates the config against the spec first; a config error is a FAILED status.
    const invalid = configValidationError((root.spec as Obj | undefined)?.connection_specification, cfg);
    if (invalid !== null) return { status: 'FAILED', message: masker.maskText(`Config validation error: ${invalid}`), logs };
    // Overrides are laid over the top level as written (never rendered); validations still see `cfg`.
    const overrides =
      component.config_overrides && typeof component.config_overrides === 'object' ? (component.config_overrides as Obj) : {};
    const checkConfig: Obj = { ...cfg, ...overrides };
    const rc: ReadContext = {
      manifest: root,
      config: checkConfig,
      env,
      // Availability reads one record of one slice; pages are not capped as in a test read.
      limits: { maxRecords: 1, maxPagesPerSlice: 10_000, maxSlices: 1 },
      masker,
      log,
      retries: true,
      requestOptionCompat: { manifestVersion: parseVersion(root.version) },
      inputState: () => null,
      aux: () => {},
      // The source's api_budget applies to a check's requests too.
      apiBudget: createApiBudget(root.api_budget, checkConfig, env, (message) => log('INFO', message)),
    };
    // source.streams(config): config validations, static streams, then the resolved dynamic ones.
    const allStreams = async (): Promise<{ name: string; stream: Obj; definition: string | null }[]> => {
      const violation = configRuleViolation(root.spec, cfg, env);
      if (violation !== null) throw new Error(violation);
      const statics = streamDefinitions(root, checkConfig, env).streams.map((d) => ({
        name: String(d.stream.name ?? ''),
        stream: d.stream,
        definition: null,
      }));
      const dynamic = Array.isArray(root.dynamic_streams) && root.dynamic_streams.length ? await resolveDynamicStreams(root, rc) : [];
      return [...statics, ...dynamic.map((d) => ({ name: d.name, stream: d.stream as Obj, definition: d.definition }))];
    };
    if (component.type === 'CheckDynamicStream') return done(...(await checkDynamicStream(component, allStreams, rc)));
    if (component.type !== undefined && component.type !== 'CheckStream')
      throw configError(`Unknown check component type ${JSON.stringify(component.type)} (CheckStream or CheckDynamicStream).`);

    const configured = (config as Obj)[CHECK_STREAM_NAMES_KEY];
    if (configured !== undefined && !(Array.isArray(configured) && configured.every((n) => typeof n === 'string')))
      throw configError(`${CHECK_STREAM_NAMES_KEY} must be a list of strings.`);
    const names =
      Array.isArray(configured) && configured.length
        ? (configured as string[])
        : ((component.stream_names as unknown[] | undefined) ?? []).map(String);
    let streams;
    try {
      streams = await allStreams();
    } catch (e) {
      return done('FAILED', pythonStringRepr(`Encountered an error while discovering streams. Error: ${errorText(e)}`));
    }
    if (streams.length === 0) return done('FAILED', pythonStringRepr('No streams to connect to from source'));
    const byName = new Map(streams.map((s) => [s.name, s]));
    for (const name of names) {
      const s = byName.get(name);
      if (!s) throw configError(`${name} is not part of the catalog. Expected one of ${pythonList(streams.map((x) => x.name))}.`);
      const failure = await availabilityFailure(s.stream, rc, 'Stream', `checking availability of stream ${name}`);
      if (failure) return done('FAILED', pythonStringRepr(failure));
    }
    const dynamicChecks = Array.isArray(component.dynamic_streams_check_configs) ? (component.dynamic_streams_check_configs as Obj[]) : [];
    if (dynamicChecks.length && Array.isArray(root.dynamic_streams)) {
      const definitionNames = (root.dynamic_streams as Obj[]).map((d, i) => (typeof d?.name === 'string' ? d.name : `dynamic_stream_${i}`));
      for (const c of dynamicChecks) {
        const name = String(c.dynamic_stream_name ?? '');
        if (!definitionNames.includes(name)) return done('FAILED', pythonStringRepr(`Dynamic stream ${name} is not found in manifest.`));
        const generated = streams.filter((s) => s.definition === name);
        const count = typeof c.stream_count === 'number' ? c.stream_count : generated.length;
        for (const g of generated.slice(0, count)) {
          const failure = await availabilityFailure(g.stream, rc, 'Dynamic Stream', `checking availability of dynamic stream ${g.name}`);
          if (failure) return done('FAILED', pythonStringRepr(failure));
        }
      }
    }
    return done('SUCCEEDED', null);
  } catch (e) {
    if (e instanceof RuntimeError)
      throw new RuntimeError(masker.maskText(e.message), e.failureType, e.status !== undefined ? { status: e.status } : {});
    throw new RuntimeError(masker.maskText((e as Error)?.message ?? String(e)), 'system_error');
  }
}

/** CheckDynamicStream: the first `stream_count` streams of the source (static ones first). */
async function checkDynamicStream(
  component: Obj,
  allStreams: () => Promise<{ name: string; stream: Obj }[]>,
  rc: ReadContext,
): Promise<['SUCCEEDED' | 'FAILED', string | null]> {
  const streams = await allStreams();
  if (streams.length === 0) return ['FAILED', pythonStringRepr('No streams to connect to from source')];
  if (component.use_check_availability === false) return ['SUCCEEDED', null];
  const count = Number(component.stream_count ?? 0);
  for (const s of streams.slice(0, Math.max(0, count))) {
    let outcome;
    try {
      outcome = await streamAvailability(s.stream, rc);
    } catch (e) {
      return ['FAILED', pythonStringRepr(`Encountered an error trying to connect to stream ${s.name}. Error: ${errorText(e)}`)];
    }
    if (!outcome.available) return ['FAILED', pythonStringRepr(`Stream ${s.name} is not available: ${outcome.reason}`)];
  }
  return ['SUCCEEDED', null];
}

/** The failure text of one stream's availability, or null when it is available. */
async function availabilityFailure(stream: Obj, rc: ReadContext, label: string, action: string): Promise<string | null> {
  const name = String(stream.name ?? '');
  try {
    const outcome = await streamAvailability(stream, rc);
    if (outcome.available) return null;
    const message = `${label} ${name} is not available: ${outcome.reason}`;
    rc.log('WARN', message);
    return message;
  } catch (e) {
    const message = `Encountered an error while ${action}. Error: ${errorText(e)}`;
    rc.log('ERROR', message);
    return message;
  }
}

/**
 * str(error) as the reference has it: our token-request errors add an explanation after the reference's
 * own text ("401 Client Error: … for url: …", the invalid-refresh-token message), which a check leaves out.
 */
function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const explained = message.indexOf('. The token refresh request failed with HTTP');
  if (explained > 0) return message.slice(0, explained);
  const endpoint = message.indexOf(' (The token endpoint ');
  if (endpoint > 0) return message.slice(0, endpoint);
  return message;
}

/** Python's repr of a list of strings, as the reference prints the catalog's stream names. */
function pythonList(names: string[]): string {
  return `[${names.map(pythonStringRepr).join(', ')}]`;
}

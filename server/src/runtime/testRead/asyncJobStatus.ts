// The status side of an AsyncRetriever job: reading `status_mapping`, classifying the status a polling
// response reports, and the polling cadence and timeout of a test read.
import type { RuntimeEnv } from '../types';
import { configError, RuntimeError } from '../errors';
import { evalString, pythonStr } from '../http/interpolatedValues';

/** What the retriever does with a job in a given status. */
export type JobState = 'running' | 'completed' | 'failed' | 'timeout' | 'skipped';

const STATES: JobState[] = ['running', 'completed', 'failed', 'timeout', 'skipped'];
const REQUIRED: JobState[] = ['running', 'completed', 'failed', 'timeout'];

/** Wait between two polls of a running job: the CDK's job orchestrator polls every few seconds. */
export const POLL_INTERVAL_MS = 5_000;

/** Spec (schema AsyncRetriever.polling_job_timeout): minutes before a job counts as timed out; 60 when unset. */
export const DEFAULT_JOB_TIMEOUT_MINUTES = 60;

/** Maps API statuses to job states. */
export type StatusMapping = { classify(status: string): JobState | null; describe(): string };

/** Builds the mapping from an AsyncJobStatusMap; a status listed twice is a config error, as in the CDK. */
export function createStatusMapping(component: unknown, stream: string): StatusMapping {
  if (!component || typeof component !== 'object')
    throw configError(`Stream '${stream}': AsyncRetriever needs status_mapping (an AsyncJobStatusMap).`);
  const c = component as Record<string, unknown>;
  const byStatus = new Map<string, JobState>();
  for (const state of STATES) {
    const list = c[state];
    if (list === undefined || list === null) {
      if (REQUIRED.includes(state))
        throw configError(`Stream '${stream}': status_mapping.${state} is required (a list of the API's statuses, possibly empty).`);
      continue;
    }
    if (!Array.isArray(list)) throw configError(`Stream '${stream}': status_mapping.${state} must be a list of statuses.`);
    for (const raw of list) {
      const status = pythonStr(raw);
      const previous = byStatus.get(status);
      // The CDK refuses a status listed twice, even twice under the same state.
      if (previous)
        throw configError(
          `Stream '${stream}': status '${status}' is listed ${previous === state ? `twice in ${state}` : `in both ${previous} and ${state}`} in status_mapping; each API status may map to one job state only.`,
        );
      byStatus.set(status, state);
    }
  }
  return {
    classify: (status) => byStatus.get(status) ?? null,
    describe: () =>
      STATES.map(
        (s) =>
          `${s}: [${[...byStatus]
            .filter(([, v]) => v === s)
            .map(([k]) => k)
            .join(', ')}]`,
      ).join('; '),
  };
}

/** `polling_job_timeout` in milliseconds: an integer, or a template over the config rendering one. */
export function jobTimeoutMs(value: unknown, config: object, parameters: object, stream: string, env?: RuntimeEnv): number {
  if (value === undefined || value === null || value === '') return DEFAULT_JOB_TIMEOUT_MINUTES * 60_000;
  const rendered = typeof value === 'string' ? evalString(value, { config, parameters }, env) : value;
  const minutes = Number(rendered);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw configError(`Stream '${stream}': polling_job_timeout must be a positive number of minutes, got ${JSON.stringify(rendered)}.`);
  }
  return minutes * 60_000;
}

/** The error ending a slice whose job failed or timed out (a system error: the API, not the manifest). */
export function jobError(stream: string, message: string): RuntimeError {
  return new RuntimeError(`Stream '${stream}': ${message}`, 'system_error');
}

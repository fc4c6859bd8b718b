// What every part of a test read shares: the resolved manifest, config, limits, the environment, the
// secret masker and the sinks for auxiliary requests and logs.
import type { AuxiliaryRequest, RequestOptionCompat, TestReadEnv } from '../types';
import type { SecretMasker } from './masking';
import type { ApiBudget } from '../http/apiBudget';

export type LogLevel = 'INFO' | 'WARN' | 'ERROR' | 'DEBUG';

export type ResolvedLimits = { maxRecords: number; maxPagesPerSlice: number; maxSlices: number };

export type ReadContext = {
  manifest: Record<string, unknown>;
  config: Record<string, unknown>;
  env: TestReadEnv;
  limits: ResolvedLimits;
  masker: SecretMasker;
  /** The manifest's declared CDK version for RequestOptions, with warnings going to the read's logs. */
  requestOptionCompat?: RequestOptionCompat;
  /** The input state of a stream (`stream_state` of its state message in env.state), null without one. */
  inputState?: (stream: string) => Record<string, unknown> | null;
  /** Records an auxiliary request; `parentStream` is set for exchanges made on behalf of a parent stream. */
  aux(entry: AuxiliaryRequest, parentStream: string | null): void;
  /** `readWentOn`: an ERROR that explains the read without failing it (a body the decoder cannot read). */
  log(level: LogLevel, message: string, error?: unknown, internal?: string, readWentOn?: boolean): void;
  /**
   * Records are read as a stream's records (the reference's DeclarativePartition: a record must be an object,
   * or a dict with a schema). False for a retriever used on its own, e.g. an HttpComponentsResolver's.
   */
  recordsOfStream?: boolean;
  /** The manifest's api_budget, shared by every requester of the read (http/apiBudget.ts); none when absent. */
  apiBudget?: ApiBudget | null;
  /** Requests retry as the stream's error handler says (a `check`); a test read never retries (§9.5). */
  retries?: boolean;
};

// The interface of a read engine outside the runtime library, as the CLI's `read --engine cdk` and
// `read --compare-engines` use it. The runtime only declares it: the implementation (the Airbyte CDK
// engine, which spawns the author's Python) lives in server/src/cdkEngine/ and is injected by the
// entry point server/src/cli.ts, so nothing here starts a process.
import type { Cassette } from '../cassette/cassette';
import type { ReplayMiss } from '../cassette/replay';
import type { StreamRead } from '../testRead/streamRead';
import type { TestReadLimits } from '../types';

export type ExternalReadOptions = {
  /** The manifest's file (components.py is looked for beside it). */
  manifestPath: string;
  /** The interpreter; the engine's default when absent. */
  python?: string;
  state?: object[];
  signal?: AbortSignal;
  onConfigUpdate?: (config: Record<string, unknown>) => void;
};

export type ExternalReadEngine = {
  /** How the engine is named to the user ("Airbyte CDK"). */
  label: string;
  read(
    manifest: Record<string, unknown>,
    config: Record<string, unknown>,
    stream: string,
    limits: TestReadLimits,
    options: ExternalReadOptions,
  ): Promise<StreamRead>;
  replay(
    manifest: Record<string, unknown>,
    cassette: Cassette,
    replay: { stream: string; limits: TestReadLimits; name: string },
    options: ExternalReadOptions,
  ): Promise<{ result: StreamRead; misses: ReplayMiss[] }>;
  /** A live read with every HTTP exchange recorded into a masked cassette. */
  record(
    manifest: Record<string, unknown>,
    config: Record<string, unknown>,
    stream: string,
    limits: TestReadLimits,
    options: ExternalReadOptions,
  ): Promise<{ result: StreamRead; cassette: Cassette }>;
  /** The differences between a built-in read and this engine's read of the same stream. */
  compare(
    builtin: StreamRead,
    other: StreamRead,
    stream: string,
    limits: TestReadLimits,
  ): { identical: boolean; text: string; value: unknown };
};

/** The engines the CLI was built with, by name. */
export type ReadEngines = { cdk?: ExternalReadEngine };

// A stream built for a test read and its slicer: the types the retrievers (retriever.ts,
// asyncRetriever.ts) and the slicer (partitions.ts) share, so neither imports the other for them.
import type { AuxiliaryRequest, RequestParts } from '../types';
import type { StreamSlice } from '../records/streamSlice';
import type { DatetimeCursor } from './datetimeCursor';
import type { StreamCursor } from './streamCursor';
import type { PageResult } from './pageRequest';

type Obj = Record<string, unknown>;

/** Produces the slices of a stream and the request options of a slice. */
export type Slicer = {
  slices(): AsyncGenerator<StreamSlice>;
  requestParts(slice: StreamSlice): RequestParts;
  /** The stream's DatetimeBasedCursor, if any (pagination reset splits slices with it, §7.8). */
  cursor: DatetimeCursor | null;
  /** The stream-level cursor: what records are observed by, and the state messages (airbyte_cdk/sources/streams/concurrent/cursor.py). */
  state: StreamCursor;
};

/** Builds a parent stream; `state` is its input state (incremental_dependency), null for none. */
export type BuildParent = (parent: Obj, state: Obj | null) => BuiltStream;

/** Receives the auxiliary requests that belong to the slice being read (async-job requests, §10.4). */
export type SliceAuxiliarySink = (entry: AuxiliaryRequest) => void;

export type BuiltStream = {
  name: string;
  primaryKey: string[][];
  cursorField: string[][];
  slicer: Slicer;
  /** Pages of one slice; slice-level auxiliary requests go to `sink` (default: the read's top level). */
  readSlice(slice: StreamSlice, sink?: SliceAuxiliarySink): AsyncGenerator<PageResult>;
  /** The slice as the test read describes it, when the retriever logs something else than the whole slice. */
  descriptorOf?(slice: StreamSlice): Record<string, unknown>;
};

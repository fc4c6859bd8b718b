// One partition of a partition router, and the router's interface: the types partitions.ts, the
// routers in files of their own (groupingPartitionRouter.ts) and the cursors (streamCursor.ts) share.
import type { RequestParts } from '../types';

type Obj = Record<string, unknown>;

/** One partition of a router: its keys, and the extra fields that ride along outside the partition (§3.6). */
export type Partition = { partition: Obj; extra_fields?: Obj };

/**
 * A partition router of the slicer: its partitions, what a partition adds to a request, and its own state
 * (a substream router: `{parent name: parent state}` for its incremental_dependency parents, §5.2).
 */
export type Part = { partitions(): AsyncGenerator<Partition>; inject(parts: RequestParts, partition: Obj): void; state?(): Obj };

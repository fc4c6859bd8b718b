// GroupingPartitionRouter: batches the partitions of an underlying router into groups of group_size,
// so one request covers several partitions; each key of a grouped partition holds the list of values.
import { configError } from '../errors';
import type { Part, Partition } from './partition';
import { getOwn, setOwn } from '../shared/safeObject';

type Obj = Record<string, unknown>;

/**
 * Builds the router. Throws a config error for a group_size below 1 or a missing underlying router,
 * and for request options on the underlying router (see below).
 */
export function createGroupingRouter(router: Obj, buildUnderlying: (component: Obj) => Part): Part {
  const size = router.group_size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) {
    throw configError(`GroupingPartitionRouter.group_size must be an integer of at least 1; got ${JSON.stringify(size ?? null)}.`);
  }
  const underlyingComponent = router.underlying_partition_router as Obj | undefined;
  if (!underlyingComponent || typeof underlyingComponent !== 'object')
    throw configError('GroupingPartitionRouter requires underlying_partition_router.');
  // Upstream facts: the CDK's GroupingPartitionRouter returns empty request parameters, headers and
  // bodies, so nothing is injected from the partitions; its component factory goes further and
  // refuses an underlying ListPartitionRouter request_option or ParentStreamConfig request_option,
  // since one value per request cannot be injected for a group. The same refusal happens here.
  if (hasRequestOption(underlyingComponent)) {
    throw configError(
      'GroupingPartitionRouter: request options of the underlying partition router are not supported (one request covers a whole group); put the grouped values into the request with a template instead, e.g. "{{ stream_partition.ids | join(\',\') }}".',
    );
  }
  const underlying = buildUnderlying(underlyingComponent);
  const deduplicate = router.deduplicate !== false;
  return {
    async *partitions() {
      let batch: Partition[] = [];
      const seen = new Set<string>();
      for await (const p of underlying.partitions()) {
        // The partition value is that of the single key besides a substream's parent_slice.
        const keys = Object.keys(p.partition).filter((k) => k !== 'parent_slice');
        if (keys.length !== 1) {
          throw configError(
            `GroupingPartitionRouter expects partitions with a single key (besides parent_slice); got ${JSON.stringify(p.partition)}.`,
          );
        }
        const id = JSON.stringify(p.partition[keys[0]]) ?? 'undefined';
        if (deduplicate && seen.has(id)) continue;
        if (deduplicate) seen.add(id);
        batch.push(p);
        if (batch.length === size) {
          yield groupOf(batch);
          batch = [];
        }
      }
      if (batch.length) yield groupOf(batch);
    },
    // Nothing is injected: the requester's own templates read the grouped lists.
    inject() {},
  };
}

/** One slice for a batch: every partition key (parent_slice included) and every extra field as a list. */
function groupOf(batch: Partition[]): Partition {
  const partition: Obj = {};
  for (const key of Object.keys(batch[0].partition))
    setOwn(
      partition,
      key,
      batch.map((p) => getOwn(p.partition, key) ?? null),
    );
  const extraKeys = new Set(batch.flatMap((p) => Object.keys(p.extra_fields ?? {})));
  if (extraKeys.size === 0) return { partition };
  const extra: Obj = {};
  for (const key of extraKeys)
    setOwn(
      extra,
      key,
      batch.map((p) => getOwn(p.extra_fields, key) ?? null),
    );
  return { partition, extra_fields: extra };
}

function hasRequestOption(component: Obj): boolean {
  if (component.type === 'ListPartitionRouter') return Boolean(component.request_option);
  if (component.type === 'SubstreamPartitionRouter') {
    const configs = Array.isArray(component.parent_stream_configs) ? (component.parent_stream_configs as Obj[]) : [];
    return configs.some((pc) => Boolean(pc?.request_option));
  }
  return false;
}

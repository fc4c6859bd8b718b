// UnionPartitionRouter (CDK partition_routers/union_partition_router.py): the partitions of its child
// routers one child after the other, each value of `partition_field` once (the first occurrence wins),
// normalized to `{partition_field: value}`; the child's other partition keys (a substream's
// `parent_slice`) and extra fields ride along as extra fields. It injects nothing into requests, and the
// reference refuses children with request options or another partition field when it builds the router.
import { configError } from '../errors';
import { evalString, pythonStr } from '../http/interpolatedValues';
import type { Part, Partition } from './partition';
import type { ReadContext } from './readContext';
import { setOwn } from '../shared/safeObject';

type Obj = Record<string, unknown>;

export function createUnionRouter(router: Obj, rc: ReadContext, streamName: string, buildChild: (component: Obj) => Part): Part {
  const children = Array.isArray(router.partition_routers) ? (router.partition_routers as Obj[]) : [];
  if (children.length < 2) throw configError(`UnionPartitionRouter for stream ${streamName} needs at least 2 child partition routers`);
  const field = pythonStr(evalString(router.partition_field, { config: rc.config, parameters: (router.$parameters as Obj) ?? {} }, rc.env));
  // Built-in children whose partition field is known when the router is built must emit the union's.
  for (const child of children) {
    for (const childField of childPartitionFields(child, rc)) {
      if (childField !== field)
        throw configError(
          `UnionPartitionRouter expects all child partition routers to emit the partition field '${field}', but a ${String(child.type)} child emits '${childField}'.`,
        );
    }
  }
  const parts = children.map(buildChild);
  // A union slice comes from one child: the reference refuses request options on children it can see.
  for (const child of children) {
    const substreamOption =
      child.type === 'SubstreamPartitionRouter' &&
      ((child.parent_stream_configs as Obj[] | undefined) ?? []).some((pc) => pc.request_option);
    if (substreamOption || (child.type === 'ListPartitionRouter' && child.request_option))
      throw configError('Request options are not supported for UnionPartitionRouter.');
  }
  return {
    async *partitions() {
      const seen = new Set<string>();
      for (const part of parts) {
        for await (const p of part.partitions()) {
          if (!Object.hasOwn(p.partition, field)) {
            throw configError(
              `UnionPartitionRouter expects all child partition routers to emit the partition field '${field}'. Got ${pythonStr(p.partition)}`,
            );
          }
          const value = p.partition[field];
          const key = hashKey(value);
          if (key === null)
            throw configError(
              `UnionPartitionRouter can only deduplicate hashable partition values. Got unhashable value ${pythonStr(value)} for partition field '${field}'.`,
            );
          if (seen.has(key)) continue;
          seen.add(key);
          const extra: Obj = { ...(p.extra_fields ?? {}) };
          for (const [k, v] of Object.entries(p.partition)) if (k !== field) setOwn(extra, k, v);
          const out: Partition = { partition: { [field]: value } };
          if (Object.keys(extra).length) out.extra_fields = extra;
          yield out;
        }
      }
    },
    inject() {
      // UnionPartitionRouter.get_request_params (and headers, bodies) are empty.
    },
    state() {
      // The children's parent states merged with dict.update (the last child wins a parent name).
      const merged: Obj = {};
      for (const part of parts) Object.assign(merged, part.state?.() ?? {});
      return merged;
    },
  };
}

/** The partition fields a built-in child router emits, as the reference evaluates them at build time. */
function childPartitionFields(child: Obj, rc: ReadContext): string[] {
  const ctx = (params: unknown) => ({ config: rc.config, parameters: (params as Obj) ?? {} });
  switch (child.type) {
    case 'ListPartitionRouter':
      return [pythonStr(evalString(child.cursor_field, ctx(child.$parameters), rc.env))];
    case 'SubstreamPartitionRouter':
      return ((child.parent_stream_configs as Obj[] | undefined) ?? []).map((pc) =>
        pythonStr(evalString(pc.partition_field, ctx(pc.$parameters ?? child.$parameters), rc.env)),
      );
    case 'UnionPartitionRouter':
      return [pythonStr(evalString(child.partition_field, ctx(child.$parameters), rc.env))];
    default:
      return [];
  }
}

/** Python's set membership: equal values hash alike (1, 1.0 and True are one value); lists and dicts are unhashable (null). */
function hashKey(v: unknown): string | null {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return `n:${v ? 1 : 0}`;
  if (typeof v === 'number') return `n:${v}`;
  if (typeof v === 'string') return `s:${v}`;
  return null;
}

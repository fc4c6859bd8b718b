// Catalog of partition routers: how a stream is split into partitions (stream slices).
import { bool, int, many, one, raw, str, strs, type ComponentDef } from '../types';

const ROUTERS = ['ListPartitionRouter', 'SubstreamPartitionRouter', 'UnionPartitionRouter', 'CustomPartitionRouter'];

export const PARTITIONING_COMPONENTS: ComponentDef[] = [
  {
    type: 'ListPartitionRouter',
    area: 'partitioning',
    label: 'List Partition Router',
    description: 'One partition per value of a fixed list (or of a list from the config).',
    fields: {
      cursor_field: str('Name of the value in `stream_partition`.', {
        required: true,
        label: 'Current Partition Value Identifier',
        templateContext: 'static',
        example: 'region',
      }),
      values: raw(
        { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        'The values, or a template giving a list.',
        { required: true, label: 'Partition Values', templateContext: 'static', example: '["eu", "us"]' },
      ),
      request_option: one(['RequestOption'], 'Where the value goes in requests.', {
        label: 'Inject Partition Value Into Outgoing HTTP Request',
      }),
    },
  },
  {
    type: 'SubstreamPartitionRouter',
    area: 'partitioning',
    label: 'Substream Partition Router',
    description: 'One partition per record of a parent stream (for endpoints such as `/users/{id}/orders`).',
    fields: {
      parent_stream_configs: many(['ParentStreamConfig'], 'The parent streams and which of their fields to use.', {
        required: true,
        label: 'Parent Stream Configs',
      }),
    },
  },
  {
    type: 'ParentStreamConfig',
    area: 'partitioning',
    label: 'Parent Stream Config',
    description: 'A parent stream and the field of its records that identifies each partition.',
    fields: {
      stream: one(['DeclarativeStream', 'StateDelegatingStream'], 'The parent stream.', { required: true, label: 'Parent Stream' }),
      parent_key: str('Field of the parent record used as partition value.', { required: true, label: 'Parent Key', example: 'id' }),
      partition_field: str('Name of the value in `stream_partition`.', {
        required: true,
        label: 'Current Parent Key Value Identifier',
        example: 'parent_id',
      }),
      request_option: one(['RequestOption'], 'Where the value goes in requests.', { label: 'Request Option' }),
      incremental_dependency: bool("Read the parent incrementally, following the child's state.", {
        default: false,
        label: 'Incremental Dependency',
      }),
      lazy_read_pointer: strs('Path of child records already embedded in the parent record.', {
        default: [],
        label: 'Lazy Read Pointer',
        templateContext: 'static',
      }),
      extra_fields: raw(
        { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        'Other parent fields copied into the partition (paths).',
        { label: 'Extra Fields', templateContext: 'static' },
      ),
    },
  },
  {
    type: 'GroupingPartitionRouter',
    area: 'partitioning',
    label: 'Grouping Partition Router',
    description: 'Groups the partitions of another router so one request covers several.',
    fields: {
      group_size: int('Partitions per group.', { required: true, label: 'Group Size' }),
      underlying_partition_router: one(ROUTERS, 'The router whose partitions are grouped.', {
        required: true,
        label: 'Underlying Partition Router',
      }),
      deduplicate: bool('Drop repeated partitions.', { default: true, label: 'Deduplicate Partitions' }),
    },
  },
  {
    type: 'UnionPartitionRouter',
    area: 'partitioning',
    label: 'Union Partition Router',
    addedIn: '7.0.0',
    description: 'Chains the partitions of several routers under one field.',
    fields: {
      partition_field: str('Name of the value in `stream_partition`.', {
        required: true,
        label: 'Partition Field',
        templateContext: 'static',
      }),
      partition_routers: many(ROUTERS, 'The routers.', { required: true, label: 'Partition Routers' }),
    },
  },
];

// Catalog of the top level and of streams: the source, streams, checks, concurrency and retrievers.
import { bool, int, many, obj, one, raw, str, strs, type ComponentDef } from '../types';

const STREAM_TYPES = ['DeclarativeStream', 'StateDelegatingStream', 'ConditionalStreams'];
const TRANSFORMATIONS = [
  'AddFields',
  'RemoveFields',
  'KeysToLower',
  'KeysToSnakeCase',
  'FlattenFields',
  'DpathFlattenFields',
  'KeysReplace',
  'CustomTransformation',
];
const SCHEMA_LOADERS = ['InlineSchemaLoader', 'DynamicSchemaLoader', 'JsonFileSchemaLoader', 'CustomSchemaLoader'];
const PARTITION_ROUTERS = [
  'SubstreamPartitionRouter',
  'ListPartitionRouter',
  'GroupingPartitionRouter',
  'UnionPartitionRouter',
  'CustomPartitionRouter',
];
const DECODERS = [
  'JsonDecoder',
  'JsonItemsDecoder',
  'XmlDecoder',
  'CsvDecoder',
  'JsonlDecoder',
  'GzipDecoder',
  'IterableDecoder',
  'ZipfileDecoder',
  'CustomDecoder',
];
const REQUESTERS = ['HttpRequester', 'CustomRequester'];
const EXTRACTORS = ['DpathExtractor', 'CustomRecordExtractor'];

export const STREAM_COMPONENTS: ComponentDef[] = [
  {
    type: 'DeclarativeSource',
    area: 'source',
    description: 'A whole connector: its streams, the connection check, the user config specification and shared definitions.',
    fields: {
      version: str('The CDK version the manifest was written for. Fields removed in later versions are accepted for older ones.', {
        required: true,
        example: '6.44.0',
      }),
      check: one(['CheckStream', 'CheckDynamicStream'], 'How the connection is tested: by reading from the named streams.', {
        required: true,
      }),
      streams: many(STREAM_TYPES, 'The streams of the connector.'),
      dynamic_streams: many(['DynamicDeclarativeStream'], 'Stream templates turned into streams at run time from the API or the config.'),
      schemas: obj("JSON schemas of the records, usually referenced by the streams' schema loaders."),
      definitions: obj('Free-form place for reusable pieces, referenced with `$ref` or `#/definitions/...`.'),
      spec: one(['Spec'], 'The user config specification (what the user fills in).'),
      concurrency_level: one(['ConcurrencyLevel'], 'How many partitions are read in parallel.'),
      api_budget: one(['HTTPAPIBudget'], 'Client-side rate limits shared by all streams.'),
      stream_groups: obj('Named groups of streams with an action such as blocking simultaneous syncs.', { addedIn: '7.0.0' }),
      max_concurrent_async_job_count: int('Most asynchronous jobs run at once.', {
        types: ['integer', 'string'],
        templateContext: 'static',
      }),
      metadata: obj("Free-form data for tools (for example the Connector Builder's testing values)."),
      description: str('A description of the connector.'),
    },
    example:
      'version: 6.44.0\ntype: DeclarativeSource\ncheck:\n  type: CheckStream\n  stream_names: [users]\nstreams: []\nspec:\n  type: Spec\n  connection_specification: { type: object, properties: {} }',
  },
  {
    type: 'CheckStream',
    area: 'streams',
    label: 'Streams to Check',
    description: 'Tests a connection by reading the first record of the named streams.',
    fields: {
      stream_names: strs('Streams to try.', { label: 'Stream Names', example: '["users"]' }),
      dynamic_streams_check_configs: many(['DynamicStreamCheckConfig'], 'Dynamic streams to try.'),
      config_overrides: obj('Config values replaced during the check (copied verbatim, never resolved).', {
        label: 'Config Overrides',
        addedIn: '7.0.0',
      }),
    },
  },
  {
    type: 'DynamicStreamCheckConfig',
    area: 'streams',
    description: 'A dynamic stream to try during the connection check.',
    fields: {
      dynamic_stream_name: str('Name of the dynamic stream definition.', { required: true, label: 'Dynamic Stream Name' }),
      stream_count: int('How many of its generated streams to try.', { label: 'Stream Count' }),
    },
  },
  {
    type: 'CheckDynamicStream',
    area: 'streams',
    label: 'Dynamic Streams to Check',
    description: 'Tests a connection through the first generated dynamic streams.',
    fields: {
      stream_count: int('How many generated streams to try.', { required: true, label: 'Stream Count' }),
      use_check_availability: bool('Read a record from each instead of only generating them.', {
        default: true,
        label: 'Use Check Availability',
      }),
      config_overrides: obj('Config values replaced during the check.', { label: 'Config Overrides', addedIn: '7.0.0' }),
    },
  },
  {
    type: 'ConcurrencyLevel',
    area: 'streams',
    typeOptional: true,
    label: 'Concurrency Level',
    description: 'How many partitions are read at the same time.',
    fields: {
      default_concurrency: int('Default number of workers; may come from the config.', {
        required: true,
        types: ['integer', 'string'],
        label: 'Default Concurrency',
        templateContext: 'static',
      }),
      max_concurrency: int('Upper bound when the number comes from the config.', { label: 'Max Concurrency' }),
    },
  },
  {
    type: 'DeclarativeStream',
    area: 'streams',
    label: 'Declarative Stream',
    description:
      'One stream: how its records are requested and extracted, its schema, primary key, incremental cursor and transformations.',
    fields: {
      name: str('The stream name shown to users.', { default: '', label: 'Name', example: 'users' }),
      retriever: one(['SimpleRetriever', 'AsyncRetriever', 'CustomRetriever'], 'How records are fetched.', {
        required: true,
        label: 'Retriever',
      }),
      incremental_sync: one(
        ['DatetimeBasedCursor', 'IncrementingCountCursor', 'CustomIncrementalSync'],
        'How the stream reads only new records after the first sync.',
        { label: 'Incremental Sync' },
      ),
      primary_key: raw(
        {
          anyOf: [
            { type: 'string' },
            { type: 'array', items: { type: 'string' } },
            { type: 'array', items: { type: 'array', items: { type: 'string' } } },
          ],
        },
        'Field(s) that identify a record: a name, a list of names, or a list of paths.',
        { default: '', label: 'Primary Key', example: 'id' },
      ),
      schema_loader: {
        description: 'Where the JSON schema of the records comes from.',
        components: SCHEMA_LOADERS,
        list: true,
        alsoSingle: true,
        label: 'Schema Loader',
      },
      transformations: many(TRANSFORMATIONS, 'Changes applied to each record, in order.', { label: 'Transformations' }),
      state_migrations: many(['LegacyToPerPartitionStateMigration', 'CustomStateMigration'], 'Conversions of older saved state.', {
        default: [],
        label: 'State Migrations',
      }),
      file_uploader: one(['FileUploader'], 'Downloads a file for each record.', { label: 'File Uploader' }),
    },
    openFields: false,
    example:
      'type: DeclarativeStream\nname: users\nprimary_key: id\nretriever:\n  type: SimpleRetriever\n  requester:\n    type: HttpRequester\n    url_base: https://api.example.com\n    path: /users\n  record_selector:\n    type: RecordSelector\n    extractor:\n      type: DpathExtractor\n      field_path: [data]',
  },
  {
    type: 'FileUploader',
    area: 'streams',
    label: 'File Uploader',
    description: 'Finds and downloads a file for each record.',
    fields: {
      requester: one(REQUESTERS, 'The download request.', { required: true }),
      download_target_extractor: one(EXTRACTORS, 'Extracts the download URL from the record.', { required: true }),
      file_extractor: one(EXTRACTORS, 'Extracts the file content from the download response.'),
      filename_extractor: str('Template of the stored file name.'),
    },
  },
  {
    type: 'StateDelegatingStream',
    area: 'streams',
    label: 'State Delegating Stream',
    description: 'Uses one stream for the first (full) sync and another once state exists.',
    fields: {
      name: str('The stream name.', { required: true, default: '', label: 'Name' }),
      full_refresh_stream: one(['DeclarativeStream'], 'The stream used without state.', { required: true, label: 'Full Refresh Stream' }),
      incremental_stream: one(['DeclarativeStream'], 'The stream used with state.', { required: true, label: 'Incremental Stream' }),
      api_retention_period: str('How far back the API keeps data (ISO 8601 duration); older state restarts a full sync.', {
        label: 'API Retention Period',
        addedIn: '7.0.0',
      }),
    },
  },
  {
    type: 'ConditionalStreams',
    area: 'streams',
    label: 'Conditional Streams',
    description: 'Streams included only when a condition on the config holds.',
    fields: {
      condition: str('Template evaluated on the config.', { required: true, label: 'Condition', templateContext: 'static' }),
      streams: many(['DeclarativeStream'], 'The streams included when the condition holds.', { required: true, label: 'Streams' }),
    },
  },
  {
    type: 'StreamGroup',
    area: 'streams',
    typeOptional: true,
    label: 'Stream Group',
    addedIn: '7.0.0',
    description: 'Streams that share a constraint.',
    fields: {
      streams: many(['DeclarativeStream'], 'The streams of the group.', { required: true, label: 'Streams' }),
      action: one(['BlockSimultaneousSyncsAction'], 'The constraint.', { required: true, label: 'Action' }),
    },
  },
  {
    type: 'BlockSimultaneousSyncsAction',
    area: 'streams',
    label: 'Block Simultaneous Syncs Action',
    addedIn: '7.0.0',
    description: 'Prevents the streams of a group from syncing at the same time.',
    fields: {},
  },
  {
    type: 'SimpleRetriever',
    area: 'retrievers',
    label: 'Synchronous Retriever',
    description: 'Reads records page by page with synchronous requests, for each partition.',
    fields: {
      requester: one(REQUESTERS, 'How requests are sent.', { required: true }),
      decoder: one(DECODERS, 'Format of the responses.', { label: 'HTTP Response Format' }),
      record_selector: one(['RecordSelector'], 'How records are found in each response.', { required: true }),
      paginator: one(['DefaultPaginator', 'NoPagination'], 'How further pages are requested.'),
      pagination_reset: one(['PaginationReset'], 'What to do when the API refuses further pages.', { addedIn: '7.0.0' }),
      ignore_stream_slicer_parameters_on_paginated_requests: bool("Send the partition's request options only with the first page.", {
        default: false,
      }),
      partition_router: {
        description: 'How the stream is split into partitions (one or several routers).',
        components: PARTITION_ROUTERS,
        list: true,
        alsoSingle: true,
        label: 'Partition Router',
      },
    },
  },
  {
    type: 'AsyncRetriever',
    area: 'retrievers',
    label: 'Asynchronous Retriever',
    description: 'Reads records through an asynchronous job: create it, poll its status, then download the result.',
    fields: {
      record_selector: one(['RecordSelector'], 'How records are found in the downloaded data.', { required: true }),
      status_mapping: one(['AsyncJobStatusMap'], 'Which API statuses mean running, completed, failed or timed out.', { required: true }),
      status_extractor: one(EXTRACTORS, 'Extracts the job status from the polling response.', { required: true }),
      download_target_extractor: one(EXTRACTORS, 'Extracts the download URL(s) from the polling response.'),
      download_extractor: one([...EXTRACTORS, 'ResponseToFileExtractor'], 'Extracts records from the downloaded data.'),
      creation_requester: one(REQUESTERS, 'Request that creates the job.', { required: true }),
      polling_requester: one(REQUESTERS, 'Request that reads the job status.', { required: true }),
      polling_job_timeout: int('Minutes before a job is considered timed out.', {
        types: ['integer', 'string'],
        templateContext: 'static',
      }),
      failed_retry_wait_time_in_seconds: int('Seconds to wait before retrying a failed job.', {
        types: ['integer', 'string'],
        templateContext: 'static',
        addedIn: '7.0.0',
      }),
      download_target_requester: one(REQUESTERS, 'Request that fetches the download URL(s).'),
      download_requester: one(REQUESTERS, 'Request that downloads the result.', { required: true }),
      download_paginator: one(['DefaultPaginator', 'NoPagination'], 'Pagination of the download.'),
      abort_requester: one(REQUESTERS, 'Request that cancels a job.'),
      delete_requester: one(REQUESTERS, 'Request that deletes a finished job.'),
      partition_router: {
        description: 'How the stream is split into partitions.',
        components: PARTITION_ROUTERS,
        list: true,
        alsoSingle: true,
        default: [],
        label: 'Partition Router',
      },
      decoder: one(DECODERS, 'Format of the creation and polling responses.', { label: 'HTTP Response Format' }),
      download_decoder: one(DECODERS, 'Format of the downloaded data.', { label: 'Download HTTP Response Format' }),
    },
  },
  {
    type: 'AsyncJobStatusMap',
    area: 'retrievers',
    typeOptional: true,
    description: "Maps the API's job statuses to the retriever's states.",
    fields: {
      running: strs('Statuses of a running job.', { required: true }),
      completed: strs('Statuses of a finished job.', { required: true }),
      failed: strs('Statuses of a failed job.', { required: true }),
      timeout: strs('Statuses of a timed-out job.', { required: true }),
      skipped: strs('Statuses of a job the API skipped.', { addedIn: '7.0.0' }),
    },
  },
];

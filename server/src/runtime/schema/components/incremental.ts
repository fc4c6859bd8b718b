// Catalog of incremental cursors and datetimes (which records a sync reads after the first one).
import { bool, one, str, strs, obj, type ComponentDef } from '../types';

export const INCREMENTAL_COMPONENTS: ComponentDef[] = [
  {
    type: 'DatetimeBasedCursor',
    area: 'incremental',
    label: 'Datetime Based Cursor',
    description: 'Reads records in date windows from a start date, remembering the latest cursor value for the next sync.',
    fields: {
      cursor_field: str('Record field holding the datetime the cursor follows.', {
        required: true,
        label: 'Cursor Field',
        templateContext: 'static',
        example: 'updated_at',
      }),
      allow_catalog_defined_cursor_field: bool('Let users pick another cursor field in the catalog.', {
        label: 'Allow Catalog Defined Cursor Field',
        addedIn: '7.0.0',
      }),
      datetime_format: str('Format of the datetimes sent to the API (strftime codes, or `%s` / `%ms` for epochs).', {
        required: true,
        label: 'Outgoing Datetime Format',
        example: '"%Y-%m-%dT%H:%M:%SZ"',
        examples: ['%Y-%m-%dT%H:%M:%S.%f%z', '%Y-%m-%dT%H:%M:%SZ', '%Y-%m-%d', '%s', '%ms', '%s_as_float'],
      }),
      cursor_datetime_formats: strs('Formats tried, in order, to parse the cursor values of records.', {
        label: 'Cursor Datetime Formats',
      }),
      start_datetime: one(['MinMaxDatetime'], 'Where the first sync starts.', {
        required: true,
        types: ['string'],
        label: 'Start Datetime',
        templateContext: 'static',
        example: '"{{ config[\'start_date\'] }}"',
      }),
      start_time_option: one(['RequestOption'], 'Where the window start goes in requests.', {
        label: 'Inject Start Time Into Outgoing HTTP Request',
      }),
      end_datetime: one(['MinMaxDatetime'], 'Where reading stops (default: now).', {
        types: ['string'],
        label: 'End Datetime',
        templateContext: 'static',
      }),
      end_time_option: one(['RequestOption'], 'Where the window end goes in requests.', {
        label: 'Inject End Time Into Outgoing HTTP Request',
      }),
      cursor_granularity: str(
        'Smallest step of the cursor (ISO 8601 duration); windows end one step before the next starts. Needed with `step`.',
        { label: 'Cursor Granularity', example: 'PT1S', examples: ['PT1S', 'P1D'] },
      ),
      step: str('Length of each date window (ISO 8601 duration).', { label: 'Step', example: 'P30D', examples: ['P1W', 'P1M', 'P30D'] }),
      is_data_feed: bool('The API returns newest records first; pagination stops at already-synced records.', { label: 'Data Feed API' }),
      is_client_side_incremental: bool('The API cannot filter by date; records older than the state are dropped here.', {
        label: 'Client-side Incremental Filtering',
      }),
      is_compare_strictly: bool('Skip windows whose start equals their end.', {
        default: false,
        label: 'Strict Start-End Time Comparison',
      }),
      global_substream_cursor: bool('Keep one cursor for all partitions instead of one per partition.', {
        default: false,
        label: 'Global Substream Cursor',
      }),
      lookback_window: str('How far before the saved state each sync restarts (ISO 8601 duration).', {
        label: 'Lookback Window',
        templateContext: 'static',
        example: 'P3D',
        examples: ['P1D', 'P3D'],
      }),
      partition_field_start: str('Name of the window start in `stream_interval`.', { label: 'Partition Field Start' }),
      partition_field_end: str('Name of the window end in `stream_interval`.', { label: 'Partition Field End' }),
      clamping: obj('Aligns windows on calendar boundaries (day, week, month).', { label: 'Date Range Clamping' }),
    },
    example:
      'type: DatetimeBasedCursor\ncursor_field: updated_at\ndatetime_format: "%Y-%m-%dT%H:%M:%SZ"\nstart_datetime: "{{ config[\'start_date\'] }}"',
  },
  {
    type: 'MinMaxDatetime',
    area: 'incremental',
    label: 'Min-Max Datetime',
    description: 'A datetime template with its format and optional bounds.',
    fields: {
      datetime: str('The datetime template.', {
        required: true,
        label: 'Datetime',
        templateContext: 'static',
        example: '"{{ config[\'start_date\'] }}"',
      }),
      datetime_format: str('Format of the rendered datetime; empty means ISO 8601.', {
        default: '',
        label: 'Datetime Format',
        examples: ['%Y-%m-%dT%H:%M:%S.%f%z', '%Y-%m-%dT%H:%M:%SZ', '%Y-%m-%d', '%s'],
      }),
      max_datetime: str('Upper bound.', { label: 'Max Datetime', templateContext: 'static' }),
      min_datetime: str('Lower bound.', { label: 'Min Datetime', templateContext: 'static' }),
    },
  },
  {
    type: 'IncrementingCountCursor',
    area: 'incremental',
    label: 'Incrementing Count Cursor',
    description: 'Follows an ever-increasing number in the records (such as an id).',
    fields: {
      cursor_field: str('Record field holding the number.', { required: true, label: 'Cursor Field', templateContext: 'static' }),
      allow_catalog_defined_cursor_field: bool('Let users pick another cursor field in the catalog.', {
        label: 'Allow Catalog Defined Cursor Field',
        addedIn: '7.0.0',
      }),
      start_value: str('Value the first sync starts from.', {
        types: ['string', 'integer'],
        label: 'Start Value',
        templateContext: 'static',
      }),
      start_value_option: one(['RequestOption'], 'Where the start value goes in requests.', {
        label: 'Inject Start Value Into Outgoing HTTP Request',
      }),
    },
  },
  {
    type: 'CustomIncrementalSync',
    area: 'incremental',
    label: 'Custom Incremental Sync',
    description: 'An incremental cursor implemented by a Python class of the connector.',
    removedIn: '7.0.0',
    openFields: true,
    fields: {
      class_name: str('Fully qualified name of the Python class.', { required: true, example: 'source_example.components.MyCursor' }),
      cursor_field: str('Record field the cursor follows.', { required: true }),
    },
  },
];

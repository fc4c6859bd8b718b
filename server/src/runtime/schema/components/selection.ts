// Catalog of record selection (airbyte_cdk/sources/declarative/extractors/record_selector.py): selectors, extractors, filters.
import { bool, one, str, strs, type ComponentDef } from '../types';

export const SELECTION_COMPONENTS: ComponentDef[] = [
  {
    type: 'RecordSelector',
    area: 'selection',
    label: 'Record Selector',
    description: 'Finds the records in a response: extracts them, filters them and normalizes them to the schema.',
    fields: {
      extractor: one(['DpathExtractor', 'CustomRecordExtractor'], 'Extracts the records from the decoded response.', { required: true }),
      record_filter: one(['RecordFilter', 'CustomRecordFilter'], 'Keeps only the records matching a condition.', {
        label: 'Record Filter',
      }),
      schema_normalization: one(
        ['CustomSchemaNormalization'],
        'Casts record values to the types of the schema: `Default` does, `None` leaves records as they are.',
        { types: ['string'], enum: ['Default', 'None'], label: 'Schema Normalization' },
      ),
      transform_before_filtering: bool("Apply the stream's transformations before the record filter.", {
        label: 'Transform Before Filtering',
      }),
    },
    example: 'type: RecordSelector\nextractor:\n  type: DpathExtractor\n  field_path: [data]',
  },
  {
    type: 'DpathExtractor',
    area: 'selection',
    label: 'Dpath Extractor',
    description: 'Extracts records at a path of the response (`*` matches every key or item); an empty path takes the whole response.',
    fields: {
      field_path: strs('Path of the records in the response.', {
        required: true,
        label: 'Field Path',
        templateContext: 'static',
        example: '["data", "items"]',
      }),
      record_expander: one(['RecordExpander'], 'Expands each extracted record into the items of one of its lists.', {
        label: 'Record Expander',
        addedIn: '7.0.0',
      }),
      decoder: one(['JsonDecoder'], 'Format of the response.', {}),
    },
    example: 'type: DpathExtractor\nfield_path: [data]',
  },
  {
    type: 'RecordExpander',
    area: 'selection',
    label: 'Record Expander',
    addedIn: '7.0.0',
    description: 'Turns one extracted record into one record per item of a nested list.',
    fields: {
      expand_records_from_field: strs('Path of the list inside each record.', {
        required: true,
        label: 'Expand Records From Field',
        templateContext: 'static',
      }),
      remain_original_record: bool('Keep the parent record next to each item.', { default: false, label: 'Remain Original Record' }),
      on_no_records: str('What to emit when the list is empty.', {
        default: 'skip',
        enum: ['skip', 'emit_parent'],
        label: 'On No Records',
      }),
    },
  },
  {
    type: 'ResponseToFileExtractor',
    area: 'selection',
    label: 'CSV To File Extractor',
    description: 'Streams a large CSV response to a temporary file and reads records from it.',
    fields: {
      preserve_na_values: bool('Keep values such as `NA` as text instead of turning them into nulls.', {
        default: false,
        label: 'Preserve NA Values',
        addedIn: '7.0.0',
      }),
    },
  },
  {
    type: 'RecordFilter',
    area: 'selection',
    label: 'Record Filter',
    description: 'Keeps only the records for which the condition is true.',
    fields: {
      condition: str('Template evaluated per record.', {
        default: '',
        label: 'Condition',
        templateContext: 'record_filter',
        example: "\"{{ record['status'] != 'deleted' }}\"",
      }),
    },
  },
];

export const DECODER_COMPONENTS: ComponentDef[] = [
  { type: 'JsonDecoder', area: 'decoders', label: 'JSON', description: 'Parses responses as JSON.', fields: {} },
  {
    type: 'JsonItemsDecoder',
    area: 'decoders',
    label: 'JSON Items (Streaming)',
    addedIn: '7.0.0',
    description: 'Streams the items of one list of a large JSON response.',
    fields: {
      items_path: str('Path of the list, dot-separated.', { required: true, label: 'Items Path' }),
      encoding: str('Text encoding of the response.', { default: 'utf-8', label: 'Encoding' }),
    },
  },
  {
    type: 'JsonlDecoder',
    area: 'decoders',
    label: 'JSON Lines',
    description: 'Parses responses with one JSON document per line.',
    fields: {},
  },
  {
    type: 'IterableDecoder',
    area: 'decoders',
    label: 'Iterable',
    description: 'Turns each line of a plain-text response into a record.',
    fields: {},
  },
  { type: 'XmlDecoder', area: 'decoders', label: 'XML', description: 'Parses XML responses into nested mappings.', fields: {} },
  {
    type: 'CsvDecoder',
    area: 'decoders',
    label: 'CSV',
    description: 'Parses CSV responses, one record per row.',
    fields: {
      encoding: str('Text encoding of the response.', { default: 'utf-8' }),
      delimiter: str('Column separator.', { default: ',' }),
      set_values_to_none: strs('Cell values read as null.'),
    },
  },
  {
    type: 'GzipDecoder',
    area: 'decoders',
    label: 'gzip',
    description: 'Decompresses gzip responses, then parses them with the inner decoder.',
    fields: {
      decoder: one(['CsvDecoder', 'GzipDecoder', 'JsonDecoder', 'JsonItemsDecoder', 'JsonlDecoder'], 'Parser of the decompressed data.', {
        required: true,
      }),
    },
  },
  {
    type: 'ZipfileDecoder',
    area: 'decoders',
    label: 'ZIP File',
    description: 'Unzips responses, then parses each file with the inner decoder.',
    openFields: true,
    fields: {
      decoder: one(['CsvDecoder', 'GzipDecoder', 'JsonDecoder', 'JsonItemsDecoder', 'JsonlDecoder'], 'Parser of the unzipped files.', {
        required: true,
        label: 'Parser',
      }),
    },
  },
];

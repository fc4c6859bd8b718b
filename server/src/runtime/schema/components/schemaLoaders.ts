// Catalog of schema loaders: where the JSON schema of a stream's records comes from.
import { many, obj, one, raw, str, strs, type ComponentDef } from '../types';

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

export const SCHEMA_LOADER_COMPONENTS: ComponentDef[] = [
  {
    type: 'InlineSchemaLoader',
    area: 'schema-loaders',
    label: 'Inline Schema Loader',
    description: 'The schema written in the manifest (often a reference into `schemas`).',
    fields: { schema: obj('The JSON schema of the records.', { label: 'Schema', example: '"#/schemas/users"' }) },
    example: 'type: InlineSchemaLoader\nschema:\n  $ref: "#/schemas/users"',
  },
  {
    type: 'JsonFileSchemaLoader',
    area: 'schema-loaders',
    label: 'Json File Schema Loader',
    deprecated: 'use `InlineSchemaLoader` with the schema in the manifest (a manifest-only connector ships no schema files)',
    description: 'Reads the schema from a JSON file shipped with the connector (default: `schemas/<stream>.json`).',
    fields: { file_path: str('Path of the file.', { label: 'File Path', templateContext: 'static' }) },
  },
  {
    type: 'DynamicSchemaLoader',
    area: 'schema-loaders',
    label: 'Dynamic Schema Loader',
    description: 'Builds the schema at run time from an endpoint that describes the fields.',
    fields: {
      retriever: one(['SimpleRetriever', 'AsyncRetriever', 'CustomRetriever'], 'Reads the field descriptions.', {
        required: true,
        label: 'Retriever',
      }),
      schema_filter: one(['RecordFilter', 'CustomRecordFilter'], 'Keeps only some field descriptions.', { label: 'Schema Filter' }),
      schema_transformations: many(TRANSFORMATIONS, 'Changes applied to the field descriptions.', { label: 'Schema Transformations' }),
      schema_type_identifier: one(['SchemaTypeIdentifier'], 'Where names and types are found in each description.', { required: true }),
    },
  },
  {
    type: 'SchemaTypeIdentifier',
    area: 'schema-loaders',
    typeOptional: true,
    label: 'Schema Type Identifier',
    description: "Where the field list, each field's name and each field's type are found.",
    fields: {
      schema_pointer: strs('Path of the field list in the response.', { default: [], label: 'Schema Path', templateContext: 'static' }),
      key_pointer: strs('Path of the field name in each description.', { required: true, label: 'Key Path', templateContext: 'static' }),
      type_pointer: strs('Path of the field type in each description.', { label: 'Type Path', templateContext: 'static' }),
      types_mapping: many(['TypesMap'], 'How API types map to JSON schema types.'),
    },
  },
  {
    type: 'TypesMap',
    area: 'schema-loaders',
    typeOptional: true,
    label: 'Types Map',
    description: 'Maps one API type to a JSON schema type.',
    fields: {
      target_type: raw(
        { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }] },
        'The JSON schema type(s), or a `ComplexFieldType`.',
        { required: true, components: ['ComplexFieldType'] },
      ),
      current_type: raw({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, 'The API type(s).', {
        required: true,
      }),
      condition: str('Only map when this template is true.', { templateVariables: ['raw_schema'] }),
    },
  },
  {
    type: 'ComplexFieldType',
    area: 'schema-loaders',
    typeOptional: true,
    label: 'Schema Field Type',
    description: 'A JSON schema type with item type, for arrays.',
    fields: {
      field_type: str('The type.', { required: true }),
      items: raw({ anyOf: [{ type: 'string' }, { type: 'object' }] }, 'Type of the items.', { components: ['ComplexFieldType'] }),
    },
  },
];

// Catalog of record transformations (applied to each record after selection).
import { bool, many, one, raw, str, strs, type ComponentDef } from '../types';

export const TRANSFORMATION_COMPONENTS: ComponentDef[] = [
  {
    type: 'AddFields',
    area: 'transformations',
    label: 'Add Fields',
    description: 'Adds or replaces fields of each record with computed values.',
    fields: {
      fields: many(['AddedFieldDefinition'], 'The fields to set.', { required: true, label: 'Fields' }),
      condition: str('Only set the fields when this template is true (the `property` variable is the field).', {
        default: '',
        templateVariables: ['config', 'property', 'parameters'],
      }),
    },
    example: 'type: AddFields\nfields:\n  - type: AddedFieldDefinition\n    path: [account_id]\n    value: "{{ config[\'account_id\'] }}"',
  },
  {
    type: 'AddedFieldDefinition',
    area: 'transformations',
    label: 'Definition Of Field To Add',
    description: 'One field to set: where, and its value template.',
    fields: {
      path: strs('Path of the field in the record.', { required: true, label: 'Path', example: '["account_id"]' }),
      value: str('Template of the value.', {
        required: true,
        label: 'Value',
        templateContext: 'transformation',
        example: '"{{ record[\'id\'] }}"',
      }),
      value_type: str('Type the rendered value is converted to.', {
        enum: ['string', 'number', 'integer', 'boolean'],
        label: 'Value Type',
      }),
    },
  },
  {
    type: 'RemoveFields',
    area: 'transformations',
    label: 'Remove Fields',
    description: 'Removes fields from each record.',
    fields: {
      condition: str('Only remove fields for which this template is true.', {
        default: '',
        templateVariables: ['config', 'property', 'parameters'],
      }),
      field_pointers: raw(
        { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        'Paths of the fields to remove (`*` allowed).',
        { required: true, label: 'Field Paths', example: '[["metadata"], ["links", "*"]]' },
      ),
    },
  },
  {
    type: 'KeysToLower',
    area: 'transformations',
    label: 'Keys to Lower Case',
    description: 'Turns every key of the record into lower case.',
    fields: {},
  },
  {
    type: 'KeysToSnakeCase',
    area: 'transformations',
    label: 'Key to Snake Case',
    description: 'Turns every key of the record into snake_case.',
    fields: {},
  },
  {
    type: 'FlattenFields',
    area: 'transformations',
    label: 'Flatten Fields',
    description: 'Flattens nested objects into top-level fields with dotted names.',
    fields: { flatten_lists: bool('Flatten lists too, with item indexes in the names.', { default: true, label: 'Flatten Lists' }) },
  },
  {
    type: 'DpathFlattenFields',
    area: 'transformations',
    label: 'Dpath Flatten Fields',
    description: 'Moves the fields of one nested object to the top level of the record.',
    fields: {
      field_path: strs('Path of the nested object.', { required: true, label: 'Field Path' }),
      delete_origin_value: bool('Remove the nested object afterwards.', { label: 'Delete Origin Value' }),
      replace_record: bool('Replace the whole record by the nested object.', { label: 'Replace Origin Record' }),
      key_transformation: one(['KeyTransformation'], 'Prefix or suffix added to the moved keys.', { label: 'Key transformation' }),
    },
  },
  {
    type: 'KeyTransformation',
    area: 'transformations',
    description: 'A prefix and/or suffix added to keys.',
    fields: {
      prefix: str('Text put before each key.', { label: 'Key Prefix' }),
      suffix: str('Text put after each key.', { label: 'Key Suffix' }),
    },
  },
  {
    type: 'KeysReplace',
    area: 'transformations',
    label: 'Keys Replace',
    description: 'Replaces a substring in every key of the record.',
    fields: {
      old: str('Text to replace.', { required: true, label: 'Old value', templateContext: 'transformation' }),
      new: str('Replacement text.', { required: true, label: 'New value', templateContext: 'transformation' }),
    },
  },
];

// Catalog of dynamic streams: stream templates expanded at run time from the API or the config.
import { bool, many, one, raw, str, strs, type ComponentDef } from '../types';

const COMPONENT_VALUE_VARIABLES = ['config', 'components_values', 'stream_slice', 'stream_template_config'];

export const DYNAMIC_STREAM_COMPONENTS: ComponentDef[] = [
  {
    type: 'DynamicDeclarativeStream',
    area: 'dynamic-streams',
    label: 'Dynamic Declarative Stream',
    description: 'A stream template plus a resolver that produces one stream per item it finds.',
    fields: {
      name: str('Name of this dynamic stream definition.', { default: '', label: 'Name' }),
      stream_template: one(['DeclarativeStream', 'StateDelegatingStream'], 'The template of each generated stream.', {
        required: true,
        label: 'Stream Template',
      }),
      components_resolver: one(
        ['HttpComponentsResolver', 'ConfigComponentsResolver', 'ParametrizedComponentsResolver'],
        'Where the items come from and how they fill the template.',
        { required: true, label: 'Components Resolver' },
      ),
      use_parent_parameters: bool("Parent `$parameters` win over the template's own.", { default: true, label: 'Use Parent Parameters' }),
    },
  },
  {
    type: 'HttpComponentsResolver',
    area: 'dynamic-streams',
    label: 'Http Components Resolver',
    description: 'Reads the items from an endpoint.',
    fields: {
      retriever: one(['SimpleRetriever', 'AsyncRetriever', 'CustomRetriever'], 'Reads the items.', { required: true, label: 'Retriever' }),
      components_mapping: many(['ComponentMappingDefinition'], 'Which template fields each item sets.', { required: true }),
    },
  },
  {
    type: 'ConfigComponentsResolver',
    area: 'dynamic-streams',
    label: 'Config Components Resolver',
    description: 'Reads the items from a list in the user config.',
    fields: {
      stream_config: {
        description: 'Where the items are in the config.',
        components: ['StreamConfig'],
        list: true,
        alsoSingle: true,
        required: true,
      },
      components_mapping: many(['ComponentMappingDefinition'], 'Which template fields each item sets.', { required: true }),
    },
  },
  {
    type: 'StreamConfig',
    area: 'dynamic-streams',
    label: 'Stream Config',
    description: 'A list of items in the user config.',
    fields: {
      configs_pointer: strs('Path of the list in the config.', {
        required: true,
        label: 'Configs Pointer',
        templateVariables: ['parameters'],
      }),
      default_values: raw({ type: 'array', items: { type: 'object' } }, 'Items always added to the list.', { label: 'Default Values' }),
    },
  },
  {
    type: 'ParametrizedComponentsResolver',
    area: 'dynamic-streams',
    label: 'Parametrized Components Resolver',
    description: 'Takes the items from a list written in the manifest.',
    fields: {
      stream_parameters: one(['StreamParametersDefinition'], 'The items.', { required: true }),
      components_mapping: many(['ComponentMappingDefinition'], 'Which template fields each item sets.', { required: true }),
    },
  },
  {
    type: 'StreamParametersDefinition',
    area: 'dynamic-streams',
    label: 'Stream Parameters Definition',
    description: 'A list of parameter sets, one per generated stream.',
    fields: {
      list_of_parameters_for_stream: raw({ type: 'array', items: { type: 'object' } }, 'The parameter sets.', {
        required: true,
        label: 'Stream Parameters',
      }),
    },
  },
  {
    type: 'ComponentMappingDefinition',
    area: 'dynamic-streams',
    label: 'Component Mapping Definition',
    description: 'Sets one field of the stream template from the current item.',
    fields: {
      field_path: strs('Path of the template field.', {
        required: true,
        label: 'Field Path',
        templateVariables: COMPONENT_VALUE_VARIABLES,
      }),
      value: str('Template of the value.', { required: true, label: 'Value', templateVariables: COMPONENT_VALUE_VARIABLES }),
      value_type: str('Type the rendered value is converted to.', {
        enum: ['string', 'number', 'integer', 'boolean'],
        label: 'Value Type',
      }),
      create_or_update: bool('Create the field when the template lacks it.', { default: false, label: 'Create or Update' }),
      condition: str('Only apply when this template is true.', {
        label: 'Condition',
        templateVariables: COMPONENT_VALUE_VARIABLES,
        addedIn: '7.0.0',
      }),
    },
  },
];

// Catalog of the connector specification and of config normalization (migrations, validations).
import { many, obj, one, raw, str, strs, type ComponentDef } from '../types';

export const SPEC_COMPONENTS: ComponentDef[] = [
  {
    type: 'Spec',
    area: 'spec',
    label: 'Spec',
    description: 'What users fill in to configure the connector (a JSON schema), plus documentation and OAuth setup.',
    fields: {
      connection_specification: obj('JSON schema of the user config. Fields with `airbyte_secret: true` are masked.', {
        required: true,
        label: 'Connection Specification',
      }),
      documentation_url: str('Link to the connector documentation.', { label: 'Documentation URL' }),
      advanced_auth: one(['AuthFlow'], 'OAuth consent flow set-up for platforms that offer it.', { label: 'Advanced Auth' }),
      config_normalization_rules: one(
        ['ConfigNormalizationRules'],
        'Migrations, transformations and validations applied to the user config.',
        { label: 'Config Normalization Rules' },
      ),
    },
    example:
      'type: Spec\nconnection_specification:\n  type: object\n  required: [api_key]\n  properties:\n    api_key:\n      type: string\n      airbyte_secret: true',
  },
  {
    type: 'AuthFlow',
    area: 'spec',
    typeOptional: true,
    label: 'Auth flow',
    description: 'Describes the OAuth consent flow of the connector.',
    fields: {
      auth_flow_type: str('The OAuth flavour.', { enum: ['oauth2.0', 'oauth1.0'], label: 'Auth flow type' }),
      predicate_key: strs('Path of a config value that enables this flow.', { label: 'Predicate key' }),
      predicate_value: str('The value at `predicate_key` that enables this flow.', { label: 'Predicate value' }),
      oauth_config_specification: one(['OAuthConfigSpecification'], 'Inputs and outputs of the flow.', {}),
    },
  },
  {
    type: 'OAuthConfigSpecification',
    area: 'spec',
    typeOptional: true,
    label: 'OAuth Config Specification',
    description: 'Which config fields the OAuth flow reads and writes, and the declarative consent and token URLs.',
    openFields: true,
    fields: {
      oauth_user_input_from_connector_config_specification: obj('Config fields the user fills in before the flow.', {
        label: 'OAuth user input',
      }),
      oauth_connector_input_specification: obj('Declarative consent flow: consent URL, token URL, extraction of the outputs.', {
        label: 'DeclarativeOAuth Connector Specification',
        templateContext: 'oauth_consent',
      }),
      complete_oauth_output_specification: obj('Where the obtained tokens are stored in the config.', {
        label: 'OAuth output specification',
      }),
      complete_oauth_server_input_specification: obj('Platform-side inputs (client id and secret).', {
        label: 'OAuth input specification',
      }),
      complete_oauth_server_output_specification: obj('Where platform-side inputs are stored in the config.', {
        label: 'OAuth server output specification',
      }),
    },
  },
  {
    type: 'ConfigNormalizationRules',
    area: 'spec',
    description: 'Rules applied to the user config before use.',
    fields: {
      config_migrations: many(['ConfigMigration'], 'Migrations of older configs.', { default: [] }),
      transformations: many(
        ['ConfigRemapField', 'ConfigAddFields', 'ConfigRemoveFields', 'CustomConfigTransformation'],
        'Transformations applied on every run.',
        { default: [] },
      ),
      validations: many(['DpathValidator', 'PredicateValidator'], 'Checks the config must pass.', { default: [] }),
    },
  },
  {
    type: 'ConfigMigration',
    area: 'spec',
    label: 'Config Migration',
    description: 'A config migration: a list of transformations applied once.',
    fields: {
      description: str('What the migration does.'),
      transformations: many(
        ['ConfigRemapField', 'ConfigAddFields', 'ConfigRemoveFields', 'CustomConfigTransformation'],
        'The transformations.',
        { required: true, default: [], label: 'Transformations' },
      ),
    },
  },
  {
    type: 'ConfigRemapField',
    area: 'spec',
    label: 'Remap Field',
    description: 'Replaces a config value using a mapping of old to new values.',
    fields: {
      map: raw({ type: ['object', 'string'] }, 'Old value → new value.', {
        required: true,
        label: 'Value Mapping',
        templateContext: 'static',
      }),
      field_path: strs('Path of the config value.', { required: true, label: 'Field Path', templateContext: 'static' }),
    },
  },
  {
    type: 'ConfigAddFields',
    area: 'spec',
    label: 'Config Add Fields',
    description: 'Adds computed fields to the config.',
    fields: {
      fields: many(['AddedFieldDefinition'], 'The fields to set.', { required: true, label: 'Fields' }),
      condition: str('Only set the fields when this template is true.', { default: '', templateVariables: ['config', 'property'] }),
    },
  },
  {
    type: 'ConfigRemoveFields',
    area: 'spec',
    label: 'Config Remove Fields',
    description: 'Removes fields from the config.',
    fields: {
      field_pointers: raw({ type: 'array', items: { type: 'array', items: { type: 'string' } } }, 'Paths of the fields to remove.', {
        required: true,
        label: 'Field Pointers',
      }),
      condition: str('Only remove fields for which this template is true.', { default: '', templateVariables: ['config', 'property'] }),
    },
  },
  {
    type: 'DpathValidator',
    area: 'spec',
    label: 'Dpath Validator',
    description: 'Validates the config value at a path.',
    fields: {
      field_path: strs('Path of the value.', { required: true, label: 'Field Path', templateContext: 'static' }),
      validation_strategy: one(['ValidateAdheresToSchema', 'CustomValidationStrategy'], 'How the value is checked.', {
        required: true,
        label: 'Validation Strategy',
      }),
    },
  },
  {
    type: 'PredicateValidator',
    area: 'spec',
    label: 'Predicate Validator',
    description: 'Validates a value computed from the config.',
    fields: {
      value: raw({ type: ['string', 'number', 'object', 'array', 'boolean', 'null'] }, 'The value or template to check.', {
        required: true,
        label: 'Value',
        templateContext: 'static',
      }),
      validation_strategy: one(['ValidateAdheresToSchema', 'CustomValidationStrategy'], 'How the value is checked.', {
        required: true,
        label: 'Validation Strategy',
      }),
    },
  },
  {
    type: 'ValidateAdheresToSchema',
    area: 'spec',
    label: 'Validate Adheres To Schema',
    description: 'Checks a value against a JSON schema.',
    fields: {
      base_schema: raw({ type: ['string', 'object'] }, 'The JSON schema (or a template giving it).', {
        required: true,
        label: 'Base JSON Schema',
        templateContext: 'static',
      }),
    },
  },
];

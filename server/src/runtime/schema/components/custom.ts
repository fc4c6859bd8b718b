// Catalog of custom components: Python classes of the connector that the manifest names by
// `class_name`. They accept any extra field; they run only in the Python CDK.
import { str, type ComponentArea, type ComponentDef } from '../types';

const custom = (type: string, area: ComponentArea, label: string | undefined, what: string): ComponentDef => ({
  type,
  area,
  label,
  openFields: true,
  description: `${what}, implemented by a Python class of the connector. Other fields are passed to the class.`,
  fields: {
    class_name: str('Fully qualified name of the Python class.', {
      required: true,
      label: 'Class Name',
      example: 'source_example.components.MyComponent',
    }),
  },
});

export const CUSTOM_COMPONENTS: ComponentDef[] = [
  custom('CustomAuthenticator', 'auth', 'Custom Authenticator', 'An authenticator'),
  custom('CustomBackoffStrategy', 'error-handling', 'Custom Backoff Strategy', 'A back-off strategy'),
  custom('CustomErrorHandler', 'error-handling', 'Custom Error Handler', 'An error handler'),
  custom('CustomPaginationStrategy', 'pagination', 'Custom Pagination Strategy', 'A pagination strategy'),
  custom('CustomRecordExtractor', 'selection', 'Custom Record Extractor', 'A record extractor'),
  custom('CustomRecordFilter', 'selection', 'Custom Record Filter', 'A record filter'),
  custom('CustomRequester', 'requester', 'Custom Requester', 'A requester'),
  custom('CustomRetriever', 'retrievers', 'Custom Retriever', 'A retriever'),
  custom('CustomPartitionRouter', 'partitioning', 'Custom Partition Router', 'A partition router'),
  custom('CustomSchemaLoader', 'schema-loaders', 'Custom Schema Loader', 'A schema loader'),
  custom('CustomSchemaNormalization', 'selection', 'Custom Schema Normalization', 'A schema normalization'),
  custom('CustomStateMigration', 'state', 'Custom State Migration', 'A state migration'),
  custom('CustomTransformation', 'transformations', 'Custom Transformation', 'A record transformation'),
  custom('CustomDecoder', 'decoders', 'Custom Decoder', 'A response decoder'),
  custom('CustomValidationStrategy', 'spec', 'Custom Validation Strategy', 'A config validation'),
  custom('CustomConfigTransformation', 'spec', 'Custom Config Transformation', 'A config transformation'),
];

/** State migrations that ship with the CDK. */
export const STATE_COMPONENTS: ComponentDef[] = [
  {
    type: 'LegacyToPerPartitionStateMigration',
    area: 'state',
    typeOptional: true,
    label: 'Legacy To Per-partition-state Migration',
    description: 'Converts state saved per parent id (older format) into per-partition state.',
    openFields: true,
    fields: {},
  },
];

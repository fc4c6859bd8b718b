// The slot → default component type tables of airbyte_cdk/sources/declarative/parsers/manifest_component_transformer.py. The resolver inserts these
// types; the catalog, completion and validation read the same tables, so they are written once here.

/** `"<ParentType>.<field>"` → the type inserted when a mapping in that slot has no `type`. */
export const DEFAULT_TYPES: Readonly<Record<string, string>> = {
  'CompositeErrorHandler.error_handlers': 'DefaultErrorHandler',
  'CursorPagination.decoder': 'JsonDecoder',
  'DatetimeBasedCursor.end_datetime': 'MinMaxDatetime',
  'DatetimeBasedCursor.start_datetime': 'MinMaxDatetime',
  'DatetimeBasedCursor.end_time_option': 'RequestOption',
  'DatetimeBasedCursor.start_time_option': 'RequestOption',
  'DeclarativeSource.check': 'CheckStream',
  'DeclarativeSource.spec': 'Spec',
  'DeclarativeSource.streams': 'DeclarativeStream',
  'DeclarativeStream.retriever': 'SimpleRetriever',
  'DeclarativeStream.schema_loader': 'JsonFileSchemaLoader',
  'DynamicDeclarativeStream.stream_template': 'DeclarativeStream',
  // Reference quirk (§1.2): the CDK inserts this misspelt name, which no component has; an untyped
  // resolver therefore fails validation there too.
  'DynamicDeclarativeStream.components_resolver': 'ConfigComponentResolver',
  'HttpComponentsResolver.retriever': 'SimpleRetriever',
  'HttpComponentsResolver.components_mapping': 'ComponentMappingDefinition',
  'ConfigComponentsResolver.components_mapping': 'ComponentMappingDefinition',
  'ConfigComponentsResolver.stream_config': 'StreamConfig',
  'DefaultErrorHandler.response_filters': 'HttpResponseFilter',
  'DefaultPaginator.decoder': 'JsonDecoder',
  'DefaultPaginator.page_size_option': 'RequestOption',
  'DpathExtractor.decoder': 'JsonDecoder',
  'DpathExtractor.record_expander': 'RecordExpander',
  'HttpRequester.error_handler': 'DefaultErrorHandler',
  'ListPartitionRouter.request_option': 'RequestOption',
  'ParentStreamConfig.request_option': 'RequestOption',
  'ParentStreamConfig.stream': 'DeclarativeStream',
  'RecordSelector.extractor': 'DpathExtractor',
  'RecordSelector.record_filter': 'RecordFilter',
  'SimpleRetriever.paginator': 'NoPagination',
  'SimpleRetriever.record_selector': 'RecordSelector',
  'SimpleRetriever.requester': 'HttpRequester',
  'SubstreamPartitionRouter.parent_stream_configs': 'ParentStreamConfig',
  'CustomPartitionRouter.parent_stream_configs': 'ParentStreamConfig',
  'AddFields.fields': 'AddedFieldDefinition',
  'DynamicSchemaLoader.retriever': 'SimpleRetriever',
  // Reference quirk (§1.2): the key names `types_map`, but the field is `types_mapping`, so this
  // default never applies to a real field.
  'SchemaTypeIdentifier.types_map': 'TypesMap',
};

/** Slots where a mapping with `class_name` but no `type` becomes a custom component (§1.2, second table). */
export const CUSTOM_DEFAULT_TYPES: Readonly<Record<string, string>> = {
  'CompositeErrorHandler.backoff_strategies': 'CustomBackoffStrategy',
  'DefaultErrorHandler.backoff_strategies': 'CustomBackoffStrategy',
  'DeclarativeStream.retriever': 'CustomRetriever',
  'DeclarativeStream.transformations': 'CustomTransformation',
  'DefaultPaginator.pagination_strategy': 'CustomPaginationStrategy',
  'HttpRequester.authenticator': 'CustomAuthenticator',
  'HttpRequester.error_handler': 'CustomErrorHandler',
  'RecordSelector.extractor': 'CustomRecordExtractor',
  'SimpleRetriever.partition_router': 'CustomPartitionRouter',
};

/**
 * The type §1.2 inserts for a mapping without `type` found in `parentType.field`, or undefined.
 * `hasClassName` selects the custom-component table.
 */
export function defaultTypeFor(parentType: string | undefined, field: string, hasClassName = false): string | undefined {
  if (parentType === undefined) return undefined;
  const key = `${parentType}.${field}`;
  return hasClassName ? CUSTOM_DEFAULT_TYPES[key] : DEFAULT_TYPES[key];
}

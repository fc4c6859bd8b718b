// The kinds of template context a manifest field can have (airbyte_cdk/sources/declarative/interpolation/jinja.py). The
// component catalog names one kind per interpolated field; interpolation/variables.ts says which
// variables each kind provides. One list, shared by the runtime, the schema and the editor.

export const TEMPLATE_CONTEXT_KINDS = [
  /** config, parameters only (authenticator fields of Basic/Bearer/ApiKey/OAuth/LegacySession, page sizes evaluated at build time, RequestOption field_name, DpathExtractor field_path, backoff, incremental sync datetimes). */
  'static',
  /** JwtAuthenticator string fields: + json_loads. */
  'jwt',
  /** SessionTokenRequestApiKeyAuthenticator.api_token: + session_token. */
  'session_api_token',
  /** HttpRequester url/url_base/path and every request option/body: + stream_slice (+aliases), next_page_token, extra_fields keys. */
  'request',
  /** CursorPagination cursor_value / stop_condition: + response, headers, last_record, last_page_size (and last_records, with a warning). */
  'pagination_cursor',
  /** OffsetIncrement.page_size: + response during next-token computation. */
  'offset_page_size',
  /** RecordFilter.condition: + record, stream_slice (+aliases), next_page_token. */
  'record_filter',
  /** HttpResponseFilter.predicate: response, headers; config is null. */
  'response_predicate',
  /** HttpResponseFilter.error_message: + response, headers. */
  'response_message',
  /** AddedFieldDefinition.value and other transformations: + record, stream_slice (+aliases). */
  'transformation',
  /** spec.advanced_auth oauth_connector_input_specification templates (§6.8.3). */
  'oauth_consent',
] as const;

export type TemplateContextKind = (typeof TEMPLATE_CONTEXT_KINDS)[number];

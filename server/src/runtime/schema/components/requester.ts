// Catalog of the HTTP requester and what it puts in requests (airbyte_cdk/sources/declarative/requesters/http_requester.py, §5).
import { bool, int, many, obj, one, raw, str, strs, type ComponentDef, type FieldDef } from '../types';

const AUTHENTICATORS = [
  'ApiKeyAuthenticator',
  'BasicHttpAuthenticator',
  'BearerAuthenticator',
  'OAuthAuthenticator',
  'JwtAuthenticator',
  'SessionTokenAuthenticator',
  'SelectiveAuthenticator',
  'CustomAuthenticator',
  'NoAuth',
  'LegacySessionTokenAuthenticator',
  'RateLimitedMultipleTokenAuthenticator',
];

/** A request mapping (query, headers, body) given as a mapping or as one template string. */
const requestMapping = (description: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  description,
  label,
  types: ['object', 'string'],
  templateContext: 'request',
  ...extra,
});

export const REQUESTER_COMPONENTS: ComponentDef[] = [
  {
    type: 'HttpRequester',
    area: 'requester',
    label: 'HTTP Requester',
    description:
      'Builds and sends the HTTP requests of a stream: URL, method, query parameters, headers, body, authentication and error handling.',
    fields: {
      url_base: str('Base URL of the API; `path` is appended to it.', {
        label: 'API Base URL',
        templateContext: 'request',
        example: 'https://api.example.com/v1/',
        deprecated: 'use `url` with the full endpoint URL',
      }),
      url: str('Full URL of the endpoint, instead of `url_base` + `path`.', { label: 'API Endpoint URL', templateContext: 'request' }),
      path: str('Path of the endpoint, appended to `url_base`.', {
        label: 'URL Path',
        templateContext: 'request',
        example: '/users',
        deprecated: 'use `url` with the full endpoint URL',
      }),
      http_method: str('HTTP method of the request.', { default: 'GET', enum: ['GET', 'POST'], label: 'HTTP Method' }),
      authenticator: one(AUTHENTICATORS, 'How requests are authenticated.', { label: 'Authenticator' }),
      fetch_properties_from_endpoint: one(['PropertiesFromEndpoint'], 'Reads the list of properties to request from another endpoint.', {
        label: 'Fetch Properties from Endpoint',
        deprecated: 'use `query_properties`',
      }),
      query_properties: one(['QueryProperties'], 'Properties requested through a query parameter, possibly in chunks.', {
        label: 'Query Properties',
      }),
      request_parameters: {
        ...requestMapping('Query parameters added to the URL. A value may be a `QueryProperties` component.', 'Query Parameters'),
        mapOf: true,
        components: ['QueryProperties'],
        schema: {
          anyOf: [{ type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object' }] } }, { type: 'string' }],
        },
      },
      request_headers: requestMapping('Headers sent with every request.', 'Request Headers'),
      request_body_data: requestMapping(
        'Body sent form-encoded (a mapping) or as raw text (a string).',
        'Request Body Payload (Non-JSON)',
        { deprecated: 'use `request_body`' },
      ),
      request_body_json: requestMapping('Body sent as JSON.', 'Request Body JSON Payload', { deprecated: 'use `request_body`' }),
      request_body: one(
        ['RequestBodyPlainText', 'RequestBodyUrlEncodedForm', 'RequestBodyJsonObject', 'RequestBodyGraphQL'],
        'The request body, with its encoding named by its type.',
        { label: 'Request Body', templateContext: 'request' },
      ),
      error_handler: one(
        ['DefaultErrorHandler', 'CompositeErrorHandler', 'CustomErrorHandler'],
        'What to do with error responses (retry, ignore, fail).',
        { label: 'Error Handler' },
      ),
      use_cache: bool('Cache responses so a parent stream read twice hits the API once.', { default: false, label: 'Use Cache' }),
    },
    example: 'type: HttpRequester\nurl_base: https://api.example.com/v1\npath: /users\nhttp_method: GET',
  },
  {
    type: 'RequestOption',
    area: 'requester',
    label: 'Request Option',
    description: 'Names where a value goes in a request: a query parameter, a header, a form field or a JSON body field.',
    fields: {
      inject_into: str('The part of the request that receives the value.', {
        required: true,
        enum: ['request_parameter', 'header', 'body_data', 'body_json'],
        label: 'Inject Into',
        example: 'request_parameter',
      }),
      field_name: str('Name of the parameter, header or body field.', {
        label: 'Field Name',
        templateContext: 'static',
        example: 'page_size',
        examples: ['page_size', 'segment_id'],
      }),
      field_path: strs('Path of a nested JSON body field (with `inject_into: body_json`), instead of `field_name`.', {
        label: 'Field Path',
        templateContext: 'static',
        example: '["variables", "cursor"]',
      }),
    },
    example: 'type: RequestOption\ninject_into: request_parameter\nfield_name: page',
  },
  {
    type: 'RequestPath',
    area: 'requester',
    label: 'Request Path',
    description: 'Uses the page token as the URL (or path) of the next request. Takes no other field.',
    fields: {},
    example: 'type: RequestPath',
  },
  {
    type: 'RequestBodyPlainText',
    area: 'requester',
    label: 'Plain-text Body',
    description: 'A raw text body.',
    fields: { value: str('The body text.', { required: true, templateContext: 'request' }) },
  },
  {
    type: 'RequestBodyUrlEncodedForm',
    area: 'requester',
    label: 'URL-encoded Body',
    description: 'A form-encoded body built from a mapping.',
    fields: { value: obj('The form fields.', { required: true, templateContext: 'request' }) },
  },
  {
    type: 'RequestBodyJsonObject',
    area: 'requester',
    label: 'Json Object Body',
    description: 'A JSON body built from a mapping.',
    fields: { value: obj('The JSON object.', { required: true, templateContext: 'request' }) },
  },
  {
    type: 'RequestBodyGraphQL',
    area: 'requester',
    label: 'GraphQL Body',
    description: 'A GraphQL request body.',
    fields: { value: one(['RequestBodyGraphQlQuery'], 'The query.', { required: true }) },
  },
  {
    type: 'RequestBodyGraphQlQuery',
    area: 'requester',
    typeOptional: true,
    label: 'GraphQL Query Body',
    description: 'A GraphQL query, sent as `{"query": ...}` with any extra fields.',
    openFields: true,
    fields: { query: str('The GraphQL query text.', { required: true, templateContext: 'request', example: '"query { users { id } }"' }) },
  },
  {
    type: 'QueryProperties',
    area: 'requester',
    label: 'Query Properties',
    description:
      'Requests a list of properties through one query parameter, split into several requests when the list is too long; the partial records are merged.',
    fields: {
      property_list: raw(
        { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object' }] },
        'The properties: a list, or a `PropertiesFromEndpoint` that reads them from the API.',
        { required: true, label: 'Property List', components: ['PropertiesFromEndpoint'] },
      ),
      always_include_properties: strs('Properties sent in every chunk (such as the primary key).', { label: 'Always Include Properties' }),
      property_chunking: one(['PropertyChunking'], 'How the list is split across requests.', { label: 'Property Chunking' }),
      property_selector: one(['JsonSchemaPropertySelector'], 'Requests only the properties selected in the catalog.', {
        label: 'Property Selector',
        addedIn: '7.0.0',
      }),
    },
  },
  {
    type: 'PropertiesFromEndpoint',
    area: 'requester',
    label: 'Properties from Endpoint',
    description: 'Reads a list of property names from an endpoint.',
    fields: {
      property_field_path: strs('Path of the property name in each record of the endpoint.', { required: true }),
      retriever: one(['SimpleRetriever', 'CustomRetriever'], 'How the property list is read.', { required: true }),
    },
  },
  {
    type: 'PropertyChunking',
    area: 'requester',
    label: 'Property Chunking',
    description: 'Splits a long property list into several requests.',
    fields: {
      property_limit_type: str('What the limit counts.', {
        required: true,
        enum: ['characters', 'property_count'],
        label: 'Property Limit Type',
      }),
      property_limit: int('Largest chunk size.', { label: 'Property Limit' }),
      record_merge_strategy: one(['GroupByKeyMergeStrategy'], 'How partial records of the chunks are merged.', {
        label: 'Record Merge Strategy',
      }),
    },
  },
  {
    type: 'GroupByKeyMergeStrategy',
    area: 'requester',
    label: 'Group by Key',
    description: 'Merges partial records that share the same key value(s).',
    fields: {
      key: raw({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, 'The key field(s).', {
        required: true,
        label: 'Key',
      }),
    },
  },
  {
    type: 'JsonSchemaPropertySelector',
    area: 'requester',
    label: 'Json Schema Property Selector',
    addedIn: '7.0.0',
    description: 'Selects the properties to request from the configured catalog schema.',
    fields: {
      transformations: many(
        [
          'AddFields',
          'RemoveFields',
          'KeysToLower',
          'KeysToSnakeCase',
          'FlattenFields',
          'DpathFlattenFields',
          'KeysReplace',
          'CustomTransformation',
        ],
        'Transformations applied to the property names.',
        { label: 'Transformations' },
      ),
    },
  },
];

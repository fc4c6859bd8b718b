// Generates a valid manifest of about `lines` lines shaped like real ones: shared definitions,
// streams in `definitions.streams` referenced from `streams`, and one JSON schema per stream.

/** A manifest text of roughly `lines` lines. */
export function generateManifest(lines) {
  const head = [
    'version: 6.4.0',
    'type: DeclarativeSource',
    'check:',
    '  type: CheckStream',
    '  stream_names:',
    '    - stream_0',
    'definitions:',
    '  base_requester:',
    '    type: HttpRequester',
    '    url_base: https://api.example.test/v2',
    '    http_method: GET',
    '    authenticator:',
    '      type: ApiKeyAuthenticator',
    '      api_token: "{{ config[\'api_key\'] }}"',
    '      inject_into:',
    '        type: RequestOption',
    '        inject_into: header',
    '        field_name: X-Api-Key',
    '  paginator:',
    '    type: DefaultPaginator',
    '    page_token_option:',
    '      type: RequestOption',
    '      inject_into: request_parameter',
    '      field_name: cursor',
    '    pagination_strategy:',
    '      type: CursorPagination',
    '      cursor_value: "{{ response.next }}"',
    '      stop_condition: "{{ not response.next }}"',
    '  streams:',
  ];
  const streamDefs = [];
  const streamRefs = ['streams:'];
  const schemas = ['schemas:'];
  let total = head.length + 20;
  for (let s = 0; total < lines; s++) {
    const def = [
      `    stream_${s}:`,
      '      type: DeclarativeStream',
      `      name: stream_${s}`,
      '      primary_key:',
      '        - id',
      '      retriever:',
      '        type: SimpleRetriever',
      '        requester:',
      '          $ref: "#/definitions/base_requester"',
      `          path: /resources/${s}`,
      '          request_parameters:',
      '            per_page: "100"',
      '        paginator:',
      '          $ref: "#/definitions/paginator"',
      '        record_selector:',
      '          type: RecordSelector',
      '          extractor:',
      '            type: DpathExtractor',
      '            field_path:',
      '              - data',
      '      incremental_sync:',
      '        type: DatetimeBasedCursor',
      '        cursor_field: updated_at',
      '        datetime_format: "%Y-%m-%dT%H:%M:%SZ"',
      '        start_datetime:',
      '          type: MinMaxDatetime',
      '          datetime: "{{ config[\'start_date\'] }}"',
      '          datetime_format: "%Y-%m-%d"',
      '      schema_loader:',
      '        type: InlineSchemaLoader',
      '        schema:',
      `          $ref: "#/schemas/stream_${s}"`,
    ];
    const schema = [`  stream_${s}:`, '    type: object', '    $schema: http://json-schema.org/draft-07/schema#', '    properties:'];
    for (let p = 0; p < 60; p++)
      schema.push(`      field_${p}:`, '        type:', '          - "null"', p % 2 ? '          - string' : '          - integer');
    streamDefs.push(...def);
    streamRefs.push(`  - $ref: "#/definitions/streams/stream_${s}"`);
    schemas.push(...schema);
    total += def.length + schema.length + 1;
  }
  const spec = [
    'spec:',
    '  type: Spec',
    '  connection_specification:',
    '    $schema: http://json-schema.org/draft-07/schema#',
    '    type: object',
    '    required:',
    '      - api_key',
    '      - start_date',
    '    properties:',
    '      api_key:',
    '        type: string',
    '        airbyte_secret: true',
    '      start_date:',
    '        type: string',
    '        format: date',
  ];
  return [...head, ...streamDefs, ...streamRefs, ...spec, ...schemas].join('\n') + '\n';
}

// Runs the server's validation, completion and hover once over a small but varied manifest while the
// server starts, so the code paths a real manifest takes (block splitting, js-yaml and `yaml`
// parsing, references, `$parameters`, every common component validator, templates in each scalar
// style, problem location, conversion) are compiled and warm when the first file arrives. Without
// it the first open of a manifest costs two to three times the CPU of the next ones.
import { CORE_SCHEMA, load } from 'js-yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { spanToRange } from './convert';
import { ManifestDocuments } from './documents';
import { catalogIndex } from './features/catalogIndex';
import { provideCompletion } from './features/completion';
import { provideDiagnostics } from './features/diagnostics';
import { provideHover } from './features/hover';

/** One stream of the sample; `n` varies names so the streams are distinct blocks. */
function sampleStream(n: number): string[] {
  return [
    `    stream_${n}:`,
    '      type: DeclarativeStream',
    `      name: stream_${n}`,
    '      primary_key:',
    '        - id',
    '      $parameters:',
    `        path: /items/${n}`,
    '      retriever:',
    '        type: SimpleRetriever',
    '        requester:',
    '          $ref: "#/definitions/base_requester"',
    '          request_parameters:',
    '            query: >-',
    `              SELECT * FROM t${n} WHERE updated > '{{ stream_interval.start_time }}'`,
    "              AND kind = '{{ config['kind'] }}'",
    '            fields: |',
    '              {{ parameters.path }}',
    '        paginator:',
    '          type: DefaultPaginator',
    '          page_token_option:',
    '            type: RequestOption',
    '            inject_into: request_parameter',
    '            field_name: cursor',
    '          pagination_strategy:',
    '            type: CursorPagination',
    '            cursor_value: "{{ response.get(\'next\') }}"',
    '            stop_condition: "{{ not response.get(\'next\') }}"',
    '        record_selector:',
    '          type: RecordSelector',
    '          extractor:',
    '            type: DpathExtractor',
    '            field_path:',
    '              - data',
    '              - "{{ parameters[\'path\'] }}"',
    '          record_filter:',
    '            type: RecordFilter',
    '            condition: "{{ record[\'id\'] is not none }}"',
    '      incremental_sync:',
    '        type: DatetimeBasedCursor',
    '        cursor_field: updated_at',
    '        datetime_format: "%Y-%m-%dT%H:%M:%SZ"',
    '        start_datetime:',
    '          type: MinMaxDatetime',
    '          datetime: "{{ config[\'start_date\'] }}"',
    '          datetime_format: "%Y-%m-%d"',
    '        end_datetime:',
    '          type: MinMaxDatetime',
    '          datetime: "{{ now_utc().strftime(\'%Y-%m-%dT%H:%M:%SZ\') }}"',
    '          datetime_format: "%Y-%m-%dT%H:%M:%SZ"',
    '      transformations:',
    '        - type: AddFields',
    '          fields:',
    '            - path:',
    '                - synced_at',
    '              value: "{{ now_utc() }}"',
    '        - type: RemoveFields',
    '          field_pointers:',
    '            - - internal',
    '      schema_loader:',
    '        type: InlineSchemaLoader',
    '        schema:',
    `          $ref: "#/schemas/stream_${n}"`,
  ];
}

/** A manifest shaped like real ones, with one unknown field and one deprecated field (so problems are located too). */
export function sampleManifest(): string {
  const streams = [0, 1, 2].flatMap(sampleStream);
  const schema = (n: number) => [
    `  stream_${n}:`,
    '    type: object',
    '    properties:',
    '      id:',
    '        type: integer',
    '      updated_at:',
    '        type:',
    '          - "null"',
    '          - string',
  ];
  return [
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
    '    path: "{{ parameters.path }}"',
    '    http_method: GET',
    '    name: not_a_requester_field',
    '    authenticator:',
    '      type: OAuthAuthenticator',
    '      client_id: "{{ config[\'client_id\'] }}"',
    '      client_secret: "{{ config[\'client_secret\'] }}"',
    '      refresh_token: "{{ config[\'refresh_token\'] }}"',
    '      token_refresh_endpoint: https://api.example.test/oauth/token',
    '    error_handler:',
    '      type: DefaultErrorHandler',
    '      response_filters:',
    '        - type: HttpResponseFilter',
    '          action: RETRY',
    '          http_codes:',
    '            - 429',
    '      backoff_strategies:',
    '        - type: ExponentialBackoffStrategy',
    '  streams:',
    ...streams,
    'streams:',
    '  - $ref: "#/definitions/streams/stream_0"',
    '  - $ref: "#/definitions/streams/stream_1"',
    '  - $ref: "#/definitions/streams/stream_2"',
    'spec:',
    '  type: Spec',
    '  connection_specification:',
    '    $schema: http://json-schema.org/draft-07/schema#',
    '    type: object',
    '    additionalProperties: true',
    '    required:',
    '      - client_id',
    '    properties:',
    '      client_id:',
    '        type: string',
    '      client_secret:',
    '        type: string',
    '        airbyte_secret: true',
    '      refresh_token:',
    '        type: string',
    '        airbyte_secret: true',
    '      start_date:',
    '        type: string',
    '        format: date',
    '      kind:',
    '        type: string',
    'schemas:',
    ...[0, 1, 2].flatMap(schema),
    '',
  ].join('\n');
}

/** Validates, edits, re-validates, completes and hovers over the sample, three times. Throws only on a server bug (the caller guards it). */
export function warmUpServer(): void {
  // One round compiles the code; V8 optimizes what runs repeatedly, and three rounds brought the
  // first open's CPU time to within 1.2-1.5x of the next ones (one round: 2x) for ~150 ms at start.
  for (let round = 0; round < 3; round++) warmUpOnce();
  // js-yaml reads every block of every file, and the rounds above give it too little to optimize.
  // What it reads matters more than how much: after 60 reads of the sample, the first open still ran
  // its reader half cold wherever a manifest used a layout the sample lacks (quickbooks' sequences at
  // their key's indentation: its blocks took 40-49 ms against 13-16 once warm). 150 reads of a text
  // in every layout (~90 ms at start) bring that to 15-24 ms; fresh-server opens went from 148 to
  // 129 ms on quickbooks and from 93 to 68 ms on opsgenie (medians of 12, interleaved).
  const text = yamlVarietySample(1);
  for (let i = 0; i < 150; i++) load(text, { schema: CORE_SCHEMA });
}

function warmUpOnce(): void {
  const text = sampleManifest();
  const docs = new ManifestDocuments();
  const uri = 'warmup:manifest.yaml';
  const first = TextDocument.create(uri, 'yaml', 1, text);
  provideDiagnostics(docs.get(first));
  // An edit inside one stream: the incremental model reuses the other blocks.
  const at = text.indexOf('field_name: cursor') + 'field_name: cursor'.length;
  const edited = TextDocument.create(uri, 'yaml', 2, `${text.slice(0, at)}x${text.slice(at)}`);
  const doc = docs.get(edited);
  provideDiagnostics(doc);
  const ctx = { index: catalogIndex() };
  for (const needle of ['inject_into: request_parameter', "config['kind']", 'type: RecordFilter', 'cursor_field: updated_at']) {
    const offset = edited.getText().indexOf(needle) + needle.length - 2;
    const position = spanToRange(edited, { start: offset, end: offset }).start;
    provideCompletion(ctx, doc, { textDocument: { uri }, position });
    provideHover(ctx, doc, { textDocument: { uri }, position });
  }
}

/**
 * YAML in the layouts real manifests use besides the sample's (sequences at their key's indentation,
 * flow collections, every scalar style, multi-line plain and block scalars, comments), for warming
 * js-yaml's reader on all its paths.
 */
export function yamlVarietySample(n: number): string {
  return [
    `# Sample ${n}: every layout a manifest's YAML takes`,
    `version: "6.${n}.0"`,
    'type: DeclarativeSource',
    'definitions:',
    `  item_${n}:`,
    '    type: object',
    '    $schema: http://json-schema.org/draft-07/schema#',
    '    additionalProperties: true',
    '    properties:',
    '      Id:',
    '        type:',
    '        - "null"',
    '        - string',
    '      Amount:',
    '        type:',
    '          - "null"',
    '          - number',
    '      Tags:',
    '        type: ["null", array]',
    '        items: {type: string, maxLength: 64}',
    '      MetaData:',
    '        type:',
    '        - "null"',
    '        - object',
    '        properties:',
    '          CreateTime: {type: [ "null", string ], format: date-time}',
    '          LastUpdatedTime:',
    '            type:',
    "            - 'null'",
    '            - string',
    '            format: date-time',
    '            airbyte_type: timestamp_with_timezone',
    '      empty_map: {}',
    '      empty_list: []',
    '      nothing:',
    '      tilde: ~',
    '      flag: true',
    '      other_flag: False',
    `      count: ${n}`,
    '      ratio: 0.25',
    '      negative: -12',
    '      hex: 0x1F',
    '      date_like: 2024-01-31',
    '      time_like: 12:30:00',
    "      quoted_single: 'it''s {{ config[''name''] }}'",
    '      quoted_double: "line\\nbreak \\"quoted\\" \\u00e9 \\t tab"',
    '      url: https://api.example.test/v3/company/{{ config.realm_id }}/query?minorversion=65&x=1',
    '      with_colon: "a: b"',
    '      "quoted key": value # trailing comment',
    "      'single key': 'value'",
    '      long_plain: this plain scalar goes on',
    '        over a second line and',
    '        a third one',
    '      literal: |',
    '        SELECT * FROM Items',
    "        WHERE updated > '{{ stream_slice.start_time }}'",
    '',
    '        ORDER BY id',
    '      literal_strip: |-',
    '        {{ response.next }}',
    '      folded: >',
    '        folded text that',
    '        keeps going',
    '      folded_strip: >-',
    "        {{ 'https://sandbox.example.test' if config.sandbox else",
    "        'https://live.example.test' }}",
    '      keep: |+',
    '        kept',
    '',
    '      indented: |2',
    '          two more spaces',
    '      nested_seq:',
    '        - - a',
    '          - b',
    '        - [c, d]',
    '        - {e: f}',
    '        - key: value',
    '          other: 1',
    '        -',
    '          late: item',
    '      flow_multi: [',
    '        one, two,',
    '        "three"',
    '      ]',
    '      flow_map_multi: {',
    '        a: 1,',
    "        b: 'x'",
    '      }',
    '  # a comment between entries',
    `  stream_${n}:`,
    '    type: DeclarativeStream',
    `    name: items_${n}`,
    '    primary_key: [Id]',
    '    retriever:',
    '      type: SimpleRetriever',
    '      requester:',
    '        type: HttpRequester',
    '        url_base: >-',
    "          {{ 'https://sandbox.example.test' if config.sandbox else 'https://live.example.test' }}",
    '        path: /v3/company/{{ config.realm_id }}/query',
    '        http_method: GET',
    '        request_headers:',
    '          Accept: application/json',
    '          User-Agent: "airbyte/1.0 (+https://example.test)"',
    '        request_parameters:',
    '          query: >-',
    "            SELECT * FROM Items WHERE Metadata.LastUpdatedTime > '{{",
    "            stream_slice.start_time }}' ORDER BY Metadata.LastUpdatedTime ASC",
    '            STARTPOSITION {{ (next_page_token.next_page_token or 0) + 1 }}',
    '            MAXRESULTS 1000',
    '      record_selector:',
    '        type: RecordSelector',
    '        extractor:',
    '          type: DpathExtractor',
    '          field_path:',
    '          - QueryResponse',
    `          - Item${n}`,
    '',
  ].join('\n');
}

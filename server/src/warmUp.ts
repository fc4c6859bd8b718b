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
  // js-yaml reads every block of every file, and the rounds above give it too little to optimize:
  // the first open of source-opsgenie then spent most of its time in its interpreted reader. Sixty
  // more reads of the sample (~45 ms at start) cut that open's CPU time by 10-20 ms (quickbooks too).
  const text = sampleManifest();
  for (let i = 0; i < 60; i++) load(text, { schema: CORE_SCHEMA });
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

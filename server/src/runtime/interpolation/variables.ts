// The one table of template variables per context kind (airbyte_cdk/sources/declarative/interpolation/jinja.py, §6.8.3): what
// each kind provides, with a description and an example. Editor completion, hover and the
// "not available here" diagnostics read it; the component catalog names a kind per field.
import type { TemplateContextKind } from './contextKinds';

/** A variable a template may read. */
export interface TemplateVariable {
  name: string;
  description: string;
  example: string;
  /** Set when the variable exists only for the Connector Builder and the Python CDK rejects it (last_records). */
  deprecated?: string;
}

const V = (name: string, description: string, example: string, deprecated?: string): TemplateVariable =>
  deprecated ? { name, description, example, deprecated } : { name, description, example };

const CONFIG = V(
  'config',
  'The connector configuration entered by the user (validated against spec.connection_specification).',
  "{{ config['api_key'] }}",
);
const PARAMETERS = V(
  'parameters',
  'The $parameters in scope of this component (raw values, not interpolated themselves).',
  '{{ parameters.name }}',
);
const STREAM_SLICE = V(
  'stream_slice',
  'The current slice: partition keys merged with cursor keys (start_time / end_time for incremental syncs); also .partition, .cursor_slice, .extra_fields.',
  "{{ stream_slice['start_time'] }}",
);
const STREAM_INTERVAL = V(
  'stream_interval',
  'Alias of stream_slice, for the cursor interval (start_time / end_time).',
  '{{ stream_interval.start_time }}',
);
const STREAM_PARTITION = V(
  'stream_partition',
  'Alias of stream_slice, for partition keys set by a partition router.',
  '{{ stream_partition.parent_id }}',
);
const NEXT_PAGE_TOKEN = V(
  'next_page_token',
  'null on the first request, then an object with the single key next_page_token.',
  "{{ next_page_token['next_page_token'] }}",
);
const RESPONSE = V('response', 'The decoded body of the last response (first decoded element).', "{{ response.get('next') }}");
const HEADERS = V(
  'headers',
  'Response headers; in CursorPagination a case-sensitive object whose link key is the parsed Link header.',
  "{{ headers['link']['next']['url'] }}",
);
const LAST_RECORD = V(
  'last_record',
  'The last record of the page after filtering and transformations, or null.',
  "{{ last_record['id'] }}",
);
const LAST_PAGE_SIZE = V('last_page_size', 'Number of records of the page after filtering.', '{{ last_page_size }}');
const LAST_RECORDS = V(
  'last_records',
  "The page's records, as the Connector Builder documents it.",
  '{{ last_records[-1].id }}',
  'Recent Python CDK versions reject last_records (undeclared variable): use last_record or last_page_size.',
);
const RECORD = V('record', 'The record being filtered or transformed.', "{{ record['updated_at'] }}");
const JSON_LOADS = V('json_loads', 'A function parsing a JSON string (JWT fields).', "{{ json_loads(config['sa'])['private_key'] }}");
const SESSION_TOKEN = V('session_token', 'The token obtained by the session login request.', 'Token {{ session_token }}');

// Spec §3.6: keys of stream_slice.extra_fields are spread as top-level variables of request fields.
const EXTRA_FIELDS = [
  V(
    'query_properties',
    'Extra slice field: the query properties chunk of this request (QueryProperties).',
    "{{ query_properties | join(',') }}",
  ),
  V('creation_response', 'Extra slice field of async jobs: the response of the job creation request.', "{{ creation_response['id'] }}"),
  V('polling_response', 'Extra slice field of async jobs: the response of the last polling request.', "{{ polling_response['url'] }}"),
  V('download_target', 'Extra slice field of async jobs: the URL or id to download.', '{{ download_target }}'),
];
const REQUEST_VARS = [STREAM_SLICE, STREAM_INTERVAL, STREAM_PARTITION, NEXT_PAGE_TOKEN, ...EXTRA_FIELDS];

function oauthConsentVariables(): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  const concepts: [string, string][] = [
    ['client_id', 'the client id'],
    ['client_secret', 'the client secret'],
    ['auth_code', 'the code from the callback'],
    ['state', 'the generated state'],
    ['redirect_uri', 'the redirect URI'],
    ['scope', 'the scopes'],
  ];
  for (const [c, what] of concepts) {
    out.push(V(`${c}_key`, `The configured key name for ${what}.`, `{{ ${c}_key }}`));
    out.push(V(`${c}_value`, `The value of ${what}.`, `{{ ${c}_value }}`));
    out.push(
      V(
        `${c}_param`,
        `\`<key>=<value>\` for ${what}${c === 'redirect_uri' || c === 'scope' ? ' (value URL-encoded)' : ''}.`,
        `{{ ${c}_param }}`,
      ),
    );
  }
  out.push(
    V('scopes_value', 'Mirror of scope_value.', '{{ scopes_value }}'),
    V('scopes_param', 'Mirror of scope_param.', '{{ scopes_param }}'),
  );
  out.push(
    V('optional_scopes_value', 'The optional scopes joined.', '{{ optional_scopes_value }}'),
    V('optional_scopes_param', '`optional_scopes=<url-encoded>`.', '{{ optional_scopes_param }}'),
  );
  return out;
}

/** Spec §3.6: variables by context kind (`config` and `parameters` everywhere except the OAuth consent flow). */
export const VARIABLES_BY_KIND: Record<TemplateContextKind, TemplateVariable[]> = {
  static: [CONFIG, PARAMETERS],
  jwt: [CONFIG, PARAMETERS, JSON_LOADS],
  session_api_token: [CONFIG, PARAMETERS, SESSION_TOKEN],
  request: [CONFIG, PARAMETERS, ...REQUEST_VARS],
  pagination_cursor: [CONFIG, PARAMETERS, RESPONSE, HEADERS, LAST_RECORD, LAST_PAGE_SIZE, LAST_RECORDS],
  offset_page_size: [CONFIG, PARAMETERS, RESPONSE],
  record_filter: [CONFIG, PARAMETERS, RECORD, STREAM_SLICE, STREAM_INTERVAL, STREAM_PARTITION, NEXT_PAGE_TOKEN],
  response_predicate: [
    V('config', 'Not available here: the reference passes null as config in HttpResponseFilter.predicate.', '{{ config }}'),
    PARAMETERS,
    RESPONSE,
    HEADERS,
  ],
  response_message: [CONFIG, PARAMETERS, RESPONSE, HEADERS],
  transformation: [CONFIG, PARAMETERS, RECORD, STREAM_SLICE, STREAM_INTERVAL, STREAM_PARTITION],
  oauth_consent: oauthConsentVariables(),
};

/** Variables of a kind, by name. */
export function variablesOf(kind: TemplateContextKind): TemplateVariable[] {
  return VARIABLES_BY_KIND[kind];
}

/** Every context kind in which a variable exists (for hover: "available in …"). */
export function kindsProviding(name: string): TemplateContextKind[] {
  return (Object.keys(VARIABLES_BY_KIND) as TemplateContextKind[]).filter((k) => VARIABLES_BY_KIND[k].some((v) => v.name === name));
}

/** A macro or filter for completion and hover. */
export interface TemplateFunctionDoc {
  name: string;
  signature: string;
  description: string;
  example: string;
}

const D = (name: string, signature: string, description: string, example: string): TemplateFunctionDoc => ({
  name,
  signature,
  description,
  example,
});

/** Spec §3.7 macros and Jinja's remaining globals. */
export const MACRO_DOCS: TemplateFunctionDoc[] = [
  D(
    'now_utc',
    'now_utc()',
    'Current UTC datetime; renders like 2021-09-01 00:00:00+00:00. Supports .strftime() and arithmetic with duration().',
    "{{ now_utc().strftime('%Y-%m-%d') }}",
  ),
  D('today_utc', 'today_utc()', 'Current UTC date; renders YYYY-MM-DD.', '{{ today_utc() }}'),
  D(
    'today_with_timezone',
    'today_with_timezone(timezone)',
    'Current date in an IANA timezone.',
    "{{ today_with_timezone('Europe/Paris') }}",
  ),
  D(
    'timestamp',
    'timestamp(dt)',
    'Numbers are truncated to int; ISO date strings become epoch seconds as a float (1646006400.0).',
    "{{ timestamp('2022-02-28') }}",
  ),
  D(
    'str_to_datetime',
    'str_to_datetime(s)',
    'Strict ISO-8601 parse; naive values are UTC; the result is converted to UTC.',
    "{{ str_to_datetime(config['start_date']) }}",
  ),
  D('max', 'max(*args)', 'Largest of several arguments or of one iterable.', "{{ max(config['start'], stream_interval.start_time) }}"),
  D('min', 'min(*args)', 'Smallest of several arguments or of one iterable.', '{{ min(100, config.page_size) }}'),
  D(
    'day_delta',
    'day_delta(num_days, format="%Y-%m-%dT%H:%M:%S.%f%z")',
    'Now (UTC) plus num_days, formatted with strftime.',
    "{{ day_delta(-7, format='%Y-%m-%d') }}",
  ),
  D(
    'duration',
    'duration(datestring)',
    'ISO-8601 duration as a timedelta (or calendar duration for months/years); renders like 1 day, 0:00:00.',
    "{{ (now_utc() - duration('P30D')).isoformat() }}",
  ),
  D(
    'format_datetime',
    'format_datetime(dt, format, input_format=None)',
    'Formats a datetime, epoch int or date string; formats %s, %s_as_float, %ms, %epoch_microseconds and %_ms are supported for non-datetime input.',
    "{{ format_datetime(config['start_date'], '%s') }}",
  ),
  D('sanitize_url', 'sanitize_url(value)', 'Form-style percent-encoding (space → +, / → %2F).', '{{ sanitize_url(config.query) }}'),
  D(
    'camel_case_to_snake_case',
    'camel_case_to_snake_case(value)',
    'CamelCase → camel_case.',
    "{{ camel_case_to_snake_case('CamelCase') }}",
  ),
  D('generate_uuid', 'generate_uuid()', 'A random UUID v4 string.', '{{ generate_uuid() }}'),
  D('dict', 'dict(**kwargs)', 'Builds a dict (Jinja global).', '{{ dict(a=1) }}'),
  D(
    'namespace',
    'namespace(**kwargs)',
    'An object whose attributes can be set inside loops (Jinja global).',
    '{% set ns = namespace(n=0) %}',
  ),
  D('lipsum', 'lipsum(n=5, html=True, min=20, max=100)', 'Placeholder text (Jinja global).', '{{ lipsum() }}'),
  D('cycler', 'cycler(*items)', 'Cycles through values (Jinja global).', '{% set c = cycler(1, 2) %}'),
  D('joiner', 'joiner(sep=", ")', 'Returns the separator except the first time (Jinja global).', '{% set j = joiner() %}'),
];

/** Spec §3.8 filters first, then the built-in Jinja filters manifests use. */
export const FILTER_DOCS: TemplateFunctionDoc[] = [
  D(
    'hash',
    'hash(hash_type="md5", salt=None)',
    'Hex digest of str(value) (salt appended); any hashlib algorithm name.',
    "{{ config.email | hash('sha256') }}",
  ),
  D('base64encode', 'base64encode', 'Standard base64 of the UTF-8 text.', "{{ (config.user ~ ':' ~ config.password) | base64encode }}"),
  D('base64decode', 'base64decode', 'Decodes standard base64 to UTF-8 text.', '{{ config.encoded | base64decode }}'),
  D(
    'base64binascii_decode',
    'base64binascii_decode',
    'Despite its name, ENCODES ASCII text as base64 (reference quirk).',
    '{{ config.key | base64binascii_decode }}',
  ),
  D(
    'string',
    'string',
    'Strings unchanged; other values become JSON in triple quotes so the result stays a string.',
    '{{ config.ids | string }}',
  ),
  D('regex_search', 'regex_search(regex)', 'Capture group 1 of the first match, or "".', "{{ headers.link | regex_search('<(.*?)>') }}"),
  D(
    'regex_replace',
    'regex_replace(regex, replacement)',
    'Replaces every match (Python replacement syntax \\1, \\g<name>).',
    "{{ config.domain | regex_replace('^https?://', '') }}",
  ),
  D(
    'hmac',
    'hmac(key, hash_type="sha256")',
    'HMAC-SHA256 hex digest of str(value) with key.',
    '{{ config.payload | hmac(config.secret) }}',
  ),
  D(
    'default',
    'default(default_value="", boolean=False)',
    'The default when the value is undefined (or falsy with boolean=true). Alias d.',
    "{{ config.region | default('us') }}",
  ),
  D('int', 'int(default=0, base=10)', 'Converts to int; invalid input gives the default.', "{{ config['page_size'] | int }}"),
  D('float', 'float(default=0.0)', 'Converts to float.', "{{ config['lat'] | float }}"),
  D('length', 'length', 'Number of items or characters. Alias count.', '{{ response.data | length }}'),
  D('first', 'first', 'First item of a sequence.', '{{ response.items | first }}'),
  D('last', 'last', 'Last item of a sequence.', '{{ response.items | last }}'),
  D('join', 'join(d="", attribute=None)', 'Joins items with a separator.', "{{ config.ids | join(',') }}"),
  D(
    'map',
    'map(filter_name, *args) | map(attribute=name)',
    'Applies a filter or reads an attribute for each item.',
    "{{ records | map(attribute='id') | list }}",
  ),
  D('select', 'select(test_name, *args)', 'Items passing a test.', '{{ numbers | select("odd") | list }}'),
  D('reject', 'reject(test_name, *args)', 'Items failing a test.', '{{ values | reject("none") | list }}'),
  D(
    'selectattr',
    'selectattr(attribute, test_name, *args)',
    'Items whose attribute passes a test.',
    "{{ items | selectattr('active') | list }}",
  ),
  D(
    'rejectattr',
    'rejectattr(attribute, test_name, *args)',
    'Items whose attribute fails a test.',
    "{{ items | rejectattr('deleted') | list }}",
  ),
  D('list', 'list', 'Converts to a list.', '{{ config.keys() | list }}'),
  D('lower', 'lower', 'Lower-case text.', '{{ config.region | lower }}'),
  D('upper', 'upper', 'Upper-case text.', '{{ config.region | upper }}'),
  D('replace', 'replace(old, new, count=None)', 'Replaces occurrences of a substring.', "{{ config.domain | replace('https://', '') }}"),
  D('trim', 'trim(chars=None)', 'Strips leading and trailing whitespace (or chars).', '{{ config.token | trim }}'),
  D('tojson', 'tojson(indent=None)', 'JSON text with sorted keys (HTML-safe escapes).', '{{ config.filters | tojson }}'),
  D('urlencode', 'urlencode', 'Percent-encodes a string (keeps /) or a dict as a query string.', '{{ config.query | urlencode }}'),
  D('sum', 'sum(attribute=None, start=0)', 'Sum of the items.', "{{ items | sum(attribute='count') }}"),
  D('sort', 'sort(reverse=False, case_sensitive=False, attribute=None)', 'Sorted list.', '{{ config.ids | sort }}'),
  D('unique', 'unique(case_sensitive=False, attribute=None)', 'Items without duplicates.', '{{ config.ids | unique | list }}'),
  D('abs', 'abs', 'Absolute value.', '{{ -1 | abs }}'),
  D('round', 'round(precision=0, method="common")', 'Rounded float.', '{{ 2.5 | round }}'),
  D('capitalize', 'capitalize', 'First character upper-case, the rest lower-case.', '{{ name | capitalize }}'),
  D('title', 'title', 'Title-cased text.', '{{ name | title }}'),
  D('reverse', 'reverse', 'Reversed sequence or text.', '{{ items | reverse | list }}'),
  D('attribute', 'attribute(name)', 'Reads an attribute or key.', "{{ record | attribute('id') }}"),
  D('batch', 'batch(linecount, fill_with=None)', 'Splits into lists of a given size.', '{{ ids | batch(50) | list }}'),
  D('slice', 'slice(slices, fill_with=None)', 'Splits into a number of lists.', '{{ ids | slice(3) | list }}'),
  D('items', 'items', 'Key/value pairs of a mapping.', '{% for k, v in config.headers | items %}'),
  D('dictsort', 'dictsort(case_sensitive=False, by="key", reverse=False)', 'Sorted key/value pairs.', '{{ config.headers | dictsort }}'),
  D('groupby', 'groupby(attribute)', 'Groups items by an attribute.', "{{ items | groupby('type') }}"),
  D('max', 'max(case_sensitive=False, attribute=None)', 'Largest item.', '{{ [1, 3] | max }}'),
  D('min', 'min(case_sensitive=False, attribute=None)', 'Smallest item.', '{{ [1, 3] | min }}'),
  D('format', 'format(*args)', 'printf-style formatting.', "{{ '%s-%s' | format(a, b) }}"),
  D('center', 'center(width=80)', 'Centers text.', "{{ 'x' | center(5) }}"),
  D('indent', 'indent(width=4, first=False, blank=False)', 'Indents lines.', '{{ text | indent(2) }}'),
  D('truncate', 'truncate(length=255, killwords=False, end="...", leeway=5)', 'Shortens text.', '{{ text | truncate(10) }}'),
  D('wordcount', 'wordcount', 'Number of words.', '{{ text | wordcount }}'),
  D('wordwrap', 'wordwrap(width=79)', 'Wraps text.', '{{ text | wordwrap(40) }}'),
  D('striptags', 'striptags', 'Removes HTML tags.', '{{ html | striptags }}'),
  D('escape', 'escape', 'HTML-escapes text. Alias e.', '{{ text | escape }}'),
  D('forceescape', 'forceescape', 'HTML-escapes text.', '{{ text | forceescape }}'),
  D('safe', 'safe', 'Marks text safe (no effect without autoescape).', '{{ text | safe }}'),
  D('pprint', 'pprint', 'Python repr of the value.', '{{ config | pprint }}'),
  D('random', 'random', 'A random item.', '{{ items | random }}'),
  D('filesizeformat', 'filesizeformat(binary=False)', 'Human-readable byte size.', '{{ 1000000 | filesizeformat }}'),
  D('urlize', 'urlize', 'HTML-escapes text (links are not generated by this evaluator).', '{{ text | urlize }}'),
  D('xmlattr', 'xmlattr', 'XML attributes from a dict.', '{{ attrs | xmlattr }}'),
  D('count', 'count', 'Alias of length.', '{{ items | count }}'),
  D('d', 'd(default_value="", boolean=False)', 'Alias of default.', "{{ config.x | d('y') }}"),
  D('e', 'e', 'Alias of escape.', '{{ text | e }}'),
];

// The hostile inputs of hostile.test.ts: templates (filter, method, operator and regex bombs),
// manifests (reference and parameter fan-out, YAML bombs), HTTP responses and CLI inputs. Each names
// what the user must be told (`expect`), or only that it must end cleanly (no `expect`).
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type HostileInput =
  | { kind: 'template'; name: string; template: string; expect?: RegExp }
  | { kind: 'manifest'; name: string; text: string; expect?: RegExp; codes?: string[] }
  | { kind: 'http'; name: string; scenario: string; decoder?: object; paginator?: object; expect?: RegExp }
  | { kind: 'cli'; name: string; args: string[]; expect?: RegExp; exitCode?: number };

const LIMIT = /result too large|exceeded \d+ (steps|ms|characters)|longer than|too large for an input/;

/** Definitions l0 … l<levels> each referencing the next `width` times. */
export function fanOutManifest(levels: number, width = 2, asRef = false): string {
  const lines = ['version: 6.0.0', 'type: DeclarativeSource', 'check:', '  type: CheckStream', '  stream_names: [s]', 'definitions:'];
  for (let i = 0; i < levels; i++) {
    lines.push(`  l${i}:`);
    for (let w = 0; w < width; w++)
      lines.push(asRef ? `    k${w}: {$ref: "#/definitions/l${i + 1}"}` : `    k${w}: "#/definitions/l${i + 1}"`);
  }
  lines.push(`  l${levels}: {x: 1}`, 'streams:', '  - type: DeclarativeStream', '    name: s', '    retriever: "#/definitions/l0"');
  return `${lines.join('\n')}\n`;
}

const header = 'version: 6.0.0\ntype: DeclarativeSource\n';

function templates(): HostileInput[] {
  const t = (name: string, template: string, expect?: RegExp): HostileInput => ({ kind: 'template', name, template, expect });
  const big = "('x' * 900000)";
  return [
    t('slice(10**9) | list', '{{ config.list | slice(10**9) | list }}', /slice: result too large/),
    t('center(10**8)', "{{ 'x' | center(10**8) }}", /center: result too large/),
    t('indent(10**8)', "{{ 'a\\nb' | indent(10**8) }}", /indent: result too large/),
    t('indent of many lines', "{{ ('a\\n' * 400000) | indent(100) }}", /indent: result too large/),
    t("'ab' * 10**9", "{{ 'ab' * 10**9 }}", /result too large/),
    t('[1,2] * 10**9', '{{ [1, 2] * 10**9 }}', /result too large/),
    t('[] * 10**9', '{{ [] * 10**9 }}'),
    t('range(10**9)', '{{ range(10**9) }}', /undeclared variable 'range'/),
    t('batch(10**9, fill)', '{{ config.list | batch(10**9, 0) }}', /batch: result too large/),
    t('replace explosion', "{{ config.big | replace('x', 'yy') }}", /replace: result too large/),
    t('str.replace explosion', "{{ config.big.replace('x', 'yyyy') }}", /replace: result too large/),
    t('replace empty needle', "{{ config.big | replace('', 'abc') }}", /replace: result too large/),
    t('join of huge list', "{{ [config.big, config.big] | join(',') }}", /join: result too large/),
    t('join of a million refs', '{{ ([config.big] * 1000000) | join }}', LIMIT),
    t('str.join', "{{ ','.join([config.big, config.big]) }}", LIMIT),
    t("'%' format", "{{ '%s%s' % (config.big, config.big) }}", LIMIT),
    t('%f precision', "{{ '%.1000000f' % 1.5 }}", /precision too large/),
    t('str.format', "{{ '{}{}'.format(config.big, config.big) }}", LIMIT),
    t('str of a list of big strings', '{{ [config.big] * 3 }}', LIMIT),
    t('str of a million references', '{{ [config.big] * 1000000 }}', LIMIT),
    t('zfill(10**9)', '{{ config.text.zfill(10**9) }}', LIMIT),
    t('tojson of big values', "{{ {'a': config.big, 'b': config.big} | tojson }}", LIMIT),
    t('tojson with indent', '{{ ([[1] * 1000] * 1000) | tojson(indent=10) }}', LIMIT),
    t('pprint', '{{ [config.big, config.big] | pprint }}', LIMIT),
    t('escape grows 5x', `{{ ('<' * 900000) | escape }}`, LIMIT),
    t('urlencode grows 9x', `{{ ('é' * 900000) | urlencode }}`, LIMIT),
    t('base64encode', `{{ ('é' * 900000) | base64encode }}`, LIMIT),
    t('xmlattr', "{{ {'a': config.big, 'b': config.big} | xmlattr }}", LIMIT),
    t('wordwrap', `{{ ('a ' * 450000) | wordwrap(1) | length }}`),
    t('title', `{{ ${big} | title | length }}`),
    t('upper of ß', `{{ ('ß' * 900000) | upper | length }}`, LIMIT),
    t('sort a million', '{% set l = [1] * 900000 %}{{ l | sort | sort | sort | length }}', LIMIT),
    t('unique of a string', `{{ ${big} | unique | list | length }}`, LIMIT),
    t('dictsort', "{{ {'a': 1} | dictsort }}"),
    t('groupby of many', "{{ ([{'a': 1}] * 500000) | groupby('a') | length }}", LIMIT),
    t('sum of many', '{{ ([1] * 999999) | sum }}', LIMIT),
    t('map upper over many', "{{ (['a'] * 999999) | map('upper') | list | length }}", LIMIT),
    t('select over many', "{{ ([1] * 999999) | select('odd') | list | length }}", LIMIT),
    t('striptags unclosed', "{{ ('<!--' * 200000) | striptags | length }}"),
    t('striptags unclosed tags', "{{ ('<a' * 400000) | striptags | length }}"),
    t('trim with many chars', `{{ ${big} | trim(${big}) }}`),
    t('truncate(10**9)', '{{ config.text | truncate(10**9) }}'),
    t('round(10**9)', '{{ 1.5 | round(10**9) }}'),
    t('filesizeformat(1e300)', '{{ 1e300 | filesizeformat }}'),
    t('int of a million digits', `{{ ('9' * 999999) | int }}`),
    t('10 ** 400', '{{ 10 ** 400 }}', /numerical result out of range/),
    t('2 ** 2 ** 2 ** 2 ** 2 (left-associative in Jinja)', '{{ 2 ** 2 ** 2 ** 2 ** 2 }}'),
    t('2 ** (2 ** (2 ** (2 ** 2)))', '{{ 2 ** (2 ** (2 ** (2 ** 2))) }}', /numerical result out of range/),
    t('empty loop over a million', "{% for x in ('x' * 999999) %}{% endfor %}", LIMIT),
    t('nested loops', "{% for i in ('x' * 9999) %}{% for j in ('x' * 9999) %}{% endfor %}{% endfor %}", LIMIT),
    t(
      'exponential DAG equality',
      "{% set ns = namespace(a=[1]) %}{% for i in ('x' * 60) %}{% set ns.a = [ns.a, ns.a] %}{% endfor %}{{ ns.a == ns.a }}",
      LIMIT,
    ),
    t(
      'exponential DAG str',
      "{% set ns = namespace(a=[1]) %}{% for i in ('x' * 60) %}{% set ns.a = [ns.a, ns.a] %}{% endfor %}{{ ns.a }}",
      LIMIT,
    ),
    t(
      'deeply nested list str',
      "{% set ns = namespace(a=[]) %}{% for i in ('x' * 100000) %}{% set ns.a = [ns.a] %}{% endfor %}{{ ns.a | length }}",
    ),
    t('list grows by extend', "{% set l = [1] %}{% for i in ('x' * 30) %}{% set _ = l.extend(l) %}{% endfor %}{{ l | length }}", LIMIT),
    t('dict update loop', "{% set d = {} %}{% for i in ('x' * 999999) %}{% set _ = d.update({i: 1}) %}{% endfor %}", LIMIT),
    t('string index in a loop', `{% set s = ${big} %}{% for i in ('x' * 1000) %}{{ s[0] }}{% endfor %}`, LIMIT),
    t('in on a huge string', `{{ ('a' * 500000) in ${big} }}`),
    t('regex (a|a)*', "{{ ('a' * 100000 ~ '!') | regex_search('^(a|a)*$') }}"),
    t('regex (a+)+$', "{{ ('a' * 100000 ~ '!') | regex_replace('(a+)+$', 'b') | length }}"),
    t('regex a*a*a*b', "{{ ('a' * 100000) | regex_search('a*a*a*b') }}"),
    t('regex backreference', "{{ 'aa' | regex_search('(a)\\\\1') }}", /backreference `\\1`.*not supported/),
    t('regex lookahead', "{{ 'ab' | regex_search('a(?=b)') }}", /lookahead/),
    t('regex lookbehind', "{{ 'ab' | regex_replace('(?<=a)b', 'c') }}", /lookbehind/),
    t('regex huge repeat', "{{ 'a' | regex_search('a{1000}{1000}') }}", /invalid regular expression|too large/),
    t('regex long pattern', `{{ 'a' | regex_search('${'(a|b)'.repeat(1000)}') }}`, /longer than 2000 characters/),
    t('regex too costly for input', "{{ ('ab' * 400000) | regex_search('(?i)((a|b){1,10}){1,100}d') }}", /too large for an input/),
    t('regex replacement group explosion', `{{ ('a' * 400000) | regex_replace('(a)', '\\\\1\\\\1\\\\1') }}`, LIMIT),
    t('regex bad group in replacement', "{{ 'a' | regex_replace('a', '\\\\g<9>') }}", /invalid group reference/),
    t('strptime with many %d', "{{ format_datetime('1' * 59 ~ 'x', '%Y', '%d' * 30) }}"),
    t('format_datetime long format', "{{ format_datetime('2020-01-01T00:00:00Z', '%Y' * 500000) }}", LIMIT),
    t('str_to_datetime of a million digits', "{{ str_to_datetime('2' * 1000000) }}"),
    t('duration of a long text', "{{ duration('P' ~ '1D' * 100000) }}"),
    t('day_delta(10**20)', '{{ day_delta(10**20) }}'),
    t('camel_case_to_snake_case of a million capitals', "{{ camel_case_to_snake_case('A' * 999999) | length }}", LIMIT),
    t('sanitize_url of a million slashes', "{{ sanitize_url('/' * 999999) | length }}", LIMIT),
    t('max of a million', '{{ max([1] * 999999) }}'),
    t('deep parentheses', `{{ ${'('.repeat(100000)}1${')'.repeat(100000)} }}`, /nested too deeply|syntax/i),
    t('a hundred thousand filters', `{{ 1${'|string'.repeat(100000)} }}`),
    t('a million characters of text', `${'x'.repeat(1_000_000)}{{ 1 }}`, LIMIT),
    t('nested if blocks', `${'{% if true %}'.repeat(5000)}x${'{% endif %}'.repeat(5000)}`),
  ];
}

function manifests(): HostileInput[] {
  const m = (name: string, text: string, expect?: RegExp, codes?: string[]): HostileInput => ({
    kind: 'manifest',
    name,
    text,
    expect,
    codes,
  });
  const tooLarge = /resolution-too-large/;
  const params: string[] = [];
  for (let i = 0; i < 400; i++) params.push(`      p${i}: v`);
  const paramBomb = [header + 'definitions:'];
  for (let i = 0; i < 13; i++)
    paramBomb.push(`  l${i}:\n    type: Level\n    a: "#/definitions/l${i + 1}"\n    b: "#/definitions/l${i + 1}"`);
  paramBomb.push(
    '  l13: {type: Level}\nstreams:\n  - type: DeclarativeStream\n    name: s\n    $parameters:\n' +
      params.join('\n') +
      '\n    retriever: "#/definitions/l0"\n',
  );
  const bigDef = Array.from({ length: 2000 }, (_, i) => `    f${i}: ${i}`).join('\n');
  const wideRefs = Array.from({ length: 1000 }, (_, i) => `  r${i}: "#/definitions/big"`).join('\n');
  const chain = Array.from({ length: 2000 }, (_, i) => `  c${i}: "#/definitions/c${i + 1}"`).join('\n');
  const cycle = Array.from({ length: 500 }, (_, i) => `  c${i}: {$ref: "#/definitions/c${(i + 1) % 500}"}`).join('\n');
  return [
    m('fan-out 16 levels', fanOutManifest(16)),
    m('fan-out 18 levels', fanOutManifest(18), tooLarge),
    m('fan-out 20 levels', fanOutManifest(20), tooLarge),
    m('fan-out 64 levels', fanOutManifest(64), tooLarge),
    m('fan-out 3 wide, 14 levels', fanOutManifest(14, 3), tooLarge),
    m('fan-out 10 wide, 8 levels', fanOutManifest(8, 10), tooLarge),
    m('fan-out through $ref mappings', fanOutManifest(24, 2, true), tooLarge),
    m('parameters times components', paramBomb.join('\n'), /Propagating `\$parameters`/),
    m('a thousand references to a 2000-field definition', `${header}definitions:\n  big:\n${bigDef}\n${wideRefs}\nstreams: []\n`, tooLarge),
    m('a 2000-long reference chain', `${header}definitions:\n${chain}\n  c2000: 1\nstreams: []\n`),
    m('a 500-long reference cycle', `${header}definitions:\n${cycle}\nstreams: []\n`, /circular-reference/),
    m(
      'a reference with 100,000 path segments',
      `${header}definitions:\n  a: "#/${'x/'.repeat(100_000)}y"\nstreams: []\n`,
      /unknown-reference/,
    ),
    m(
      'a reference to a 1 MB key',
      `${header}definitions:\n  ${'k'.repeat(1_000_000)}: 1\n  a: "#/definitions/${'k'.repeat(1_000_000)}"\nstreams: []\n`,
    ),
  ];
}

function yamlInputs(): HostileInput[] {
  const m = (name: string, text: string, expect?: RegExp): HostileInput => ({ kind: 'manifest', name, text, expect });
  const laughs = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 10; i++) laughs.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const garbage = Array.from({ length: 200_000 }, () => String.fromCharCode(Math.floor(random() * 256))).join('');
  let deepBlock = '';
  for (let i = 0; i < 2000; i++) deepBlock += `${' '.repeat(i)}k${i}:\n`;
  return [
    m('billion laughs', `${header}${laughs.join('\n')}\nstreams: []\n`, /yaml-syntax|alias/i),
    m('deep flow nesting', `${header}x: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`),
    m('deep flow mappings', `${header}x: ${'{a: '.repeat(20_000)}1${'}'.repeat(20_000)}\n`),
    m('deep block nesting', `${header}${deepBlock}`),
    m('a 2 MB line', `${header}description: ${'x'.repeat(2_000_000)}\n`),
    m('a 1 MB key', `${header}${'k'.repeat(1_000_000)}: 1\nstreams: []\n`, /unknown-field|yaml-syntax/),
    m('100,000 keys', `${header}${Array.from({ length: 100_000 }, (_, i) => `k${i}: ${i}`).join('\n')}\n`),
    m('100,000 duplicate keys', `${header}${'k: 1\n'.repeat(100_000)}`),
    m('random bytes', garbage),
    m('NUL bytes', `${header}x: "a\u0000b"\n${'\u0000'.repeat(1000)}`),
    m('BOM and CRLF', `\ufeff${header.replace(/\n/g, '\r\n')}streams: []\r\n`),
    m('10,000 documents', `${header}${'---\na: 1\n'.repeat(10_000)}`),
    m('tab indentation', `${header}streams:\n\t- name: a\n\t\tx: 1\n`, /yaml-syntax/),
    m('an unterminated 1 MB quoted string', `${header}x: "${'y'.repeat(1_000_000)}\n`, /yaml-syntax/),
    m('a number with a million digits', `${header}x: ${'9'.repeat(1_000_000)}\n`),
    m('100,000 anchors', `${header}l: [${Array.from({ length: 100_000 }, (_, i) => `&a${i} ${i}`).join(', ')}]\n`),
    m(
      'merge-key bomb',
      `${header}a0: &a0 {x: 1}\n${Array.from({ length: 20 }, (_, i) => `a${i + 1}: &a${i + 1} {<<: [*a${i}, *a${i}], y${i}: 1}`).join('\n')}\n`,
    ),
    m('a 5 MB !!binary', `${header}x: !!binary ${'QUJD'.repeat(1_250_000)}\n`),
    m('control characters and escapes in keys', `${header}"\\e]0;owned\\a\\e[2J\\u202E": 1\nstreams: []\n`, /unknown-field/),
    m(
      'a template with a million characters',
      `${header}streams:\n  - type: DeclarativeStream\n    name: s\n    retriever:\n      type: SimpleRetriever\n      requester: {type: HttpRequester, url_base: "{{ ${'1 + '.repeat(250_000)}1 }}"}\n`,
    ),
    m(
      'a template nested too deeply',
      `${header}streams:\n  - type: DeclarativeStream\n    name: s\n    retriever:\n      type: SimpleRetriever\n      requester: {type: HttpRequester, url_base: "{{ ${'('.repeat(50_000)}1${')'.repeat(50_000)} }}"}\n`,
      /nested too deeply/,
    ),
    m('an empty file', ''),
    m('only a comment', '# nothing\n'),
  ];
}

function httpInputs(): HostileInput[] {
  const h = (name: string, scenario: string, expect?: RegExp, decoder?: object, paginator?: object): HostileInput => ({
    kind: 'http',
    name,
    scenario,
    expect,
    decoder,
    paginator,
  });
  const cap = /exceeds the size limit|more than 5000000 bytes/;
  return [
    h('gzip Content-Encoding bomb', 'gzip-encoding-bomb', cap),
    h('deflate Content-Encoding bomb', 'deflate-encoding-bomb', cap),
    h('brotli Content-Encoding bomb', 'br-encoding-bomb', cap),
    h('gzip body bomb (GzipDecoder)', 'gzip-body-bomb', cap, { type: 'GzipDecoder', decoder: { type: 'JsonDecoder' } }),
    h('a 40 MB body', 'huge-body', cap),
    h('an endless body', 'endless-body', cap),
    h('a body that trickles forever', 'slow-drip', /No complete response within 2000 ms/),
    h('no response at all', 'no-response', /No complete response within 2000 ms/),
    h('JSON nested 2,000,000 deep', 'deep-json'),
    h('a 5 MB JSON key', 'huge-key-json', cap),
    h('a million records', 'many-records'),
    h('a record with 200,000 fields', 'wide-record'),
    h('truncated JSON', 'invalid-json'),
    h('invalid UTF-8', 'invalid-utf8'),
    h('escape sequences in an error body', 'escape-error-body', /400/),
    h('HTTP 500 on every retry', 'error-500-forever', /500/),
    h('a redirect loop', 'redirect-loop', /redirect/i),
    h('XML entity bomb', 'xml-entity-bomb', undefined, { type: 'XmlDecoder' }),
    h('XML nested 200,000 deep', 'xml-deep', undefined, { type: 'XmlDecoder' }),
    h('a 30 MB CSV field', 'csv-huge-field', cap, { type: 'CsvDecoder' }),
    h('a CSV row of 100,000 columns', 'csv-many-columns', undefined, { type: 'CsvDecoder' }),
    h('30 MB of JSON Lines', 'jsonl-huge', cap, { type: 'JsonlDecoder' }),
    h('100 KB of headers', 'huge-headers'),
    h('a next page that is always the same page', 'same-next-page', undefined, undefined, {
      type: 'DefaultPaginator',
      pagination_strategy: { type: 'CursorPagination', cursor_value: "{{ headers['link']['next']['url'] }}" },
      page_token_option: { type: 'RequestPath' },
    }),
  ];
}

function cliInputs(): HostileInput[] {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
  const binary = join(dir, 'binary.yaml');
  writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]));
  const latin1 = join(dir, 'latin1.yaml');
  writeFileSync(latin1, Buffer.from('version: 6.0.0\nx: caf\xe9\n', 'latin1'));
  const escapes = join(dir, 'escapes.yaml');
  writeFileSync(escapes, `${header}"\\e]0;owned\\a\\e[2J": 1\nstreams: []\n`);
  const fanOut = join(dir, 'fan-out.yaml');
  writeFileSync(fanOut, fanOutManifest(30));
  const c = (name: string, args: string[], exitCode: number, expect: RegExp): HostileInput => ({
    kind: 'cli',
    name,
    args,
    exitCode,
    expect,
  });
  return [
    c('validate /dev/zero', ['validate', '/dev/zero'], 2, /larger than 8388608 bytes; not read/),
    c('validate a binary file', ['validate', binary], 2, /not a YAML text: binary data/),
    c('validate a Latin-1 file', ['validate', latin1], 2, /not a YAML text: the bytes are not valid UTF-8/),
    c('validate escape sequences', ['validate', escapes], 1, /\\x1b\]0;owned\\x07\\x1b\[2J/),
    c('validate a reference fan-out', ['validate', fanOut], 1, /resolution-too-large/),
    c('read with /dev/zero as config', ['read', fanOut, '--stream', 's', '--config', '/dev/zero'], 2, /larger than 8388608 bytes/),
  ];
}

/** Every hostile input, in a stable order. */
export function hostileInputs(): HostileInput[] {
  return [...templates(), ...manifests(), ...yamlInputs(), ...httpInputs(), ...(process.platform === 'win32' ? [] : cliInputs())];
}

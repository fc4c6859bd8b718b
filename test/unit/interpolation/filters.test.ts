// Spec §3.8 (the CDK's filters) and the built-in Jinja filters, tests and methods manifests use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, kindOf } from './helpers';

test('hash: md5 default, other algorithms, salt, unknown algorithm fails', () => {
  assert.equal(ev("{{ 'abc' | hash }}", {}, 'string'), '900150983cd24fb0d6963f7d28e17f72');
  assert.equal(ev("{{ 'abc' | hash('sha256') }}", {}, 'string'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(ev("{{ 'ab' | hash('md5', 'c') }}", {}, 'string'), '900150983cd24fb0d6963f7d28e17f72');
  assert.equal(ev("{{ 123 | hash('sha1') }}", {}, 'string'), '40bd001563085fc35165329ea1ff5c5ecbdbbeef');
  assert.equal(
    kindOf(() => ev("{{ 'a' | hash('nope') }}")),
    'value_error',
  );
});

test('base64encode, base64decode and the encoding base64binascii_decode', () => {
  assert.equal(ev("{{ 'user:pass' | base64encode }}", {}, 'string'), 'dXNlcjpwYXNz');
  assert.equal(ev("{{ 'dXNlcjpwYXNz' | base64decode }}", {}, 'string'), 'user:pass');
  assert.equal(ev("{{ 'user:pass' | base64binascii_decode }}", {}, 'string'), 'dXNlcjpwYXNz');
  assert.equal(
    kindOf(() => ev("{{ 'abc' | base64decode }}")),
    'value_error',
  );
});

test('string: strings unchanged, other values JSON in triple quotes', () => {
  assert.equal(ev('{{ 1 | string }}'), '1');
  assert.equal(ev('{{ True | string }}'), 'true');
  assert.equal(ev("{{ ['a', 'b'] | string }}"), '["a", "b"]');
  assert.equal(ev("{{ {'k': None} | string }}"), '{"k": null}');
  assert.equal(ev('x{{ 1 | string }}'), 'x"""1"""');
  assert.equal(ev("{{ '123' | string }}"), 123);
});

test('regex_search and regex_replace with Python syntax', () => {
  assert.equal(ev("{{ '<https://x/?page=2>; rel=\"next\"' | regex_search('<(.*?)>') }}", {}, 'string'), 'https://x/?page=2');
  assert.equal(ev("{{ 'abc' | regex_search('z(.)') }}", {}, 'string'), '');
  assert.equal(ev("{{ 'abc' | regex_search('b') }}", {}, 'string'), '');
  assert.equal(ev("{{ 'a1b22' | regex_replace('\\\\d+', '#') }}", {}, 'string'), 'a#b#');
  assert.equal(ev("{{ 'john smith' | regex_replace('(?P<f>\\\\w+) (\\\\w+)', '\\\\2, \\\\g<f>') }}", {}, 'string'), 'smith, john');
});

test('hmac: sha256 only', () => {
  assert.equal(ev("{{ 'data' | hmac('key') }}", {}, 'string'), '5031fe3d989c6d1537a013fa6e739da23463fdaec3b70137d828e36ace221bd0');
  assert.equal(
    kindOf(() => ev("{{ 'data' | hmac('key', 'md5') }}")),
    'value_error',
  );
});

test('int and float filters with Python parsing and defaults', () => {
  assert.equal(ev("{{ '42' | int }}"), 42);
  assert.equal(ev("{{ '4.7' | int }}"), 4);
  assert.equal(ev("{{ 'x' | int }}"), 0);
  assert.equal(ev("{{ 'x' | int(7) }}"), 7);
  assert.equal(ev('{{ none | int }}'), 0);
  assert.equal(ev("{{ '3' | float }}"), 3);
  assert.equal(ev("{{ '3' | float }}", {}, 'string'), 3);
  assert.equal(ev("{{ ('3' | float) ~ '' }}"), 3);
  assert.equal(ev("{{ ('3' | float) ~ '|' }}"), '3.0|');
  assert.equal(ev("{{ 'abc' | float }}"), 0);
});

test('default, length, first, last, join, lower, upper, replace, trim, list', () => {
  assert.equal(ev("{{ config.x | default('d') }}"), 'd');
  assert.equal(ev("{{ '' | default('d', true) }}"), 'd');
  assert.equal(ev("{{ none | default('d') }}"), null);
  assert.equal(ev('{{ [1,2,3] | length }}'), 3);
  assert.equal(ev('{{ config.nope | length }}'), 0);
  assert.equal(ev('{{ [1,2,3] | first }}'), 1);
  assert.equal(ev('{{ [1,2,3] | last }}'), 3);
  assert.equal(ev("{{ ['a','b'] | join(',') }}"), 'a,b');
  assert.equal(ev("{{ 'AbC' | lower }}{{ 'x' | upper }}"), 'abcX');
  assert.equal(ev("{{ 'a-b-c' | replace('-', '_') }}"), 'a_b_c');
  assert.equal(ev("{{ '  x ' | trim }}"), 'x');
  assert.deepEqual(ev("{{ 'ab' | list }}"), ['a', 'b']);
});

test('map, select, selectattr, reject, sum, sort, unique, tojson, urlencode', () => {
  const records = [
    { id: 1, ok: true, n: 'b' },
    { id: 2, ok: false, n: 'a' },
  ];
  assert.deepEqual(ev("{{ records | map(attribute='id') | list }}", { records }), [1, 2]);
  assert.deepEqual(ev("{{ ['1','2'] | map('int') | list }}"), [1, 2]);
  assert.deepEqual(ev("{{ records | selectattr('ok') | map(attribute='id') | list }}", { records }), [1]);
  assert.deepEqual(ev("{{ records | selectattr('id', 'equalto', 2) | map(attribute='n') | first }}", { records }), 'a');
  assert.deepEqual(ev('{{ [1,2,3,4] | select("odd") | list }}'), [1, 3]);
  assert.deepEqual(ev('{{ [1,2,3,4] | reject("odd") | list }}'), [2, 4]);
  assert.equal(ev("{{ records | sum(attribute='id') }}", { records }), 3);
  assert.deepEqual(ev("{{ records | sort(attribute='n') | map(attribute='id') | list }}", { records }), [2, 1]);
  assert.deepEqual(ev('{{ [3,1,3] | unique | list }}'), [3, 1]);
  assert.equal(ev("j={{ {'b': 1, 'a': '<x>'} | tojson }}", {}, 'string'), 'j={"a": "\\u003cx\\u003e", "b": 1}');
  // The JSON text is itself a Python literal, so alone it comes back as an object.
  assert.deepEqual(ev("{{ {'b': 1, 'a': '<x>'} | tojson }}", {}, 'string'), { a: '<x>', b: 1 });
  assert.equal(ev("{{ 'a b/c' | urlencode }}"), 'a%20b/c');
  assert.equal(ev("{{ {'q': 'a b'} | urlencode }}"), 'q=a+b');
});

test('tests: none, defined, number, string, in, divisibleby, false', () => {
  assert.equal(ev('{{ x is none }}', { x: null }), true);
  assert.equal(ev('{{ config.x is defined }}'), false);
  assert.equal(ev('{{ config.x is not defined }}'), true);
  assert.equal(ev('{{ 1.5 is number }}'), true);
  assert.equal(ev("{{ 'a' is string }}"), true);
  assert.equal(ev('{{ 2 is in [1, 2] }}'), true);
  assert.equal(ev('{{ 9 is divisibleby 3 }}'), true);
  assert.equal(ev('{{ x is false }}', { x: false }), true);
  assert.equal(
    kindOf(() => ev('{{ 1 is nonsense }}')),
    'template_syntax_error',
  );
});

test('dict, list and str methods with Python semantics', () => {
  const config = { a: 1, nested: { k: 'v' } };
  assert.equal(ev("{{ config.get('a') }}", { config }), 1);
  assert.equal(ev("{{ config.get('zz', 'd') }}", { config }), 'd');
  assert.equal(ev("{{ config.get('zz') }}", { config }), null);
  assert.deepEqual(ev('{{ config.keys() | list }}', { config }), ['a', 'nested']);
  assert.deepEqual(ev('{{ config.nested.items() | list }}', { config }), [['k', 'v']]);
  assert.equal(ev("{{ 'a,b,c'.split(',')[1] }}"), 'b');
  assert.equal(ev("{{ 'a b  c'.split() | length }}"), 3);
  assert.equal(ev("{{ 'a:b:c'.split(':', 1)[1] }}"), 'b:c');
  assert.equal(ev("{{ '-'.join(['x', 'y']) }}"), 'x-y');
  assert.equal(ev("{{ 'Hello'.startswith('He') }}"), true);
  assert.equal(ev("{{ 'abcdef'[1:3] }}{{ 'abcdef'[-2:] }}"), 'bcef');
  assert.deepEqual(ev("{{ {'k': True} }}", {}, 'string'), { k: true });
  assert.equal(ev("{{ 'x' ~ {'k': True, 'n': None} }}"), "x{'k': True, 'n': None}");
  assert.equal(ev("{{ 'x' ~ [1.0, 'it\\'s'] }}"), `x[1.0, "it's"]`);
});

test('Python rendering: None/True/False, int vs float, division', () => {
  assert.equal(ev("{{ 'v=' ~ None ~ True ~ False }}"), 'v=NoneTrueFalse');
  assert.equal(ev("{{ 'v=' ~ (10 / 2) }}"), 'v=5.0');
  assert.equal(ev("{{ 'v=' ~ (10 // 3) }}"), 'v=3');
  assert.equal(ev("{{ 'v=' ~ (2 ** 10) }}"), 'v=1024');
  assert.equal(ev("{{ 'v=' ~ (7 % 3) ~ (1.5 * 2) }}"), 'v=13.0');
  assert.equal(ev("{{ 'v=' ~ 1e20 }}"), 'v=1e+20');
});

test('statements: if/elif/else, for with else and filter, set, whitespace control, comments', () => {
  const tpl = "{% if config.env == 'prod' %}p{% elif config.env == 'qa' %}q{% else %}o{% endif %}";
  assert.equal(ev(tpl, { config: { env: 'qa' } }), 'q');
  assert.equal(ev('{% for x in [] %}a{% else %}empty{% endfor %}'), 'empty');
  assert.equal(ev('{% for x in [1,2,3,4] if x is even %}{{ x }}{% endfor %}'), 24);
  assert.equal(ev('{% set a, b = [1, 2] %}{{ a + b }}'), 3);
  assert.equal(ev('a  {%- set x = 5 -%}   {{ x }}|{# note #}'), 'a5|');
  assert.equal(ev('{% set ns = namespace(n=0) %}{% for i in [1,2] %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}'), 3);
  assert.equal(ev('{% raw %}{{ x }}{% endraw %}'), '{{ x }}');
  assert.equal(ev('a\n'), 'a');
  assert.equal(ev("{{ -180.00 <= config['lon']|float <= 180.00 }}", { config: { lon: '12.5' } }), true);
  assert.equal(
    kindOf(() => ev('{% for x in [1] %}{% break %}{% endfor %}')),
    'template_syntax_error',
  );
});

test('an Undefined inside a list renders as Python writes it: [Undefined, …] (map(attribute=) over items without it, source-linear)', () => {
  // Values checked against the reference CDK's JinjaInterpolation.eval.
  assert.equal(
    ev("{{ record.teams.nodes | map(attribute='id') | list }}", { record: { teams: { nodes: 'ab' } } }, 'string'),
    '[Undefined, Undefined]',
  );
  assert.equal(ev("{{ record.x | map(attribute='id') | list }}", { record: { x: [{ id: 1 }, {}] } }, 'string'), '[1, Undefined]');
  assert.equal(ev('{{ [record.missing] }}', { record: {} }, 'string'), '[Undefined]');
  // On its own it still renders empty.
  assert.equal(ev('{{ record.missing }}', { record: {} }, 'string'), '');
});

// Work inside one filter, method or operator is bounded before it allocates (issue 11, item 7):
// each of these used to run for seconds, take gigabytes or abort the process out of memory. The
// 20 s limits are hang guards for a busy machine, not speed checks (bench/interpolation.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpolate } from '../../../server/src/runtime/interpolation';
import { RuntimeError } from '../../../server/src/runtime/errors';

const ctx = { config: { list: [1, 2, 3], text: 'abc', big: 'x'.repeat(900_000) }, parameters: {} };

function failure(template: string): string {
  const started = Date.now();
  try {
    const value = interpolate(template, ctx, 'jinja');
    assert.fail(`${template} rendered ${String(value).slice(0, 80)}`);
  } catch (e) {
    assert.ok(e instanceof RuntimeError, `${template}: ${(e as Error).message}`);
    assert.ok(Date.now() - started < 20_000, `${template} took ${Date.now() - started} ms`);
    return e.message;
  }
}

const BOMBS: [string, RegExp][] = [
  ['{{ config.list | slice(10**9) | list }}', /slice: result too large/],
  ["{{ 'x' | center(10**8) }}", /center: result too large/],
  ["{{ 'a\\nb' | indent(10**8) }}", /indent: result too large/],
  ["{{ ('a\\n' * 400000) | indent(100) }}", /indent: result too large/],
  ["{{ 'ab' * 10**9 }}", /'\*' on str: result too large/],
  ['{{ [1, 2] * 10**9 }}', /'\*' on list: result too large/],
  ['{{ config.list | batch(10**9, 0) }}', /batch: result too large/],
  ["{{ config.big | replace('x', 'yy') }}", /replace: result too large/],
  ["{{ config.big.replace('x', 'yyyy') }}", /replace: result too large/],
  ["{{ [config.big, config.big] | join(',') }}", /join: result too large/],
  ["{{ ','.join([config.big, config.big]) }}", /str\.join: result too large/],
  ["{{ '%s%s' % (config.big, config.big) }}", /'%' formatting: result too large/],
  ["{{ '{}{}'.format(config.big, config.big) }}", /str\.format: result too large/],
  ['{{ [config.big] * 3 }}', /str\(\) of a container: result too large/],
  ['{{ config.text.zfill(10**9) }}', /zfill: result too large/],
  ["{{ {'a': config.big, 'b': config.big} | tojson }}", /JSON text: result too large/],
  ['{{ ([[1] * 1000] * 1000) | tojson(indent=10) }}', /JSON text: result too large/],
  ['{{ 10 ** 400 }}', /numerical result out of range/],
  ['{% set l = [1] * 900000 %}{{ l | sort | sort | sort }}', /exceeded/],
];

for (const [template, expected] of BOMBS) {
  test(`bounded before allocating: ${template.slice(0, 70)}`, () => {
    assert.match(failure(template), expected);
  });
}

test('the same filters with sane arguments still work', () => {
  assert.equal(interpolate("{{ 'x' | center(5) }}", ctx, 'jinja'), '  x  ');
  assert.deepEqual(interpolate('{{ config.list | slice(2) | list }}', ctx, 'jinja'), [[1, 2], [3]]);
  assert.equal(interpolate("{{ 'a\\nb' | indent(2) }}", ctx, 'jinja'), 'a\n  b');
  assert.equal(
    interpolate("json={{ {'b': [1.0, 'é']} | tojson(indent=2) }}", ctx, 'jinja'),
    'json={\n  "b": [\n    1.0,\n    "\\u00e9"\n  ]\n}',
  );
  assert.equal(interpolate("{{ '<!--' * 200000 ~ '<b>x' | striptags }}", ctx, 'jinja'), '<!--'.repeat(200000) + 'x');
});

test('unique and groupby stay linear on large inputs', () => {
  const started = Date.now();
  assert.equal(interpolate("{{ ('ab' * 150000) | unique | list | length }}", ctx, 'jinja'), 2);
  assert.ok(Date.now() - started < 20_000);
});

test('regular expressions run on RE2: catastrophic patterns finish, with Python answers', () => {
  const started = Date.now();
  assert.equal(interpolate("{{ ('a' * 100000 ~ '!') | regex_search('^(a|a)*$') }}", ctx, 'jinja'), null);
  assert.equal(interpolate("{{ ('a' * 100000) | regex_replace('a*a*a*b', 'x') | length }}", ctx, 'jinja'), 100000);
  assert.equal(interpolate("{{ 'abxd' | regex_replace('x*', '-') }}", ctx, 'jinja'), '-a-b--d-');
  assert.equal(
    interpolate("{{ 'john@example.com' | regex_replace('(?P<user>\\\\w+)@(\\\\w+)', '\\\\g<user> at \\\\2') }}", ctx, 'jinja'),
    'john at example.com',
  );
  assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
});

test('Python constructs RE2 cannot run are named in the error', () => {
  assert.match(failure("{{ 'aa' | regex_search('(a)\\\\1') }}"), /backreference `\\1`.*not supported/);
  assert.match(failure("{{ 'ab' | regex_search('a(?=b)') }}"), /lookahead `\(\?=…\)`/);
  assert.match(failure("{{ 'ab' | regex_search('(?<!a)b') }}"), /negative lookbehind/);
  assert.match(failure("{{ 'ab' | regex_replace('(?P<x>a)(?P=x)', '') }}"), /named backreference/);
  assert.match(failure("{{ 'ab' | regex_search('a++') }}"), /possessive quantifier/);
});

test('a regular expression too large for its input is refused before it runs', () => {
  assert.match(failure("{{ ('ab' * 400000) | regex_search('(?i)((a|b){1,10}){1,100}d') }}"), /too large for an input/);
});

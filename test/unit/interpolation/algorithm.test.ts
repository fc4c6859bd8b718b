// Spec §3.2-§3.4: evaluation algorithm, defaults, wrappers and the table of consequences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalBoolean, evalMapping, evalNestedMapping, evalString, evalText, interpolate } from '../../../server/src/runtime/interpolation';
import { RuntimeError } from '../../../server/src/runtime/errors';
import { env, ev, kindOf } from './helpers';

test('§3.2 table: first-level missing key', () => {
  const ctx = { config: {}, parameters: {} };
  assert.equal(interpolate("{{ config['missing'] }}", ctx, 'string'), '');
  assert.deepEqual(evalMapping({ k: "{{ config['missing'] }}" }, ctx), { k: null });
  assert.equal(interpolate("{{ config['missing'] }}", ctx, 'boolean'), false);
});

test('§3.2 table: chained access on a missing key', () => {
  const ctx = { config: {}, parameters: {} };
  assert.equal(
    kindOf(() => interpolate('{{ config.a.b }}', ctx, 'string')),
    'value_error',
  );
  assert.deepEqual(evalMapping({ k: '{{ config.a.b }}' }, ctx), { k: null });
  assert.equal(interpolate('{{ config.a.b }}', ctx, 'boolean'), false);
});

test('§3.2 table: a null value', () => {
  const ctx = { config: { a: null }, parameters: {} };
  assert.equal(interpolate('{{ config.a }}', ctx, 'string'), null);
  assert.deepEqual(evalMapping({ k: '{{ config.a }}' }, ctx), { k: null });
  assert.deepEqual(evalMapping({ k: '{{ config.a }}' }, ctx, { validValueTypes: ['str'] }), { k: 'None' });
  // Reference quirk (§3.4): None is true.
  assert.equal(interpolate('{{ config.a }}', ctx, 'boolean'), true);
});

test('§3.2 table: zero', () => {
  const ctx = { config: { a: 0 }, parameters: {} };
  assert.equal(interpolate('{{ config.a }}', ctx, 'string'), 0);
  assert.deepEqual(evalMapping({ k: '{{ config.a }}' }, ctx), { k: 0 });
  assert.equal(interpolate('{{ config.a }}', ctx, 'boolean'), false);
});

test('§3.2 step 2: stream_interval and stream_partition alias stream_slice', () => {
  const slice = { start_time: '2020-01-01', end_time: '2020-01-31' };
  assert.equal(ev('{{ stream_interval.start_time }}', { stream_slice: slice }), '2020-01-01');
  assert.equal(ev('{{ stream_partition.end_time }}', { stream_slice: slice }), '2020-01-31');
});

test('§3.2 step 3: any template containing stream_state is a config error', () => {
  for (const t of ['{{ stream_state.x }}', "{{ 'stream_state' }}", 'plain stream_state text']) {
    assert.equal(
      kindOf(() => ev(t)),
      'config_error',
      t,
    );
  }
  // In the reference's words (source-open-exchange-rates' read fails with them in the reference).
  assert.throws(
    () => ev('{{ stream_state }}'),
    (e: unknown) =>
      e instanceof RuntimeError &&
      e.failureType === 'config_error' &&
      e.message ===
        '`stream_state` is no longer supported for interpolation. We recommend using `stream_interval` instead. Please reference the CDK Migration Guide for more information.',
  );
});

test('§3.2 step 4: non-string input is an error', () => {
  assert.equal(
    kindOf(() => interpolate(5 as unknown as string, { config: {} }, 'jinja')),
    'value_error',
  );
});

test('§3.2 step 5: undeclared variables are errors, set variables and globals are declared', () => {
  assert.equal(
    kindOf(() => ev('{{ last_records }}')),
    'undeclared_variable',
  );
  assert.equal(
    kindOf(() => ev('{{ response }}')),
    'undeclared_variable',
  );
  assert.equal(
    kindOf(() => ev('{{ eval }}')),
    'undeclared_variable',
  );
  assert.equal(
    kindOf(() => ev('{{ getattr }}')),
    'undeclared_variable',
  );
  assert.equal(ev('{% set x = 2 %}{{ x }}'), 2);
  assert.equal(ev('{{ now_utc().year }}'), 2021);
  assert.equal(ev('{% for i in [1] %}{{ loop.index }}{% endfor %}'), 1);
});

test('§3.2 steps 7-9: empty render uses the default; no default gives null', () => {
  const ctx = { config: {}, parameters: {} };
  assert.equal(interpolate('{{ config.x }}', ctx, 'jinja'), null);
  assert.equal(evalString('{{ config.x }}', ctx, { default: '{{ 5 }}' }), 5);
  assert.equal(evalString('{{ config.a.b }}', ctx, { default: 'fallback' }), 'fallback');
  assert.equal(evalString('{{ config.x }}', ctx, { default: '' }), '');
});

test('§3.3: rendered text comes back typed', () => {
  const c = (v: unknown) => ev('{{ config.v }}', { config: { v } });
  assert.equal(c('12345'), 12345);
  assert.equal(c('True'), true);
  assert.equal(c('true'), 'true');
  assert.equal(c('1e10'), 10000000000);
  assert.equal(c("'x'"), 'x');
  assert.equal(c('007'), '007');
  assert.deepEqual(c({ k: true }), { k: true });
  assert.deepEqual(c([1, 'a', null]), [1, 'a', null]);
  assert.equal(c(null), null);
});

test('§3.3: stringified results change text as the reference does', () => {
  const ctx = (v: unknown) => ({ config: { v }, parameters: {} });
  assert.equal(evalText('{{ config.v }}', ctx('1e10')), '10000000000.0');
  assert.equal(evalText('{{ config.v }}', ctx('0x1A')), '26');
  assert.equal(evalText('{{ config.v }}', ctx(null)), 'None');
  assert.equal(evalText("{{ timestamp('2022-02-28') }}", ctx(0)), '1646006400.0');
});

test('§3.3: datetimes and durations render in Python text forms', () => {
  assert.equal(ev('{{ now_utc() }}', {}, 'string'), '2021-09-01 00:00:00+00:00');
  assert.equal(ev('{{ today_utc() }}', {}, 'string'), '2021-09-01');
  assert.equal(ev("{{ duration('P1D') }}", {}, 'string'), '1 day, 0:00:00');
});

test('§3.4 InterpolatedString: empty render gives "" and the template is its own default', () => {
  assert.equal(interpolate("{{ config['missing'] }}", { config: {} }, 'string'), '');
  assert.equal(interpolate('plain text', { config: {} }, 'string'), 'plain text');
  assert.equal(interpolate('', { config: {} }, 'string'), '');
});

test('§3.4 InterpolatedBoolean: false values, zero, null and real booleans', () => {
  const ctx = { config: {}, parameters: {} };
  for (const t of [
    "{{ 'False' }}",
    "{{ 'false' }}",
    '{{ {} }}',
    '{{ [] }}',
    '{{ () }}',
    '',
    '{{ 0 }}',
    '{{ 0.0 }}',
    "{{ '0' }}",
    '{{ False }}',
    '{{ config.nope }}',
  ]) {
    assert.equal(evalBoolean(t, ctx), false, t);
  }
  for (const t of ['{{ None }}', '{{ 1 }}', "{{ 'x' }}", '{{ [0] }}', 'text']) {
    assert.equal(evalBoolean(t, ctx), true, t);
  }
  assert.equal(evalBoolean(true, ctx), true);
  assert.equal(evalBoolean(false, ctx), false);
});

test('§3.4 InterpolatedMapping: keys keep str type, values typed, valid value types, pass-through', () => {
  const ctx = { config: { n: '42', list: ['a', 'b'] }, parameters: {} };
  assert.deepEqual(evalMapping({ '{{ 123 }}': '{{ config.n }}', plain: 7, flag: true }, ctx), { '123': 42, plain: 7, flag: true });
  assert.deepEqual(evalMapping({ a: '{{ config.n }}', b: '{{ config.list }}' }, ctx, { validValueTypes: ['str', 'list'] }), {
    a: '42',
    b: ['a', 'b'],
  });
});

test('§3.4 InterpolatedNestedMapping: recursive, nulls dropped in objects but kept in lists', () => {
  const ctx = { config: { x: '5' }, parameters: {} };
  const out = evalNestedMapping(
    { a: { b: '{{ config.x }}', gone: '{{ config.missing }}', n: 3 }, l: ['{{ config.missing }}', '{{ config.x }}'] },
    ctx,
  );
  assert.deepEqual(out, { a: { b: 5, n: 3 }, l: [null, 5] });
});

test('§12.3 cursor pagination templates', () => {
  const next = 'https://api.example.com/v1/items?limit=50&cursor=abc';
  assert.equal(ev("{{ response.get('next') }}", { response: { next } }, 'string'), next);
  assert.equal(ev("{{ response.get('next') is none }}", { response: { next } }, 'boolean'), false);
  assert.equal(ev("{{ response.get('next') is none }}", { response: { next: null } }, 'boolean'), true);
  assert.equal(ev("{{ response.get('next') }}", { response: { next: null } }, 'jinja'), null);
  assert.equal(ev('{{ response.next }}', { response: { next: null } }, 'boolean'), true);
  assert.equal(ev('{{ response.next }}', { response: { next } }, 'boolean'), true);
});

test('§12.4 Link header templates', () => {
  const headers = { link: { next: { url: 'https://api.example.com/v1/items?page=2', rel: 'next' }, last: { url: 'x', rel: 'last' } } };
  assert.equal(ev("{{ headers['link']['next']['url'] }}", { headers }, 'string'), 'https://api.example.com/v1/items?page=2');
  assert.equal(ev("{{ 'next' not in headers['link'] }}", { headers }, 'boolean'), false);
  assert.equal(ev("{{ 'next' not in headers['link'] }}", { headers: { link: {} } }, 'boolean'), true);
});

test('§12.5-12.8 authenticator templates', () => {
  const config = { client_id: 'abc', client_secret: 's3cr3t', key: 'k1', user: 'u', password: 'p' };
  assert.equal(ev("{{ config['client_id'] }}", { config }, 'string'), 'abc');
  assert.equal(
    ev("Basic {{ (config.client_id ~ ':' ~ config.client_secret) | base64encode }}", { config }, 'string'),
    'Basic YWJjOnMzY3IzdA==',
  );
  assert.equal(ev('{{ config.key }}', { config }, 'string'), 'k1');
  assert.equal(ev('Token {{ session_token }}', { config, session_token: 'T0' }, 'string'), 'Token T0');
  assert.equal(
    ev(
      "{{ json_loads(config['sa'])['private_key'] }}",
      { config: { sa: '{"private_key": "pk"}' }, json_loads: (s: string) => JSON.parse(s) },
      'string',
    ),
    'pk',
  );
});

test('next_page_token: null on the first page renders empty; later pages read the token', () => {
  assert.equal(ev("{{ next_page_token['next_page_token'] }}", { next_page_token: null }, 'string'), '');
  assert.equal(ev('{{ next_page_token.next_page_token }}', { next_page_token: { next_page_token: 'c2' } }, 'string'), 'c2');
});

test('a TypeError while rendering yields the raw template (reference quirk)', () => {
  assert.equal(ev("{{ 1 + 'a' }}", {}, 'string'), "{{ 1 + 'a' }}");
});

test('errors carry failureType config_error and never include config values', () => {
  try {
    ev('{{ config.secret.nested.more }}{{ undefined_thing }}', { config: { secret: 'hunter2' } }, 'string');
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof RuntimeError);
    assert.equal(e.failureType, 'config_error');
    assert.doesNotMatch(e.message, /hunter2/);
  }
  void env;
});

test("Jinja's self is declared: attributes render empty, as in the reference's error messages", () => {
  assert.equal(ev('Stream {{ self.name }}: rate limited', {}, 'string'), 'Stream : rate limited');
});

test('evalString with valid types keeps text that is another literal type', () => {
  const ctx = { config: { id: '0012', n: '12' }, parameters: {} };
  assert.equal(evalString('{{ config.n }}', ctx, { validTypes: ['str'] }), '12');
  assert.equal(evalString('{{ config.id }}', ctx), '0012');
  assert.equal(evalString('{{ config.n }}', ctx), 12);
  void env;
});

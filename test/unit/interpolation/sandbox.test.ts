// Sandbox: a template reaches nothing but its context, and no template can hang or exhaust the host.
// Every payload must end in a clean RuntimeError or a harmless (empty/undefined-like) result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpolate } from '../../../server/src/runtime/interpolation';
import { RuntimeError } from '../../../server/src/runtime/errors';

const ctx = { config: { api_key: 'SECRET-VALUE', nested: { a: 1 } }, parameters: {}, record: { id: 1 } };

/** Result of a payload: 'error:<kind>' or the rendered value. */
function run(payload: string): unknown {
  try {
    return interpolate(payload, ctx, 'jinja');
  } catch (e) {
    assert.ok(e instanceof RuntimeError, `payload ${payload} crashed with ${(e as Error)?.constructor?.name}: ${(e as Error).message}`);
    assert.doesNotMatch(e.message, /SECRET-VALUE/, 'no secret in the message');
    return `error:${e.kind}`;
  }
}

const REACH_NOTHING: string[] = [
  "{{ ''.__class__ }}",
  "{{ ''.__class__.__mro__ }}",
  '{{ config.__class__ }}',
  '{{ config.__proto__ }}',
  "{{ config['__proto__'] }}",
  '{{ config.constructor }}',
  "{{ config['constructor'] }}",
  "{{ config.constructor.constructor('return process')() }}",
  '{{ [].constructor }}',
  "{{ ''.constructor }}",
  '{{ config.toString }}',
  '{{ config.hasOwnProperty }}',
  '{{ config.valueOf }}',
  '{{ config.__init__.__globals__ }}',
  '{{ record._id }}',
  '{{ now_utc.__globals__ }}',
  '{{ now_utc().__class__ }}',
  '{{ config.get.__self__ }}',
  '{{ (1).__class__.__subclasses__() }}',
  '{{ lipsum.__globals__ }}',
  '{{ cycler.__init__ }}',
  "{{ 'x'.prototype }}",
  '{{ config.nested.__dict__ }}',
  '{{ self.__class__ }}',
  '{{ self._TemplateReference__context }}',
];

const UNDECLARED: string[] = [
  '{{ process }}',
  "{{ require('fs') }}",
  '{{ globalThis }}',
  '{{ range(10) }}',
  "{{ eval('1') }}",
  "{{ getattr(config, 'x') }}",
  '{{ __builtins__ }}',
  "{{ import('os') }}",
  '{{ Function }}',
];

const EXHAUSTION: string[] = [
  "{{ 'a' * 100000000 }}",
  '{{ [1] * 100000000 }}',
  "{% set x = 'a' * 900000 %}{{ x ~ x }}",
  "{% for i in 'x' * 900000 %}{% for j in 'x' * 900000 %}{% endfor %}{% endfor %}",
  '{{ 10 ** 10000 }}',
  "{{ 'x' | center(10**8) }}",
  "{% set l = [] %}{% for i in 'x' * 900000 %}{% set _ = l.append(l) %}{% endfor %}{{ l }}",
  '{{ ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ' }}',
  '{{ ' + '['.repeat(3000) + ']'.repeat(3000) + ' }}',
  '{{ x' + '|string'.repeat(100000) + ' }}',
];

const SYNTAX: string[] = [
  '{% for x in [1] %}{% break %}{% endfor %}',
  '{% import os %}',
  '{{ [x for x in [1]] }}',
  '{{ lambda: 1 }}',
  '{% macro m() %}{% endmacro %}',
];

test(`${REACH_NOTHING.length} payloads reaching JS/Python internals render nothing or fail cleanly`, () => {
  for (const p of REACH_NOTHING) {
    const r = run(p);
    assert.ok(r === null || (typeof r === 'string' && r.startsWith('error:')), `${p} → ${String(r)}`);
  }
});

test(`${UNDECLARED.length} payloads naming host globals or removed globals are undeclared variables`, () => {
  for (const p of UNDECLARED) assert.equal(run(p), 'error:undeclared_variable', p);
});

test(`${EXHAUSTION.length} exhaustion payloads are stopped by the budget`, () => {
  for (const p of EXHAUSTION) {
    const r = run(p);
    assert.ok(typeof r === 'string' && r.startsWith('error:'), `${p.slice(0, 60)} → ${String(r).slice(0, 60)}`);
  }
});

test("a catastrophic-backtracking pattern runs in linear time on RE2 and gives Python's answer", () => {
  const started = Date.now();
  assert.equal(run("{{ ('a' * 50000) | regex_replace('(a+)+$', 'b') }}"), 'b');
  // A hang guard: on a backtracking engine this pattern runs for hours.
  assert.ok(Date.now() - started < 20_000);
});

test('deeply nested literal text renders as text without exhausting the stack', () => {
  const r = run("{{ '[' * 100000 ~ ']' * 100000 }}");
  assert.equal(typeof r, 'string');
  assert.equal((r as string).length, 200000);
});

test(`${SYNTAX.length} unsupported constructs are syntax errors`, () => {
  for (const p of SYNTAX) assert.equal(run(p), 'error:template_syntax_error', p);
});

test('sandbox never mutates the host: prototype pollution attempts do nothing', () => {
  run("{% set _ = config.update({'__proto__': {'polluted': 1}}) %}");
  run("{% set x = {'__proto__': {'polluted': 1}} %}{{ x.polluted }}");
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
});

test('total payload count is at least 30', () => {
  assert.ok(REACH_NOTHING.length + UNDECLARED.length + EXHAUSTION.length + SYNTAX.length >= 30);
});

test('a mapping key starting with _ is reachable as an attribute (Jinja falls back to the item); dict dunders are not', () => {
  const hal = { response: { _links: { next: { href: 'https://x/items?page=2' } }, __class__: 'shadow', __meta__: 1 } };
  assert.equal(interpolate('{{ response._links.next.href }}', hal, 'jinja'), 'https://x/items?page=2');
  assert.equal(interpolate("{{ response['_links']['next']['href'] }}", hal, 'jinja'), 'https://x/items?page=2');
  // `__class__` is a real attribute of a Python dict: the sandbox refuses it even though the key exists.
  assert.equal(interpolate('{{ response.__class__ }}', hal, 'jinja'), null);
  // `__meta__` is not a dict attribute, so the item is returned.
  assert.equal(interpolate('{{ response.__meta__ }}', hal, 'jinja'), 1);
  assert.equal(interpolate("{{ ''._x }}", hal, 'jinja'), null);
});

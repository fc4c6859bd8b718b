// Spec §3.3 / §13: rendered text is converted back with Python literal rules, not JSON rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { literalEval } from '../../../server/src/runtime/interpolation/literal';
import { toPlain } from '../../../server/src/runtime/interpolation/values';

const lit = (text: string, types?: Parameters<typeof literalEval>[1]) => toPlain(literalEval(text, types));

test('integers: decimal, leading whitespace, sign, underscores, hex/octal/binary', () => {
  assert.equal(lit('123'), 123);
  assert.equal(lit(' 42'), 42);
  assert.equal(lit('\t7'), 7);
  assert.equal(lit('-5'), -5);
  assert.equal(lit('1_000'), 1000);
  assert.equal(lit('0x1A'), 26);
  assert.equal(lit('0o17'), 15);
  assert.equal(lit('0b11'), 3);
  assert.equal(lit('000'), 0);
});

test('floats: 1.5, 1e3, .5 and overflow to infinity', () => {
  assert.equal(lit('1.5'), 1.5);
  assert.equal(lit('1e3'), 1000);
  assert.equal(lit('.5'), 0.5);
  assert.equal(lit('1e400'), Infinity);
});

test('text that is not a Python literal is returned unchanged', () => {
  for (const s of ['007', '2023-01-15', 'true', 'false', 'null', '1j', 'abc', '1 + 2', 'f"x"', '1__0', '1_', "'unterminated", 'x.y', '']) {
    assert.equal(lit(s), s, s);
  }
});

test('True / False / None become bool / bool / null', () => {
  assert.equal(lit('True'), true);
  assert.equal(lit('False'), false);
  assert.equal(lit('None'), null);
});

test('quoted strings lose their quotes; triple quotes, escapes, prefixes and concatenation', () => {
  assert.equal(lit("'abc'"), 'abc');
  assert.equal(lit('"abc"'), 'abc');
  assert.equal(lit('"""x"""'), 'x');
  assert.equal(lit("'a\\nb'"), 'a\nb');
  assert.equal(lit("r'a\\nb'"), 'a\\nb');
  assert.equal(lit("'a' 'b'"), 'ab');
  assert.equal(lit("'\\x41\\u00e9'"), 'Aé');
});

test('containers: list, dict, tuple, set, set(), nesting and trailing commas', () => {
  assert.deepEqual(lit('[1, 2]'), [1, 2]);
  assert.deepEqual(lit("{'a': 1}"), { a: 1 });
  assert.deepEqual(lit('(1, 2)'), [1, 2]);
  assert.deepEqual(lit('{1, 2}'), [1, 2]);
  assert.deepEqual(lit('set()'), []);
  assert.deepEqual(lit('{}'), {});
  assert.deepEqual(lit("{'k': [True, None, {'n': -1.5}],}"), { k: [true, null, { n: -1.5 }] });
  assert.deepEqual(lit('1, 2'), [1, 2]);
  assert.equal(lit('(1)'), 1);
});

test('complex numbers are rejected (the text is kept)', () => {
  assert.equal(lit('1j'), '1j');
  assert.equal(lit('1+2j'), '1+2j');
});

test('valid_types keeps the text when the literal has another type; bool counts as int', () => {
  assert.equal(lit('123', ['str']), '123');
  assert.deepEqual(lit('[1]', ['str', 'list']), [1]);
  assert.equal(lit('True', ['int']), true);
  assert.equal(lit('1.5', ['int']), '1.5');
});

test('integers beyond 2^53 stay exact (as digit text for JS callers); more than 4300 digits stay text', () => {
  assert.equal(literalEval('12345678901234567890'), 12345678901234567890n);
  assert.equal(lit('12345678901234567890'), '12345678901234567890');
  const huge = '9'.repeat(4301);
  assert.equal(lit(huge), huge);
});

test('deep nesting is bounded and falls back to text', () => {
  const deep = '['.repeat(500) + ']'.repeat(500);
  assert.equal(lit(deep), deep);
});

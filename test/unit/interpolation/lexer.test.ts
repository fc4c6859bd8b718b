// The template tokenizer's tokens and offsets: diagnostics inside a template are placed from them,
// so each case checks where every token starts and ends, not only what it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TemplateSyntaxError, tokenize } from '../../../server/src/runtime/interpolation/lexer';

const tokens = (source: string) => tokenize(source).map((t) => [t.type, t.value, t.start, t.end]);

function syntaxError(source: string): [string, number, number] {
  try {
    tokenize(source);
  } catch (e) {
    assert.ok(e instanceof TemplateSyntaxError);
    return [e.message, e.start, e.end];
  }
  assert.fail(`no error for ${JSON.stringify(source)}`);
}

test('expressions inside a long query: each token at its offset in the whole template', () => {
  assert.deepEqual(tokens("WHERE a > '{{ s.t[:-2] }}' AND {{ (n or 0) + 1 }}"), [
    ['data', "WHERE a > '", 0, 11],
    ['var_begin', '{', 11, 13],
    ['name', 's', 14, 15],
    ['op', '.', 15, 16],
    ['name', 't', 16, 17],
    ['op', '[', 17, 18],
    ['op', ':', 18, 19],
    ['op', '-', 19, 20],
    ['int', '2', 20, 21],
    ['op', ']', 21, 22],
    ['var_end', '}}', 23, 25],
    ['data', "' AND ", 25, 31],
    ['var_begin', '{', 31, 33],
    ['op', '(', 34, 35],
    ['name', 'n', 35, 36],
    ['name', 'or', 37, 39],
    ['int', '0', 40, 41],
    ['op', ')', 41, 42],
    ['op', '+', 43, 44],
    ['int', '1', 45, 46],
    ['var_end', '}}', 47, 49],
    ['eof', '', 49, 49],
  ]);
});

test('numbers with underscores and exponents, adjacent strings', () => {
  assert.deepEqual(tokens('{{ f(1_000, 2.5e3) }}').slice(2, 6), [
    ['op', '(', 4, 5],
    ['int', '1000', 5, 10],
    ['op', ',', 10, 11],
    ['float', '2.5e3', 12, 17],
  ]);
  assert.deepEqual(tokens("{{ 'it''s' }}").slice(1, 3), [
    ['string', 'it', 3, 7],
    ['string', 's', 7, 10],
  ]);
});

test('raw blocks and comments with whitespace control keep the offsets of what they leave', () => {
  assert.deepEqual(tokens('a {%- raw -%} {{ x }} {%- endraw %} b'), [
    ['data', 'a', 0, 1],
    ['data', '{{ x }}', 14, 21],
    ['data', ' b', 35, 37],
    ['eof', '', 37, 37],
  ]);
  assert.deepEqual(tokens('x {# c #} {{- y -}} z\n'), [
    ['data', 'x ', 0, 2],
    ['var_begin', '{', 10, 13],
    ['name', 'y', 14, 15],
    ['var_end', '}}', 16, 19],
    ['data', 'z', 20, 21],
    ['eof', '', 22, 22],
  ]);
});

test('one trailing line break (\\n or \\r\\n) is dropped', () => {
  assert.deepEqual(tokens('{{ x }}\r\n'), [
    ['var_begin', '{', 0, 2],
    ['name', 'x', 3, 4],
    ['var_end', '}}', 5, 7],
    ['eof', '', 9, 9],
  ]);
});

test('syntax errors carry the offsets of what is wrong', () => {
  assert.deepEqual(syntaxError('{{ x ]}}'), ["unexpected ']'", 5, 6]);
  assert.deepEqual(syntaxError('{{ x '), ["unexpected end of template, expected '}}'", 0, 5]);
  assert.deepEqual(syntaxError("{{ 'abc }}"), ['unterminated string', 3, 4]);
  assert.deepEqual(syntaxError('{% raw %}{{ y }}'), ["missing '{% endraw %}'", 0, 16]);
});

test('a template tokenized twice gives the same tokens (the patterns keep no position between calls)', () => {
  const source = "{% if a %}{{ b['c'] | d(1) }}{% endif %}";
  assert.deepEqual(tokens(source), tokens(source));
  const shifted = tokens(source).map(([t, v, s, e]) => [t, v, (s as number) + 2, (e as number) + 2]);
  assert.deepEqual(tokens(`x ${source}`).slice(1), shifted);
});

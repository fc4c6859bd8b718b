// blankOverlongLines against a line-by-line reading of the same text: its quick check (one search
// per window of max/2 characters) must never miss an overlong line, wherever it sits and however
// its line ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blankOverlongLines } from '../../../server/src/longLines';

/** The overlong lines as a reader going line by line finds them (a `\r` before `\n` is not content). */
function overlongByLine(text: string, max: number): { start: number; length: number }[] {
  const found: { start: number; length: number }[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    const length = line.endsWith('\r') ? line.length - 1 : line.length;
    if (length > max) found.push({ start, length });
    start += line.length + 1;
  }
  return found;
}

test('finds every overlong line of random texts, at every position and length around the limit', () => {
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (const max of [1, 2, 3, 7, 10, 31]) {
    for (let round = 0; round < 400; round++) {
      const lines: string[] = [];
      const count = 1 + random(12);
      for (let i = 0; i < count; i++) {
        // Mostly short lines, some just under, at and over the limit.
        const length = random(4) === 0 ? max - 1 + random(4) : random(max);
        lines.push('x'.repeat(Math.max(0, length)) + (random(3) === 0 ? '\r' : ''));
      }
      const text = lines.join('\n') + (random(2) ? '\n' : '');
      const expected = overlongByLine(text, max);
      const result = blankOverlongLines(text, max);
      assert.deepEqual(result.lines, expected, JSON.stringify({ max, text }));
      assert.equal(result.text.length, text.length);
      if (expected.length === 0) assert.equal(result.text, text);
      for (const l of expected) assert.equal(result.text.slice(l.start, l.start + l.length), `#${' '.repeat(l.length - 1)}`);
    }
  }
});

test('a single line one over the limit is found at every offset of a text of short lines', () => {
  for (const max of [2, 5, 8, 9, 40]) {
    const before = 'ab\n'.repeat(3 * max);
    for (let shift = 0; shift <= 2 * max; shift++) {
      // Empty lines move the overlong one by one character at a time.
      const text = `${'\n'.repeat(shift)}${before}${'y'.repeat(max + 1)}\n${before}`;
      const start = shift + before.length;
      assert.deepEqual(blankOverlongLines(text, max).lines, [{ start, length: max + 1 }], `max ${max}, shift ${shift}`);
    }
  }
});

test('a long text of short lines is returned as is, the same string', () => {
  const text = 'key: value\n'.repeat(50_000);
  const result = blankOverlongLines(text, 1000);
  assert.equal(result.text, text);
  assert.deepEqual(result.lines, []);
});

test('one overlong line at the start, in the middle or at the end of a long text is found', () => {
  const short = 'a: 1\n'.repeat(3000);
  const long = 'b'.repeat(1001);
  for (const [text, start] of [
    [`${long}\n${short}`, 0],
    [`${short}${long}\n${short}`, short.length],
    [`${short}${long}`, short.length],
    [`${short}${long}\r\n`, short.length],
  ] as const) {
    assert.deepEqual(blankOverlongLines(text, 1000).lines, [{ start, length: 1001 }]);
  }
  // Exactly at the limit is not overlong.
  assert.deepEqual(blankOverlongLines(`${short}${'c'.repeat(1000)}\n${short}`, 1000).lines, []);
});
